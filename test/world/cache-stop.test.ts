/**
 * A first start that survives a newcomer: the world cache is complete when Sibyl says it is
 * ready, so a stop soon after (Ctrl-C, which reaches the chains' nodes too, or even a kill of
 * everything) loses nothing, and the next start loads the world instead of writing it again.
 * The real `npm start` process, on a one-chain, half-day world to keep it cheap.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';

const READY = /^Sibyl ready in/;
const START_MS = 150_000;

function env(dir: string, seed: string): Record<string, string> {
  return {
    HOST: '127.0.0.1', PORT: '0', EMBEDDED_CHAINS: 'base', EMBEDDED_RPC_PORT: '0',
    WORLD_SEED: seed, WORLD_DAYS: '0.5', WORLD_BLOCK_SECONDS: '1200', WORLD_LIVE_BLOCK_MS: '1000',
    WORLD_CACHE_DIR: join(dir, 'cache'), WORLD_LABELS_PATH: join(dir, 'labels.json'),
    BITCOIN: 'off', CURVE_FEED: 'off', SOCIAL_FEED: 'off', FORECAST: 'off', SNAPSHOT_JOBS: 'off', LOG_LEVEL: 'info',
  };
}

/** Whatever is in the cache root besides the Bitcoin memo: complete caches only, never a `.tmp-` one. */
async function cacheEntries(dir: string): Promise<string[]> {
  return (await readdir(join(dir, 'cache')).catch(() => [] as string[])).filter((n) => n !== 'bitcoin');
}

describe('a first start stopped soon after "ready"', () => {
  const processes: ServiceProcess[] = [];
  const dirs: string[] = [];
  const start = (dir: string, seed: string) => {
    const p = startServiceProcess(env(dir, seed));
    processes.push(p);
    return p;
  };
  afterAll(async () => {
    for (const p of processes) await p.kill();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('by Ctrl-C 5 s later: the next start loads the world from the cache', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sibyl-first-start-'));
    dirs.push(dir);

    const first = start(dir, 'newcomer-int');
    const cold = await first.waitFor(READY, START_MS);
    expect(cold.worldCache).toBe('written');
    expect(await cacheEntries(dir)).toEqual([expect.stringMatching(/^newcomer-int-[0-9a-f]{16}$/)]);
    await sleep(5_000);
    first.signal('SIGINT', 'group'); // what Ctrl-C in the terminal does
    expect((await first.exited).code).toBe(0);
    await first.kill();
    expect(await cacheEntries(dir)).toEqual([expect.stringMatching(/^newcomer-int-[0-9a-f]{16}$/)]);

    const second = start(dir, 'newcomer-int');
    const warm = await second.waitFor(READY, START_MS);
    expect(warm.worldCache).toBe('loaded');
    expect(warm.msg).toMatch(/world loaded from its cache/);
    const said = second.lines.map((l) => l.msg);
    expect(said.some((m) => /resumed from the cache/.test(m))).toBe(true);
    expect(said.some((m) => /genesis deployed|days of history, \d+%|world cached in/.test(m))).toBe(false);
    // Ready, and each part up or slow: nothing is down.
    const readiness = await fetch(`${warm.url}/readyz`);
    expect(readiness.status).toBe(200);
    expect(await readiness.json()).toMatchObject({ ready: true, chains: [{ name: 'base', ok: true }] });
    second.signal('SIGTERM', 'process');
    expect((await second.exited).code).toBe(0);
  }, 2 * START_MS + 30_000);

  it('by Ctrl-C while the cache is being written: it leaves at once, with the cache whole or absent, never half', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sibyl-first-start-'));
    dirs.push(dir);

    const first = start(dir, 'newcomer-early');
    await first.waitFor(/^world newcomer-early: caching 1 chains/, START_MS);
    first.signal('SIGINT', 'group');
    const exit = await first.exited;
    await first.kill();
    const entries = await cacheEntries(dir);
    expect(entries.filter((n) => n.includes('.tmp-'))).toEqual([]);
    if (first.lines.some((l) => READY.test(l.msg))) expect(exit.code).toBe(0); // it was ready before the signal arrived
    else expect(exit.code).toBe(130);
  }, START_MS + 30_000);

  it('by a kill of every process the moment it is ready: the next start still loads the world', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sibyl-first-start-'));
    dirs.push(dir);

    const first = start(dir, 'newcomer-kill');
    expect((await first.waitFor(READY, START_MS)).worldCache).toBe('written');
    await first.kill(); // SIGKILL to the service and its chains' nodes: no shutdown code runs

    const second = start(dir, 'newcomer-kill');
    expect((await second.waitFor(READY, START_MS)).worldCache).toBe('loaded');
    second.signal('SIGTERM', 'process');
    expect((await second.exited).code).toBe(0);
  }, 2 * START_MS + 30_000);
});
