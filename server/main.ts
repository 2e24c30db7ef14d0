/** `npm start`: the service on its embedded defaults, or on whatever the environment configures. */
import { demoAccount, demoPrivateKey } from '../chain/accounts.js';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './observability/logger.js';
import { startSibyl } from './service.js';
import { PAYMENT_ASSET_SYMBOL, X402_NETWORK } from '../payments/terms.js';

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.log);
  const started = Date.now();
  logger.info('Sibyl starting…');
  // Start-up progress (world writing, indexing, the Bitcoin chain) as it happens.
  const sibyl = await startSibyl(config, { logger, onProgress: (m) => logger.info({ phase: 'start-up' }, m) });
  logger.info({ url: sibyl.url, store: sibyl.store.kind, facilitator: sibyl.facilitator.kind, readyMs: Date.now() - started }, `Sibyl ready in ${Date.now() - started} ms at ${sibyl.url}  (store: ${sibyl.store.kind}, facilitator: ${sibyl.facilitator.kind})`);
  for (const c of sibyl.chains.list()) logger.info({ chain: c.name, chainId: c.spec.chainId, source: c.source }, `${c.name.padEnd(9)} chain ${String(c.spec.chainId).padEnd(6)} ${c.source.padEnd(8)} ${c.rpcUrl}`);
  logger.info(`payments: ${PAYMENT_ASSET_SYMBOL} on ${X402_NETWORK} to ${config.payTo}`);
  logger.info(`pages: ${sibyl.url}/ (catalogue and try-it), ${sibyl.url}/docs, ${sibyl.url}/forecast, ${sibyl.url}/llms.txt`);
  if (sibyl.devnet) {
    logger.info(`demo payer (holds USDC on the devnet): ${demoAccount(1).address}`);
    logger.info(`  key ${demoPrivateKey(1)}  (public development mnemonic; worthless anywhere else)`);
    logger.info(`try:  npm run pay -- /x402/data/latest-pairs '{"limit":5}'`);
  }
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    logger.info('Sibyl stopping…');
    await sibyl.close();
    // The last lines are written before the process goes.
    await new Promise<void>((resolve) => logger.flush(() => resolve()));
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err);
  process.exit(1);
});
