/**
 * The embedded Bitcoin chain: a deterministic (per seed) chain of real-format blocks and
 * transactions, built in process and served through an Esplora-compatible API on a local port.
 * Engines only ever talk to that API (chain/esplora.ts), so a real Esplora serves them the same.
 */
import { join } from 'node:path';
import type { BitcoinEntity, BtcPrices } from '../../chain/bitcoin.js';
import type { ReferencePaths } from '../reference.js';
import { BitcoinWorld } from './bitcoin-world.js';
import type { BitcoinChain } from './chain.js';
import { curveMemo } from './curve-memo.js';
import { serveEsplora } from './esplora-server.js';
import { writeBitcoinLabels, type BitcoinLabels } from './labels.js';
import { BtcPricePath } from './prices.js';

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
  /**
   * When set: the chain's curve work (keys, tweaks, signatures) is saved there, so a later start
   * replays the same seed's chain without it (the chain for a seed, days and origin is always the
   * same; see curve-memo.ts).
   */
  readonly cacheDir?: string;
  /** Where to write the labels JSON (for eval:detectors). */
  readonly labelsPath?: string;
  readonly onProgress?: (msg: string) => void;
  /** The live chain's clock, unix seconds (tests run it fast); default the wall clock. */
  readonly clock?: () => number;
  /** Milliseconds between live steps (default 2,000). */
  readonly liveStepMs?: number;
  /**
   * `worker`: build, serve and run the chain on a worker thread, so the service's event loop
   * never carries the simulation (then `chain` is absent and `clock` is the wall clock).
   * Default `main`.
   */
  readonly thread?: 'main' | 'worker';
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

/** Milliseconds between live steps (the arrivals and blocks due by then are produced). */
const LIVE_STEP_MS = 2_000;

/** The chain on a worker thread: everything but the chain object itself. */
export type EmbeddedBitcoinThread = Omit<EmbeddedBitcoin, 'chain'>;

export async function startEmbeddedBitcoin(o: EmbeddedBitcoinOptions & { readonly thread: 'worker' }): Promise<EmbeddedBitcoinThread>;
export async function startEmbeddedBitcoin(o: EmbeddedBitcoinOptions & { readonly thread?: 'main' }): Promise<EmbeddedBitcoin>;
export async function startEmbeddedBitcoin(o: EmbeddedBitcoinOptions): Promise<EmbeddedBitcoinThread>;
export async function startEmbeddedBitcoin(o: EmbeddedBitcoinOptions): Promise<EmbeddedBitcoin | EmbeddedBitcoinThread> {
  if (o.thread === 'worker') {
    const { startInWorker } = await import('./thread.js');
    const { seed, days, origin, host, port, liveBlocks, liveStepMs, cacheDir, labelsPath } = o;
    const h = await startInWorker({ seed, days, origin, host, port, liveBlocks, liveStepMs, cacheDir, labelsPath }, o.onProgress);
    return { url: h.url, entities: h.entities, labels: h.labels, prices: new BtcPricePath(o.seed, o.reference), close: h.close };
  }
  const started = performance.now();
  const memoFile = o.cacheDir ? join(o.cacheDir, `bitcoin-${o.seed.replace(/[^\w.-]/g, '_').slice(0, 40)}.curve-memo`) : undefined;
  if (memoFile) await curveMemo.load(memoFile);
  const misses = curveMemo.misses;
  const world = await BitcoinWorld.build({ seed: o.seed, days: o.days, origin: o.origin, reference: o.reference, onProgress: o.onProgress });
  const live = o.liveBlocks ?? true;
  const clock = o.clock ?? (() => Math.floor(Date.now() / 1000));
  // History ends at origin + days (deterministic); a live chain first catches up with the clock (after a cached origin, that may be hours).
  if (live) await world.advanceTo(clock());
  const labels = world.labels();
  let saving: Promise<unknown> = Promise.resolve();
  if (memoFile && curveMemo.misses > misses) saving = curveMemo.save(memoFile).catch((err) => o.onProgress?.(`bitcoin cache not written: ${(err as Error).message}`));
  o.onProgress?.(`bitcoin ${o.seed}: ready in ${Math.round(performance.now() - started)} ms (${curveMemo.misses - misses} curve operations computed, the rest from ${memoFile ?? 'no cache'})`);
  if (o.labelsPath) await writeBitcoinLabels(o.labelsPath, labels);
  const server = await serveEsplora(world.engine.chain, { host: o.host, port: o.port });
  let timer: NodeJS.Timeout | undefined;
  let stepping: Promise<void> = Promise.resolve();
  if (live) {
    timer = setInterval(() => {
      stepping = stepping.then(() => world.advanceTo(clock())).catch((err) => o.onProgress?.(`bitcoin live step failed: ${(err as Error).message}`));
    }, o.liveStepMs ?? LIVE_STEP_MS);
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
      await saving;
      await server.close();
    },
  };
}
