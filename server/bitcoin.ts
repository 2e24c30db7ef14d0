/**
 * The Bitcoin chain the Bitcoin engines read: the embedded one (built from the world's seed and
 * BTC path, served as an Esplora API on a local port) or a real Esplora (BITCOIN_ESPLORA_URL).
 * Either way the engines get an Esplora client and nothing else of the chain.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { EsploraClient } from '../chain/esplora.js';
import type { BitcoinEntity, BitcoinSource } from '../chain/bitcoin.js';
import type { ReferencePaths } from '../world/reference.js';
import { BitcoinIndexer } from '../indexer/bitcoin/indexer.js';
import { bitcoinObservers } from '../skills/bitcoin/observers/observers.js';
import { ExposureObserver } from '../skills/quantum/readiness/observer.js';
import { ConfigError, type Config } from './config.js';

export interface BitcoinRuntime {
  readonly source: BitcoinSource;
  close(): Promise<void>;
}

/** A real Esplora has no price history here: USD figures and MVRV then say they are unavailable. */
const NO_PRICES = { source: 'none (no BTC price history configured for this Esplora)', at: () => null };

const entitiesFile = z.array(
  z.strictObject({
    name: z.string().min(1),
    kind: z.enum(['exchange', 'miner', 'custodian']),
    addresses: z.array(z.string().min(14).max(100)).min(1),
    backs: z.string().min(1).optional(),
  }),
);

async function readEntities(path: string | undefined): Promise<BitcoinEntity[]> {
  if (!path) return [];
  const parsed = entitiesFile.safeParse(JSON.parse(await readFile(path, 'utf8').catch((err: Error) => {
    throw new ConfigError(`BITCOIN_ENTITIES_FILE: ${err.message}`);
  })));
  if (!parsed.success) throw new ConfigError(`BITCOIN_ENTITIES_FILE: ${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

/**
 * The configured Bitcoin chain, or undefined (BITCOIN=off, or an embedded chain without the
 * world whose seed and BTC path it is built from).
 */
export async function startBitcoin(
  config: Config,
  world: { reference: ReferencePaths } | undefined,
  onProgress?: (msg: string) => void,
): Promise<BitcoinRuntime | undefined> {
  const bitcoin = config.bitcoin;
  if (!bitcoin) return undefined;
  if (bitcoin.kind === 'esplora') {
    const source: BitcoinSource = { kind: 'esplora', esplora: new EsploraClient(bitcoin.url), prices: NO_PRICES, entities: await readEntities(bitcoin.entitiesFile) };
    return { source, close: async () => {} };
  }
  if (!world || !config.world) return undefined;
  // Imported here: a deployment reading a real Esplora never loads the simulator.
  const { startEmbeddedBitcoin } = await import('../world/bitcoin/index.js');
  const started = Date.now();
  const embedded = await startEmbeddedBitcoin({
    seed: config.world.seed,
    days: config.world.days,
    origin: world.reference.origin,
    reference: world.reference,
    port: bitcoin.port,
    ...(config.world.cacheDir && { cacheDir: join(config.world.cacheDir, 'bitcoin') }),
    labelsPath: config.world.labelsPath.replace(/(\.json)?$/, '.bitcoin.json'),
    onProgress,
  });
  onProgress?.(`bitcoin chain (embedded) ready in ${Date.now() - started} ms: Esplora API on ${embedded.url}`);
  const source: BitcoinSource = { kind: 'embedded', esplora: new EsploraClient(embedded.url), prices: embedded.prices, entities: embedded.entities };
  return { source, close: () => embedded.close() };
}

/**
 * The index over a Bitcoin source: from genesis (the embedded chain, or one a test hands in:
 * read to its tip before Sibyl serves), or the last BITCOIN_INDEX_BLOCKS of a real Esplora (read
 * in the background; whole-set metrics then say the set is partial). Then it follows the tip.
 */
export async function indexBitcoin(
  source: BitcoinSource,
  from: number | { blocksBehindTip: number },
  log: (msg: string, err?: unknown) => void,
  onProgress?: (msg: string) => void,
): Promise<BitcoinRuntime> {
  // The BRC-20, runes, staking and key-exposure indexes ride on the same read of each block.
  const index = new BitcoinIndexer({ esplora: source.esplora, prices: source.prices, entities: source.entities, observers: [...bitcoinObservers(), new ExposureObserver()], from, onError: (err) => log('bitcoin index failed', err) });
  if (from === 0) {
    const started = Date.now();
    await index.sync();
    onProgress?.(`bitcoin index: ${index.indexedHeight()! + 1} blocks read through ${source.esplora.baseUrl} in ${Date.now() - started} ms`);
  } else {
    void index.sync().catch((err: unknown) => log('bitcoin index failed', err));
  }
  index.follow();
  return { source: { ...source, index }, close: async () => index.close() };
}

/**
 * The configured (or handed-in) Bitcoin chain with its index: a real Esplora is read from its
 * last blocks, the embedded chain (or one a test hands in) from genesis.
 */
export async function startIndexedBitcoin(
  config: Config,
  world: { reference: ReferencePaths } | undefined,
  handed: BitcoinSource | undefined,
  log: (msg: string, err?: unknown) => void,
  onProgress?: (msg: string) => void,
): Promise<BitcoinRuntime | undefined> {
  const chain = handed ? { source: handed, close: async () => {} } : await startBitcoin(config, world, onProgress);
  if (!chain) return undefined;
  try {
    const from = config.bitcoin?.kind === 'esplora' && !handed ? { blocksBehindTip: config.bitcoin.indexBlocks } : 0;
    const indexed = await indexBitcoin(chain.source, from, log, onProgress);
    return { source: indexed.source, close: async () => { await indexed.close(); await chain.close(); } };
  } catch (err) {
    await chain.close();
    throw err;
  }
}
