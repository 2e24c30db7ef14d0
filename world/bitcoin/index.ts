/**
 * The embedded Bitcoin chain: a deterministic (per seed) chain of real-format blocks and
 * transactions, built in process and served through an Esplora-compatible API on a local port.
 * Engines only ever talk to that API (chain/esplora.ts), so a real Esplora serves them the same.
 */
import type { BitcoinEntity, BtcPrices } from '../../skills/bitcoin/source.js';
import type { ReferencePaths } from '../reference.js';
import { BitcoinWorld } from './bitcoin-world.js';
import type { BitcoinChain } from './chain.js';
import { serveEsplora } from './esplora-server.js';
import { writeBitcoinLabels, type BitcoinLabels } from './labels.js';

export { serveEsplora } from './esplora-server.js';
export type { BitcoinChain } from './chain.js';
export type { BitcoinLabels, ExposureReason } from './labels.js';
export { BLOCK_SCALE, BLOCK_WEIGHT_LIMIT } from './fees.js';

export interface EmbeddedBitcoinOptions {
  /** The EVM world's WORLD_SEED and WORLD_DAYS. */
  readonly seed: string;
  readonly days: number;
  /** Unix seconds where the world's dense history starts (ReferencePaths.origin). */
  readonly origin: number;
  /** BTC/USD after the origin; the chain's own pre-history path before it. */
  readonly reference: ReferencePaths;
  /** Default 127.0.0.1; port 0 = any free port. */
  readonly host?: string;
  readonly port?: number;
  /** Default true: after the history, keep mining in real time (Poisson, mean 600 s) and adding mempool txs. */
  readonly liveBlocks?: boolean;
  /** When set: a built chain is cached there and reloaded (key: seed, days, origin). */
  readonly cacheDir?: string;
  /** Where to write the labels JSON (for eval:detectors). */
  readonly labelsPath?: string;
  readonly onProgress?: (msg: string) => void;
}

export interface EmbeddedBitcoin {
  /** Esplora base URL (routes directly under it). */
  readonly url: string;
  readonly entities: BitcoinEntity[];
  readonly prices: BtcPrices;
  /** Ground truth as of the end of the build. */
  readonly labels: BitcoinLabels;
  /** The chain itself (tests and evaluation: serveEsplora(chain, { asOfHeight })). */
  readonly chain: BitcoinChain;
  close(): Promise<void>;
}

/** Seconds between live steps (arrivals and blocks due by then are produced). */
const LIVE_STEP_MS = 2_000;

export async function startEmbeddedBitcoin(o: EmbeddedBitcoinOptions): Promise<EmbeddedBitcoin> {
  const world = await BitcoinWorld.build({ seed: o.seed, days: o.days, origin: o.origin, reference: o.reference, onProgress: o.onProgress });
  const labels = world.labels();
  if (o.labelsPath) await writeBitcoinLabels(o.labelsPath, labels);
  const server = await serveEsplora(world.engine.chain, { host: o.host, port: o.port });
  let timer: NodeJS.Timeout | undefined;
  let stepping: Promise<void> = Promise.resolve();
  if (o.liveBlocks ?? true) {
    // History ends at origin + days (deterministic); the live chain catches up to the clock from there.
    timer = setInterval(() => {
      stepping = stepping.then(() => world.advanceTo(Math.floor(Date.now() / 1000))).catch((err) => o.onProgress?.(`bitcoin live step failed: ${(err as Error).message}`));
    }, LIVE_STEP_MS);
    timer.unref();
  }
  o.onProgress?.(`bitcoin ${o.seed}: Esplora API on ${server.url} (tip ${world.engine.chain.tip.height})`);
  return {
    url: server.url,
    entities: world.economy.entities(),
    prices: world.prices,
    labels,
    chain: world.engine.chain,
    async close() {
      if (timer) clearInterval(timer);
      await stepping;
      await server.close();
    },
  };
}
