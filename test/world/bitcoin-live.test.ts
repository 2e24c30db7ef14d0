/**
 * The embedded chain keeps living after its history (blocks and mempool arrivals on its clock,
 * seen through the API), and a start with a cache directory saves the chain's curve work so a
 * later start replays the same chain from it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EsploraClient } from '../../chain/esplora.js';
import { CurveMemo } from '../../world/bitcoin/curve-memo.js';
import { startEmbeddedBitcoin } from '../../world/bitcoin/index.js';
import { ReferencePaths } from '../../world/reference.js';

const ORIGIN = 1_790_000_000;

describe('embedded bitcoin, live and cached', () => {
  it('mines new blocks and takes new mempool txs as its clock runs, served by the API', async () => {
    const seed = 'btc-live-test';
    let now = ORIGIN + 86_400;
    const btc = await startEmbeddedBitcoin({ seed, days: 1, origin: ORIGIN, reference: new ReferencePaths(seed, ORIGIN), port: 0, clock: () => now, liveStepMs: 20 });
    try {
      const api = new EsploraClient(btc.url);
      const startHeight = await api.tipHeight();
      const seen = new Set(await api.mempoolTxids());
      now += 6 * 3600;
      let height = startHeight;
      for (let i = 0; i < 200 && height < startHeight + 10; i++) {
        await new Promise((r) => setTimeout(r, 20));
        height = await api.tipHeight();
      }
      expect(height).toBeGreaterThanOrEqual(startHeight + 10);
      const tip = (await api.block(await api.tipHash()))!;
      expect(tip.timestamp).toBeLessThanOrEqual(now);
      const fresh = (await api.mempoolTxids()).filter((id) => !seen.has(id));
      const mined = (await api.blockTxids(tip.id)).slice(1);
      expect(fresh.length + mined.length).toBeGreaterThan(0);
    } finally {
      await btc.close();
    }
  }, 60_000);

  it('runs on a worker thread: same chain, served from there', async () => {
    const seed = 'btc-worker-test';
    const opts = { seed, days: 1, origin: ORIGIN, reference: new ReferencePaths(seed, ORIGIN), port: 0, liveBlocks: false };
    const here = await startEmbeddedBitcoin(opts);
    await here.close();
    const there = await startEmbeddedBitcoin({ ...opts, thread: 'worker' });
    try {
      const api = new EsploraClient(there.url);
      expect(await api.tipHash()).toBe(here.chain.tip.hash);
      expect(there.labels).toEqual(here.labels);
      expect(there.entities).toEqual(here.entities);
      expect(there.prices.at(ORIGIN + 3600)).toBe(here.prices.at(ORIGIN + 3600));
    } finally {
      await there.close();
    }
  }, 60_000);

  it('saves its curve work in the cache directory; a rebuild from it is the same chain', async () => {
    const seed = 'btc-cache-test';
    const dir = await mkdtemp(join(tmpdir(), 'btc-cache-'));
    try {
      const opts = { seed, days: 1, origin: ORIGIN, reference: new ReferencePaths(seed, ORIGIN), port: 0, liveBlocks: false, cacheDir: dir };
      const first = await startEmbeddedBitcoin(opts);
      await first.close();
      const memo = new CurveMemo();
      const saved = await memo.load(join(dir, `bitcoin-${seed}.curve-memo`));
      expect(saved).toBeGreaterThan(first.chain.txs.size / 2);
      const second = await startEmbeddedBitcoin(opts);
      await second.close();
      expect(second.chain.tip.hash).toBe(first.chain.tip.hash);
      expect(second.labels).toEqual(first.labels);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
