/**
 * With the world, the embedded prediction venues stand on the world's own plan: its seed and the
 * origin of its reference paths (the ones the world modules fund the traders from), on a first
 * start and on a start from the world cache, where the origin is the cached world's, not a new one.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../server/config.js';
import { startSibyl, type Sibyl } from '../../server/service.js';
import { worldOrigin } from '../../world/index.js';
import { predictionVenues } from '../../skills/prediction/venues.js';

const SEED = 'prediction-world';
const DAYS = 0.25;

async function start(dir: string): Promise<{ sibyl: Sibyl; progress: string[] }> {
  const progress: string[] = [];
  const sibyl = await startSibyl(
    loadConfig({
      HOST: '127.0.0.1', LOG_LEVEL: 'silent', PORT: '0', EMBEDDED_CHAINS: 'base', EMBEDDED_RPC_PORT: '0', WORLD_DAYS: String(DAYS), WORLD_BLOCK_SECONDS: '1200', WORLD_LIVE_BLOCK_MS: '0',
      WORLD_CHECKPOINT_SECONDS: '0', WORLD_SEED: SEED, WORLD_CACHE_DIR: join(dir, 'cache'), WORLD_LABELS_PATH: join(dir, 'labels.json'),
      CURVE_FEED: 'off', BITCOIN: 'off', FORECAST: 'off', SNAPSHOT_JOBS: 'off',
    }),
    { log: () => {}, onProgress: (m) => progress.push(m) },
  );
  return { sibyl, progress };
}

/** The origin the world cache recorded for its reference paths. */
async function cachedOrigin(dir: string): Promise<number> {
  const [world] = await readdir(join(dir, 'cache'));
  return (JSON.parse(await readFile(join(dir, 'cache', world!, 'meta.json'), 'utf8')) as { origin: number }).origin;
}

describe('the prediction venues over the world', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it('draw the world\'s plan, built afresh and resumed from the cache', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sibyl-prediction-world-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));

    const first = await start(dir);
    let open: Sibyl | undefined = first.sibyl;
    cleanup.push(() => open?.close() ?? Promise.resolve());
    expect(first.sibyl.worldCache).toBe('written');
    const origin = await cachedOrigin(dir);
    expect(predictionVenues(first.sibyl.context).plan).toEqual({ seed: SEED, origin });
    const marketsA = await predictionVenues(first.sibyl.context).polymarket.markets();
    expect(marketsA.length).toBeGreaterThan(0);
    await first.sibyl.close();
    open = undefined;

    // Seconds later a fresh world would start elsewhere: the resumed one keeps the cached origin.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(worldOrigin(DAYS)).toBeGreaterThan(origin);
    const second = await start(dir);
    open = second.sibyl;
    expect(second.sibyl.worldCache).toBe('loaded');
    expect(predictionVenues(second.sibyl.context).plan).toEqual({ seed: SEED, origin });
    const marketsB = await predictionVenues(second.sibyl.context).polymarket.markets();
    // The same plan: every market listed before is listed again, under the same ids.
    const listedB = new Map(marketsB.map((m) => [m.id, [m.conditionId, m.question]]));
    for (const m of marketsA) expect(listedB.get(m.id)).toEqual([m.conditionId, m.question]);
    for (const run of [first, second]) {
      const line = run.progress.filter((m) => /^prediction venues: .*embedded plan .* drawn and served in \d+ ms$/.test(m));
      expect(line).toHaveLength(1);
      if (process.env.TEST_LOG) console.error(line[0]);
    }
  }, 300_000);
});
