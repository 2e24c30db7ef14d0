/**
 * `npm run bench:forecast`: a rolling-origin backtest of every model, the consensus and a
 * Gaussian random walk on real daily S&P 500 closes (test/fixtures, vega-datasets) and on world
 * series (hourly candles of a 14-day embedded world), then the consensus latency at 1024
 * inputs and horizon 256 through the worker pool.
 *
 * Per model and horizon: relative MASE (its MAE over the random walk's), scaled CRPS (CRPS
 * approximated by twice the mean pinball loss at q10, q50, q90, over the mean realized level)
 * and its gain over the Gaussian random walk, q10-q90 coverage, and the direction hit rate on
 * decisive outcomes (moves beyond ±0.5%) beside the base rate of always calling bullish; a model
 * calls a direction only when its drift stands out of its own noise (skills/forecast/signal.ts).
 */
import { readFileSync } from 'node:fs';
import { ForecastWorkers } from '../../skills/forecast/backends/worker-pool.js';
import { agreement, rangeAt } from '../../skills/forecast/agreement.js';
import { direction, NEUTRAL_BAND_PCT, noisePcts } from '../../skills/forecast/signal.js';
import type { InProcessMethod } from '../../skills/forecast/models/index.js';
import type { ModelForecast } from '../../skills/forecast/models/types.js';
import { CONSENSUS_PAIR, MODEL_SLOTS } from '../../skills/forecast/slots.js';
import { ForecastService } from '../../skills/forecast/service.js';
import { resolveToken } from '../../skills/data/resolve.js';
import { loadMarket } from '../../skills/data/load.js';
import { indexedBenchWorld } from './world.js';

const HORIZONS = [1, 5, 20];
/** Every slot with an in-process model, from the registry. */
const MODELS: Record<string, InProcessMethod> = Object.fromEntries(MODEL_SLOTS.filter((m) => m.inProcess).map((m) => [m.id, m.inProcess!]));
const [GENERAL, FINANCE] = CONSENSUS_PAIR;
const Z10 = -1.2815515655446004;

interface Score { absErr: number[]; crps: number[]; covered: number[]; calls: number; hits: number }
const newScore = (): Score => ({ absErr: [], crps: [], covered: [], calls: 0, hits: 0 });
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const pinball = (q: number, tau: number, y: number) => (y >= q ? tau * (y - q) : (1 - tau) * (q - y));

/** The Gaussian random walk: no change, log-return volatility of the context. */
function randomWalk(context: readonly number[], horizon: number): ModelForecast {
  const r = context.slice(1).map((c, i) => Math.log(c / context[i]!));
  const m = mean(r);
  const sd = Math.sqrt(mean(r.map((x) => (x - m) ** 2)));
  const last = context[context.length - 1]!;
  const steps = Array.from({ length: horizon }, (_, i) => i + 1);
  return {
    points: steps.map(() => last),
    quantiles: { q10: steps.map((h) => last * Math.exp(Z10 * sd * Math.sqrt(h))), q50: steps.map(() => last), q90: steps.map((h) => last * Math.exp(-Z10 * sd * Math.sqrt(h))) },
  };
}

export async function backtest(series: readonly number[], context: number, stride: number, workers: ForecastWorkers) {
  const maxH = Math.max(...HORIZONS);
  const origins: number[] = [];
  for (let o = context; o + maxH <= series.length; o += stride) origins.push(o);
  const names = [...Object.keys(MODELS), 'consensus', 'random-walk'];
  const scores = new Map(names.flatMap((n) => HORIZONS.map((h) => [`${n}|${h}`, newScore()] as const)));
  const decisive = new Map(HORIZONS.map((h) => [h, { n: 0, up: 0 }]));
  const levels = new Map(HORIZONS.map((h) => [h, [] as number[]]));

  // Two origins at a time keep both worker threads busy.
  for (let i = 0; i < origins.length; i += 2) {
    await Promise.all(origins.slice(i, i + 2).map(async (o) => {
      const ctx = series.slice(o - context, o);
      const last = ctx[ctx.length - 1]!;
      const out = new Map<string, ModelForecast>(await Promise.all(Object.entries(MODELS).map(async ([id, m]) => [id, await workers.run(m, ctx, maxH)] as const)));
      out.set('random-walk', randomWalk(ctx, maxH));
      out.set('consensus', out.get(FINANCE)!);
      for (const h of HORIZONS) {
        const y = series[o + h - 1]!;
        levels.get(h)!.push(Math.abs(y));
        const move = (y / last - 1) * 100;
        const isDecisive = Math.abs(move) > NEUTRAL_BAND_PCT;
        if (isDecisive) {
          decisive.get(h)!.n++;
          if (move > 0) decisive.get(h)!.up++;
        }
        // Each model's call at h: its drift against its own noise at that step.
        const callOf = (id: string) => {
          const f = out.get(id)!;
          const driftPct = (f.points[h - 1]! / last - 1) * 100;
          const noisePct = noisePcts(f, ctx);
          return { model: id, driftPct, direction: direction(driftPct, noisePct[h - 1]), ...rangeAt({ model: id, points: f.points, noisePct, quantiles: f.quantiles }, h) };
        };
        for (const name of names) {
          const f = out.get(name)!;
          const s = scores.get(`${name}|${h}`)!;
          s.absErr.push(Math.abs(f.points[h - 1]! - y));
          if (f.quantiles) {
            const { q10, q50, q90 } = f.quantiles;
            s.crps.push((2 / 3) * (pinball(q10[h - 1]!, 0.1, y) + pinball(q50[h - 1]!, 0.5, y) + pinball(q90[h - 1]!, 0.9, y)));
            s.covered.push(y >= q10[h - 1]! && y <= q90[h - 1]! ? 1 : 0);
          }
          let call = callOf(name).direction;
          if (name === 'consensus' && agreement(callOf(GENERAL), callOf(FINANCE)).verdict === 'DIVERGENCE') call = 'neutral';
          if (isDecisive && call !== 'neutral') {
            s.calls++;
            if ((call === 'bullish') === move > 0) s.hits++;
          }
        }
      }
    }));
  }
  const rows = [];
  for (const h of HORIZONS) {
    const rw = scores.get(`random-walk|${h}`)!;
    const level = mean(levels.get(h)!);
    const d = decisive.get(h)!;
    for (const name of names) {
      const s = scores.get(`${name}|${h}`)!;
      const scrps = s.crps.length ? mean(s.crps) / level : null;
      const rwScrps = mean(rw.crps) / level;
      rows.push({
        model: name, h, origins: origins.length,
        relMase: mean(s.absErr) / mean(rw.absErr),
        scrps, crpsGainPct: scrps === null ? null : (1 - scrps / rwScrps) * 100,
        coverage: s.covered.length ? mean(s.covered) : null,
        hitRate: s.calls ? s.hits / s.calls : null, calls: s.calls,
        baseRate: d.n ? d.up / d.n : null, decisive: d.n,
      });
    }
  }
  return rows;
}

function print(title: string, rows: Awaited<ReturnType<typeof backtest>>) {
  console.log(`\n${title} (${rows[0]!.origins} origins)`);
  console.log('| model | h | rel. MASE | sCRPS | vs Gaussian RW | q10-q90 coverage | hit rate (calls) | always bullish (decisive) |');
  console.log('|---|---|---|---|---|---|---|---|');
  const f = (x: number | null, d: number, suffix = '') => (x === null ? '—' : `${x.toFixed(d)}${suffix}`);
  for (const r of rows) {
    console.log(`| ${r.model} | ${r.h} | ${r.relMase.toFixed(3)} | ${f(r.scrps, 4)} | ${r.crpsGainPct === null ? '—' : `${r.crpsGainPct >= 0 ? '-' : '+'}${Math.abs(r.crpsGainPct).toFixed(1)}%`} | ${f(r.coverage === null ? null : r.coverage * 100, 1, '%')} | ${r.hitRate === null ? '—' : `${(r.hitRate * 100).toFixed(1)}% (${r.calls})`} | ${f(r.baseRate === null ? null : r.baseRate * 100, 1, '%')} (${r.decisive}) |`);
  }
}

async function worldSeries(): Promise<Record<string, number[]>> {
  const { devnet, chains, store } = await indexedBenchWorld('forecast');
  try {
    const { market } = await loadMarket({ chains, store }, 'base');
    const out: Record<string, number[]> = {};
    for (const symbol of ['ETH', 'BTC', 'DEGEN', 'AERO']) {
      const { candles } = await market.candlesOver(resolveToken(market, symbol), 14 * 86_400, 3_600);
      out[`world ${symbol} hourly`] = candles.map((c) => c.close);
    }
    return out;
  } finally {
    await devnet.stop();
  }
}

const workers = new ForecastWorkers(2);
try {
  await workers.warm();
  const csv = readFileSync(new URL('../fixtures/sp500-2000.csv', import.meta.url), 'utf8').trim().split('\n').slice(1);
  const sp500 = csv.map((line) => Number(line.split(',')[4]));
  const started = Date.now();
  print('S&P 500 daily closes 2000-2020, context 512, an origin every 5 days', await backtest(sp500, 512, 5, workers));
  console.log(`  (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  for (const [name, series] of Object.entries(await worldSeries())) print(`${name}, ${series.length} candles, context 128, an origin every 2 candles`, await backtest(series, 128, 2, workers));

  const service = new ForecastService({ threads: 2, backends: {}, backendTimeoutMs: 10_000, signingKey: undefined, tokenAddress: '0x0000000000000000000000000000000000000000', jobs: false, precomputeIntervalMs: 1e9 });
  await service.warm();
  const inputs = sp500.slice(-1024);
  const times: number[] = [];
  for (let i = 0; i < 40; i++) {
    const t = performance.now();
    await service.forecast({ model: 'consensus', inputs, horizon: 256 });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`\nConsensus latency, 1024 inputs, horizon 256, 2 worker threads, 40 calls: p50 ${times[20]!.toFixed(0)} ms, p90 ${times[36]!.toFixed(0)} ms, max ${times[39]!.toFixed(0)} ms`);
  await service.close();
} finally {
  await workers.close();
}
