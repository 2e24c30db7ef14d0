/** `npm start`: the service on its embedded defaults, or on whatever the environment configures. */
import { demoAccount, demoPrivateKey } from '../chain/accounts.js';
import { ConfigError, DEFAULT_HOST, DEFAULT_PORT, httpUrl, loadConfig, reachableUrl } from './config.js';
import { createLogger } from './observability/logger.js';
import { startSibyl, type Sibyl } from './service.js';
import { PAYMENT_ASSET_SYMBOL, X402_NETWORK } from '../payments/terms.js';
import { setFlagsFromString } from 'node:v8';

/** What a stop by each signal exits with (128 + the signal's number, as a shell reports it). */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * Signals closer together than this are one stop: a terminal's Ctrl-C reaches this process and
 * the npm and tsx processes above it, which forward it again.
 */
const SAME_STOP_MS = 1_000;

/**
 * While serving, the heap may grow to this much more than what survived its last full collection
 * (V8's own rule lets it grow up to 4x when allocation is brisk). Measured with
 * test/bench/soak.ts (mixed load, ~270 MB surviving): V8's rule took RSS from 741 to 1,289 MB over
 * 8 minutes, held to 1.5x it went from 553 to 658 MB over 4 minutes, at no lower throughput.
 */
const SERVING_HEAP_GROWING_PERCENT = 50;

/** What the ready line says of the world cache. */
const WORLD_CACHE = { loaded: 'world loaded from its cache', written: 'world built and cached', 'not written': 'world built, not cached', off: 'world not cached (WORLD_CACHE_DIR=off)' } as const;

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.log);
  const started = Date.now();
  let sibyl: Sibyl | undefined;
  let stoppingSince: number | undefined;
  const leave = (code: number) => logger.flush(() => process.exit(code));
  // Listened for from the first moment: a stop during start-up leaves at once, and the exit hooks
  // stop the chains' nodes and discard a world cache half written, so nothing half done is kept.
  // After "ready" the world cache is complete: a stop closes everything in order, a second one leaves at once.
  const stop = (signal: keyof typeof SIGNAL_EXIT) => {
    if (stoppingSince !== undefined && Date.now() - stoppingSince < SAME_STOP_MS) return;
    const again = stoppingSince !== undefined;
    stoppingSince = Date.now();
    if (!sibyl || again) {
      logger.info(`Sibyl stopping (${signal}${sibyl ? ', again' : ' during start-up'}): leaving now`);
      return leave(SIGNAL_EXIT[signal]);
    }
    logger.info(`Sibyl stopping (${signal})…`);
    sibyl.close().then(() => leave(0), (err: unknown) => {
      logger.error({ err }, 'Sibyl stopped with an error');
      leave(1);
    });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  logger.info('Sibyl starting…');
  // Start-up progress (world writing, indexing, the Bitcoin chain) as it happens.
  sibyl = await startSibyl(config, { logger, onProgress: (m) => logger.info({ phase: 'start-up' }, m) });
  // Start-up (the world written, indexed, cached) keeps V8's own sizing; a value given to node wins.
  if (!process.execArgv.some((a) => /^--heap[-_]growing[-_]percent/.test(a))) setFlagsFromString(`--heap-growing-percent=${SERVING_HEAP_GROWING_PERCENT}`);
  const url = reachableUrl(config, sibyl.port);
  const worldCache = sibyl.worldCache && WORLD_CACHE[sibyl.worldCache];
  logger.info(
    { url, listening: sibyl.url, store: sibyl.store.kind, facilitator: sibyl.facilitator.kind, worldCache: sibyl.worldCache, readyMs: Date.now() - started },
    `Sibyl ready in ${Date.now() - started} ms at ${url}  (store: ${sibyl.store.kind}, facilitator: ${sibyl.facilitator.kind}${worldCache ? `, ${worldCache}` : ''})`,
  );
  if (url !== sibyl.url) logger.info(`listening on ${sibyl.url}`);
  for (const c of sibyl.chains.list()) logger.info({ chain: c.name, chainId: c.spec.chainId, source: c.source }, `${c.name.padEnd(9)} chain ${String(c.spec.chainId).padEnd(6)} ${c.source.padEnd(8)} ${c.rpcUrl}`);
  logger.info(`payments: ${PAYMENT_ASSET_SYMBOL} on ${X402_NETWORK} to ${config.payTo}`);
  logger.info(`pages: ${url}/ (catalogue and try-it), ${url}/docs, ${url}/forecast, ${url}/llms.txt`);
  logger.info(`health: ${url}/livez (the process serves), ${url}/readyz (503 only while a part needed to sell is down), ${url}/healthz (each part's state)`);
  if (sibyl.devnet) {
    logger.info(`demo payer (holds USDC on the devnet): ${demoAccount(1).address}`);
    logger.info(`  key ${demoPrivateKey(1)}  (public development mnemonic; worthless anywhere else)`);
    // `npm run pay` asks the default address unless SIBYL_URL names another.
    const payUrl = url === httpUrl(DEFAULT_HOST, DEFAULT_PORT) ? '' : `SIBYL_URL=${url} `;
    logger.info(`try:  ${payUrl}npm run pay -- /x402/data/latest-pairs '{"limit":5}'`);
  }
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err);
  process.exit(1);
});
