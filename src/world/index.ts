/**
 * Starts the world on every embedded chain: each chain's simulator backfills the history
 * (in parallel across chains), the labels are written, and live block production begins.
 */
import type { DevnetChain } from '../chain/devnet.js';
import { writeLabels } from './labels.js';
import { ReferencePaths } from './reference.js';
import { World } from './world.js';

export interface WorldConfig {
  readonly seed: string;
  readonly days: number;
  /** Mean simulated seconds between blocks during the backfill. */
  readonly meanBlockSeconds: number;
  /** Real milliseconds between live blocks (0: no live production). */
  readonly liveBlockMs: number;
  readonly labelsPath: string;
}

export interface RunningWorld {
  readonly worlds: readonly World[];
  /** The price paths every chain follows. */
  readonly reference: ReferencePaths;
  stop(): void;
}

/** The genesis timestamp a world of `days` days needs: history must end now, so it starts earlier. */
export function worldGenesisTimestamp(days: number, now = Date.now()): number {
  return Math.floor(now / 1000) - Math.ceil(days * 86_400) - 600;
}

export async function startWorld(
  chains: readonly DevnetChain[],
  config: WorldConfig,
  onProgress: (message: string) => void = () => {},
  onError: (err: unknown) => void = () => {},
  /** The paths to follow (shared with other venues); by default ones starting at this history's genesis. */
  reference?: ReferencePaths,
): Promise<RunningWorld> {
  const started = Date.now();
  const from = worldGenesisTimestamp(config.days, started) + 300;
  const paths = reference ?? new ReferencePaths(config.seed, from);
  // One progress line per tenth of the slowest chain's history.
  const fractions = chains.map(() => 0);
  let reported = 0;
  const progress = (i: number, f: number) => {
    fractions[i] = f;
    const overall = Math.min(...fractions);
    if (overall - reported >= 0.1) {
      reported = overall;
      onProgress(`world ${config.seed}: writing ${config.days} days of history, ${Math.round(overall * 100)}%`);
    }
  };
  const worlds = await Promise.all(
    chains.map(async (c, i) => {
      const world = await World.create({ name: c.name, rpcUrl: c.rpcUrl, genesis: c.genesis, seed: config.seed, startTimestamp: from, meanBlockSeconds: config.meanBlockSeconds, reference: paths });
      await world.backfill(Math.floor(Date.now() / 1000), (f) => progress(i, f));
      await world.finishBackfill();
      return world;
    }),
  );
  await writeLabels(config.labelsPath, worlds.map((w) => w.labels));
  onProgress(`world ${config.seed}: ${config.days} days of history on ${chains.length} chains in ${Date.now() - started} ms; labels in ${config.labelsPath}`);
  if (config.liveBlockMs > 0) for (const w of worlds) w.startLive(config.liveBlockMs, onError);
  return { worlds, reference: paths, stop: () => worlds.forEach((w) => w.stop()) };
}
