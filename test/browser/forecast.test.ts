/**
 * `/forecast` in Chromium on a world with three days of history: the chart draws the candles and
 * the forecast's q10/q50/q90 band (checked on the series' own data and on the canvas pixels), the
 * consensus verdict in words (no direction when the models disagree) with both models' own calls, and the accuracy leaderboard with the random-walk and always-bullish rows
 * beside the models (after the ledger's backfill, as a fresh node's first round does).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { backfillLedger } from '../../skills/forecast/backfill.js';
import { precomputeMajors } from '../../skills/forecast/jobs.js';
import { ALWAYS_BULLISH, RANDOM_WALK } from '../../skills/forecast/ledger.js';
import { launchBrowser, saveScreenshot, trackCspViolations } from '../helpers/browser.js';
import { startSharedWorldSibyl, type WorldSibyl } from '../helpers/world.js';

let w: WorldSibyl;
let browser: Browser;

beforeAll(async () => {
  [w, browser] = await Promise.all([startSharedWorldSibyl(), launchBrowser()]);
  const ctx = w.sibyl.context;
  const { service, ledger } = ctx.forecast!;
  // The first forecast round of a fresh node: the majors' snapshots, then the ledger's backfill.
  await precomputeMajors(ctx, service, ledger);
  await backfillLedger(ctx, service, ledger);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await w?.close();
});

interface Drawn {
  candles: { time: number; close: number }[];
  q10: { time: number; value: number }[];
  q50: { time: number; value: number }[];
  q90: { time: number; value: number }[];
}

describe('forecast page', () => {
  it('draws the candles and the q10/q50/q90 band, says the verdict, and lists the leaderboard with its baselines', { timeout: 120_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const blocked = trackCspViolations(page);
    try {
      await page.goto(`${w.sibyl.url}/forecast`);
      await page.waitForSelector('body[data-forecast="ready"]', { timeout: 90_000 });
      const drawn = await page.evaluate(() => (globalThis as unknown as { sibylForecast: { drawn: unknown } }).sibylForecast.drawn) as Drawn;
      expect(drawn.candles.length).toBeGreaterThan(16);
      // The band starts at the last candle and runs the horizon ahead, q10 <= q50 <= q90 at every step, and widens.
      const last = drawn.candles[drawn.candles.length - 1]!;
      expect(drawn.q50.length).toBeGreaterThan(1);
      expect(drawn.q10[0]!.time).toBe(last.time);
      for (let i = 0; i < drawn.q50.length; i++) {
        expect(drawn.q10[i]!.time).toBe(drawn.q50[i]!.time);
        expect(drawn.q10[i]!.value).toBeLessThanOrEqual(drawn.q50[i]!.value);
        expect(drawn.q50[i]!.value).toBeLessThanOrEqual(drawn.q90[i]!.value);
      }
      // The page draws the very forecast get_price_forecast serves (precomputed before the test), not another run.
      const data = await (await fetch(`${w.sibyl.url}/api/web/forecast?asset=ETH&interval=4h`)).json() as { forecast: { driftPct: number; direction: string }; precomputed: { driftPct: number; direction: string }; source: { methodology: string } };
      expect(data.source.methodology).toMatch(/precomputed at block \d+/);
      expect(data.forecast.driftPct).toBe(data.precomputed.driftPct);
      expect(data.forecast.direction).toBe(data.precomputed.direction);
      const end = drawn.q50.length - 1;
      expect(drawn.q90[end]!.value - drawn.q10[end]!.value).toBeGreaterThan(0);
      expect(drawn.q10.slice(1).every((p) => p.time > last.time)).toBe(true);

      // On the canvas: the band's fill colour is painted, in the chart's right part (the future).
      const band = await page.evaluate(() => {
        type Canvas = { width: number; height: number; getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray; width: number; height: number } } };
        const chart = (globalThis as unknown as { sibylForecast: { chart: { takeScreenshot(): Canvas } } }).sibylForecast.chart;
        const canvas = chart.takeScreenshot();
        const { data, width, height } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        let left = 0;
        let right = 0;
        for (let y = 0; y < height; y++) {
          for (let x = 0; x < width; x++) {
            const i = (y * width + x) * 4;
            // rgba(43, 95, 217, 0.28) over white.
            const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
            if (Math.abs(r - 195) < 14 && Math.abs(g - 210) < 14 && Math.abs(b - 245) < 12) x < width / 2 ? left++ : right++;
          }
        }
        return { left, right };
      });
      expect(band.right).toBeGreaterThan(50);
      expect(band.right).toBeGreaterThan(band.left);

      // The verdict in words: agreement with its call, or "models disagree" and no direction; both models' own calls listed.
      const verdict = page.getByTestId('verdict');
      const shown = await page.evaluate(() => (globalThis as unknown as { sibylForecast: { data: { forecast: { verdict: string; direction: string | null; pair: string[]; models: { model: string; direction: string; driftPct: number }[] } } } }).sibylForecast.data.forecast);
      const [a, b] = shown.models;
      expect(shown.models.map((m) => m.model)).toEqual(shown.pair);
      expect(shown.verdict).toBe(a!.direction === b!.direction && shown.direction !== null ? 'CONSENSUS' : 'DIVERGENCE');
      expect(await verdict.getAttribute('data-verdict')).toBe(shown.verdict);
      const text = await verdict.innerText();
      if (shown.verdict === 'CONSENSUS') expect(text).toMatch(new RegExp(`^ETH 1d: models agree: ${a!.direction}, drift `));
      else expect(text).toMatch(/^ETH 1d: models disagree, no direction \(DIVERGENCE/);
      const rows = await page.locator('[data-testid="models"] tbody tr').evaluateAll((trs) => trs.map((r) => ({ model: (r as unknown as { dataset: Record<string, string> }).dataset.model, direction: (r as unknown as { dataset: Record<string, string> }).dataset.direction, text: (r as unknown as { innerText: string }).innerText })));
      expect(rows.map((r) => [r.model, r.direction])).toEqual(shown.models.map((m) => [m.model, m.direction]));
      for (const [i, m] of shown.models.entries()) expect(rows[i]!.text).toContain(`${m.driftPct > 0 ? '+' : ''}${m.driftPct.toFixed(2)}%`);

      const models = await page.locator('#board tbody tr').evaluateAll((rows) => rows.map((r) => (r as unknown as { dataset: Record<string, string> }).dataset.model));
      expect(models).toContain(RANDOM_WALK);
      expect(models).toContain(ALWAYS_BULLISH);
      expect(models).toContain('consensus');
      expect(await page.locator('#board tbody tr.baseline').count()).toBe(models.filter((m) => m === RANDOM_WALK || m === ALWAYS_BULLISH).length);
      expect(await page.locator('#precomputed').innerText()).toMatch(/^get_price_forecast: ((bullish|bearish|neutral) \S+, models agree|no direction, models disagree) \(modelA-2\.5 (bullish|bearish|neutral) \S+, modelB-small (bullish|bearish|neutral) /);
      await saveScreenshot(page, 'forecast');
      expect(blocked).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
