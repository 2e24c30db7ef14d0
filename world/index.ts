/**
 * Starts the world on every embedded chain: each chain's simulator backfills the history (in
 * parallel across chains) or resumes a cached one and fast-forwards it, the labels are
 * written, and live block production begins when the caller says so (after indexing and
 * caching, so the cache's chain state, simulator state and index agree).
 */
import type { DevnetChain } from '../chain/devnet.js';
import { writeLabels } from './labels.js';
import { ReferencePaths } from './reference.js';
import { DENSE_HISTORY_SECONDS, World, type WorldState } from './world.js';
import type { WorldModuleFactory } from './modules/module.js';

export interface WorldConfig {
  readonly seed: string;
  readonly days: number;
  /** Mean simulated seconds between blocks during the backfill. */
  readonly meanBlockSeconds: number;
  /** Real milliseconds between live blocks (0: no live production). */
  readonly liveBlockMs: number;
  readonly labelsPath: string;
  /** Where built worlds are cached (undefined: never cached). */
  readonly cacheDir?: string | undefined;
  /**
   * Seconds between checkpoints of the payment chain (its state and simulator, beside the cache;
   * a later start resumes from the newest); other chains every ten times as long. 0 or unset: none.
   */
  readonly checkpointSeconds?: number | undefined;
  /** The protocols written beside the market (default: world/modules WORLD_MODULES). */
  readonly modules?: readonly WorldModuleFactory[] | undefined;
}

export interface RunningWorld {
  readonly worlds: readonly World[];
  /** The price paths every chain follows. */
  readonly reference: ReferencePaths;
  /** Begins producing a block every `liveBlockMs` of real time on every chain (no-op at 0). */
  startLive(onError: (err: unknown) => void): void;
  stop(): void;
}

/** The genesis timestamp a world of `days` days needs: history must end now, so it starts earlier. */
export function worldGenesisTimestamp(days: number, now = Date.now()): number {
  return Math.floor(now / 1000) - Math.ceil(days * 86_400) - 600;
}

/** The first simulated second of a history whose chains started at `worldGenesisTimestamp(days, now)`. */
export function worldOrigin(days: number, now = Date.now()): number {
  return worldGenesisTimestamp(days, now) + 300;
}

/** Builds the world and starts its live blocks: the one-call form tests and scripts use. */
export async function startWorld(
  chains: readonly DevnetChain[],
  config: WorldConfig,
  onProgress: (message: string) => void = () => {},
  onError: (err: unknown) => void = () => {},
  reference?: ReferencePaths,
): Promise<RunningWorld> {
  const running = await buildWorld(chains, config, onProgress, reference);
  running.startLive(onError);
  return running;
}

/** Writes the whole history on every chain (in parallel) up to now, and the labels; no live blocks yet. */
export async function buildWorld(
  chains: readonly DevnetChain[],
  config: WorldConfig,
  onProgress: (message: string) => void = () => {},
  /** The paths to follow (shared with other venues); by default ones starting at this history's origin. */
  reference?: ReferencePaths,
): Promise<RunningWorld> {
  const started = Date.now();
  const from = reference?.origin ?? worldOrigin(config.days, started);
  const paths = reference ?? new ReferencePaths(config.seed, from);
  const progress = progressReporter(chains.length, (pct) => onProgress(`world ${config.seed}: writing ${config.days} days of history, ${pct}%`));
  const worlds = await Promise.all(
    chains.map(async (c, i) => {
      const world = await World.create({ name: c.name, rpcUrl: c.rpcUrl, genesis: c.genesis, seed: config.seed, startTimestamp: from, meanBlockSeconds: config.meanBlockSeconds, reference: paths, modules: config.modules });
      // Dense history from a fixed offset of the origin (not of the clock at the end), so a seed
      // writes the same world whenever it is built; only the last block depends on the clock.
      await world.backfill(Math.floor(Date.now() / 1000), (f) => progress(i, f), from + Math.round(config.days * 86_400) - DENSE_HISTORY_SECONDS);
      await world.finishBackfill();
      return world;
    }),
  );
  await writeLabels(config.labelsPath, worlds.map((w) => w.labels));
  onProgress(`world ${config.seed}: ${config.days} days of history on ${chains.length} chains in ${Date.now() - started} ms; labels in ${config.labelsPath}`);
  return running(worlds, paths, config);
}

/**
 * Continues worlds whose chains were reloaded from a cache: each simulator resumes from its
 * saved state and fast-forwards from where the cache ended to now.
 */
export async function resumeWorld(
  chains: readonly DevnetChain[],
  config: WorldConfig,
  saved: ReadonlyMap<string, WorldState>,
  reference: ReferencePaths,
  onProgress: (message: string) => void = () => {},
): Promise<RunningWorld> {
  const started = Date.now();
  const progress = progressReporter(chains.length, (pct) => onProgress(`world ${config.seed}: fast-forwarding to now, ${pct}%`));
  const worlds = await Promise.all(
    chains.map(async (c, i) => {
      const state = saved.get(c.name)!;
      const world = await World.resume({ name: c.name, rpcUrl: c.rpcUrl, genesis: c.genesis, seed: config.seed, startTimestamp: reference.origin, meanBlockSeconds: config.meanBlockSeconds, reference, modules: config.modules }, state);
      await world.backfill(Math.floor(Date.now() / 1000), (f) => progress(i, f));
      await world.finishBackfill();
      return world;
    }),
  );
  await writeLabels(config.labelsPath, worlds.map((w) => w.labels));
  onProgress(`world ${config.seed}: resumed from the cache on ${chains.length} chains in ${Date.now() - started} ms; labels in ${config.labelsPath}`);
  return running(worlds, reference, config);
}

function running(worlds: World[], reference: ReferencePaths, config: WorldConfig): RunningWorld {
  return {
    worlds,
    reference,
    startLive: (onError) => {
      if (config.liveBlockMs > 0) for (const w of worlds) w.startLive(config.liveBlockMs, onError);
    },
    stop: () => worlds.forEach((w) => w.stop()),
  };
}

/** One progress line per tenth of the slowest chain's progress. */
function progressReporter(chains: number, report: (pct: number) => void): (i: number, fraction: number) => void {
  const fractions = Array.from({ length: chains }, () => 0);
  let reported = 0;
  return (i, f) => {
    fractions[i] = f;
    const overall = Math.min(...fractions);
    if (overall - reported >= 0.1) {
      reported = overall;
      report(Math.round(overall * 100));
    }
  };
}
