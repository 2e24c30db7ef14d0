/**
 * A fresh node publishes a non-empty accuracy ledger: its first forecast round backfills the
 * majors over the indexed history (`origin: "backfill"` rows), and another instance on the same
 * store (or a restart) never counts those forecasts twice.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillLedger } from '../../skills/forecast/backfill.js';
import { TEST_REDIS_URL } from '../helpers/env.js';
import { json, startTestSibyl, type TestSibyl } from '../helpers/sibyl.js';
import { startWorldSibyl, type WorldSibyl } from '../helpers/world.js';

const redis = { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `sibyl-test:${randomUUID()}:` };
let w: WorldSibyl;
let startedAt: number;

beforeAll(async () => {
  w = await startWorldSibyl('forecast-backfill', 2, { FORECAST_JOBS: 'on', ...redis });
  startedAt = Date.now();
}, 120_000);
afterAll(() => w?.close());

const accuracy = async (url: string) => json(await fetch(`${url}/api/svc/v1/forecast/accuracy?limit=50`));

/** The accuracy document once the first round's backfill has finished (its lease released). */
async function backfilled(url: string, sibyl: TestSibyl, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const doc = await accuracy(url);
    if (doc.rows.some((r: any) => r.origin === 'backfill') && (await sibyl.store.get('forecast:backfill:lease')) === null) return doc;
    if (Date.now() > deadline) throw new Error(`no backfill rows within ${timeoutMs} ms: ${JSON.stringify(doc).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('accuracy ledger on a fresh node', () => {
  it('has backfill rows with scored samples, baselines beside each model', async () => {
    const doc = await backfilled(w.sibyl.url, w.sibyl);
    console.log(`backfill published ${((Date.now() - startedAt) / 1000).toFixed(1)} s after start`);
    const rows = doc.rows.filter((r: any) => r.origin === 'backfill');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.samples).toBeGreaterThan(0);
      expect(row).toHaveProperty('direction_hit_rate');
      expect(row.first_sample_ts).toBeLessThanOrEqual(row.last_sample_ts);
      // Every sample is in the past: scored against history, not waiting for the future.
      expect(row.last_sample_ts).toBeLessThanOrEqual(Date.now());
    }
    // Two days of hourly candles serve the 4h horizon on Base: ETH has its models, the consensus and both baselines.
    const eth = rows.filter((r: any) => r.asset === 'ETH' && r.interval === '4h').map((r: any) => r.model);
    expect(eth).toEqual(['modelA-2.5', 'modelB-small', 'consensus', 'random-walk', 'always-bullish']);
    // The same rows through the MCP free tool's source: the ledger in the store.
    const ledgerRows = (await w.sibyl.context.forecast!.ledger.rows()).rows;
    expect(ledgerRows.filter((r) => r.origin === 'backfill').length).toBe(rows.length);
  });

  it('a second instance on the same store (or a restart) scores none of them again', async () => {
    const before = await backfilled(w.sibyl.url, w.sibyl);
    const other = await startTestSibyl({ rpcUrls: { base: w.rpcUrl }, env: redis });
    try {
      const { service, ledger } = other.context.forecast!;
      expect(await backfillLedger(other.context, service, ledger)).toBe(0);
      const after = await accuracy(other.url);
      const samples = (doc: any) => doc.rows.filter((r: any) => r.origin === 'backfill').map((r: any) => `${r.asset} ${r.interval} ${r.model} ${r.samples}`);
      expect(samples(after)).toEqual(samples(before));
    } finally {
      await other.close();
    }
  });
});
