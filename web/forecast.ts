/**
 * `/forecast` and its data, `GET /api/web/forecast?asset=ETH&interval=4h` (free): a major's candles
 * from the market engine, the forecast record with its q10/q50/q90 band and consensus verdict —
 * the very record the background precompute stored for the free tool get_price_forecast while it
 * is fresh (one forecast on the page and in the tool), else one computed for the page on the same
 * candles and never written to the accuracy ledger (a page view is not a call) — the precomputed
 * call get_price_forecast serves, and the accuracy leaderboard of get_forecast_accuracy with its
 * random-walk and always-bullish rows. The query is the free price-forecast tool's own input.
 */
import type { Express } from 'express';
import { forecastSeries } from '../skills/forecast/chart.js';
import { ALWAYS_BULLISH, RANDOM_WALK } from '../skills/forecast/ledger.js';
import { locateMajor, PRECOMPUTE_ASSETS, PRECOMPUTE_INTERVALS, readPrecomputed, type PrecomputeInterval } from '../skills/forecast/jobs.js';
import { ACCURACY_TOOL_ROWS, forecastAccuracyTool, PRECOMPUTE_FRESH_MS, priceForecastTool } from '../skills/forecast/tools.js';
import { FORECAST_LIMITS } from '../skills/forecast/slots.js';
import { toSibylError } from '../skills/core/error-mapping.js';
import type { SkillContext } from '../skills/core/context.js';
import type { Registry } from '../skills/core/registry.js';
import { parseBody } from '../skills/core/validation.js';
import { html, page, PAGE_HEADERS } from './html.js';
import { TimedMemo } from './memo.js';

export const FORECAST_DATA_PATH = '/api/web/forecast';
/** A page's chart is recomputed at most this often per asset and interval (shared by every viewer). */
const FORECAST_TTL_MS = 10 * 60_000;
/** Candles drawn before the forecast: a dozen horizons of recent history (within bounds), not all the models read, so the band stays readable. */
const CHART_CANDLES = { perStep: 12, min: 48, max: 240 } as const;

interface ForecastDeps {
  readonly registry: Registry;
  readonly context: SkillContext;
}

export function mountForecast(app: Express, deps: ForecastDeps): void {
  const memo = new TimedMemo<string, unknown>(FORECAST_TTL_MS);
  app.get(FORECAST_DATA_PATH, async (req, res) => {
    const query = parseBody(priceForecastTool.input, { ...req.query });
    res.set('Cache-Control', 'no-cache').json(await memo.get(`${query.asset}:${query.interval}`, () => forecastData(deps, query.asset, query.interval)));
  });
  app.get('/forecast', (_req, res) => void res.type('html').set(PAGE_HEADERS).send(renderForecastPage()));
}

/** Runs a registry's free tool as the MCP surface would (its answer as is, `available: false` included). */
async function freeTool(deps: ForecastDeps, id: string, body: Record<string, unknown>) {
  const skill = deps.registry.published('mcp').find((s) => s.id === id);
  if (!skill) return { available: false, reason: 'domain_disabled' };
  return (await skill.handler(skill.input.parse(body), deps.context)) as Record<string, unknown>;
}

export async function forecastData(deps: ForecastDeps, asset: (typeof PRECOMPUTE_ASSETS)[number], interval: PrecomputeInterval) {
  const computedAt = new Date().toISOString();
  const { candleSeconds, steps } = PRECOMPUTE_INTERVALS[interval];
  const [precomputed, accuracy] = await Promise.all([
    freeTool(deps, priceForecastTool.id, { asset, interval }),
    freeTool(deps, forecastAccuracyTool.id, { asset, limit: ACCURACY_TOOL_ROWS.max }),
  ]);
  // The baselines' names, so the page can tell them from models without importing the ledger.
  const base = { asset, interval, candleSeconds, steps, computedAt, precomputed, accuracy, baselines: [RANDOM_WALK, ALWAYS_BULLISH] };
  const found = await locateMajor(deps.context, asset);
  if (!found) return { ...base, available: false, reason: 'no_market', message: `no indexed chain prices ${asset}` };
  const { candles, fromBlock } = await found.market.candlesOver(found.token, candleSeconds * FORECAST_LIMITS.maxInputs, candleSeconds);
  const source = { chain: found.chain, token: found.token, fromBlock, toBlock: found.market.head.block, methodology: 'market/v1 candles' };
  const shown = Math.min(CHART_CANDLES.max, Math.max(CHART_CANDLES.min, steps * CHART_CANDLES.perStep));
  const chart = candles.slice(-shown).map((c) => ({ time: Date.parse(c.time) / 1000, open: c.open, high: c.high, low: c.low, close: c.close }));
  const service = deps.context.forecast?.service;
  if (!service) return { ...base, available: false, reason: 'forecast_unavailable', message: 'the forecast engine is off on this deployment', source, candles: chart };
  try {
    // The precomputed forecast get_price_forecast serves, while fresh: one forecast on the page and in the tool.
    const stored = await readPrecomputed(deps.context, asset, interval);
    const precomputed = stored && Date.now() - stored.fetchedAt <= PRECOMPUTE_FRESH_MS ? stored : null;
    const record = precomputed?.record ?? await forecastSeries(service, undefined, { asset, chain: found.chain, token: found.token }, candles, candleSeconds, steps, found.market.head.timestamp);
    source.methodology = precomputed
      ? `market/v1 candles; forecast: the record get_price_forecast serves, precomputed at block ${precomputed.block} (${new Date(precomputed.fetchedAt).toISOString()})`
      : 'market/v1 candles; forecast: computed for this page on these candles (the precompute has not run yet; not recorded in the ledger)';
    const { quantiles, verdict, statement, direction, driftPct, noisePct, lastClose, horizons, commentary, servedBy, generatedAt, model, pair, interval: horizon } = record;
    // Each model's own call, drift and q10-q90 at the horizon, beside the consensus's (none when they disagree).
    const models = record.models.map(({ model, family, direction, driftPct, q10, q90 }) => ({ model, family, direction, driftPct, q10, q90 }));
    return {
      ...base, available: true, source, candles: chart,
      forecast: {
        model, pair, verdict, statement, direction, driftPct, noisePct, lastClose, horizon, horizons, models, servedBy, generatedAt, call: commentary.call, confidence: commentary.confidence,
        band: quantiles && { model: quantiles.model, points: quantiles.times.map((t, i) => ({ time: Date.parse(t) / 1000, q10: quantiles.q10[i]!, q50: quantiles.q50[i]!, q90: quantiles.q90[i]! })) },
      },
    };
  } catch (err) {
    const e = toSibylError(err);
    if (e.code === 'internal_error') throw err;
    return { ...base, available: false, reason: e.code, message: e.message, source, candles: chart };
  }
}

function renderForecastPage(): string {
  // The page opens on the free tool's own default horizon (ETH: every world and chain trades it).
  const { interval } = priceForecastTool.input.parse({});
  return page({ title: 'Sibyl forecast', path: '/forecast', scripts: ['forecast'] }, html`<h1>Forecast</h1>
<p>A major's candles from the index, with the consensus forecast's q10/q50/q90 band ahead of the last candle, its verdict (the two models agree when they make the same call and their q10–q90 ranges overlap; when they disagree there is no direction), each model's own call, and the accuracy leaderboard: every model's scored record beside the random-walk and always-bullish baselines. Free data: the same forecast the background job precomputes for <code>get_price_forecast</code>, and the ledger <code>get_forecast_accuracy</code> reads.</p>
<form class="controls" id="forecast-controls">
  <label>Asset <select name="asset">${PRECOMPUTE_ASSETS.map((a) => html`<option ${a === 'ETH' ? 'selected' : ''}>${a}</option>`)}</select></label>
  <label>Horizon <select name="interval">${Object.keys(PRECOMPUTE_INTERVALS).map((i) => html`<option value="${i}" ${i === interval ? 'selected' : ''}>${i}</option>`)}</select></label>
  <button type="submit">Show</button>
</form>
<p class="verdict" id="verdict" data-testid="verdict">Loading…</p>
<table class="board" id="models" data-testid="models"><thead><tr><th>Model</th><th>Family</th><th>Call</th><th>Drift</th><th>q10–q90 at the horizon</th></tr></thead><tbody></tbody></table>
<p class="muted" id="forecast-source"></p>
<div class="legend"><span><i style="background:#26a69a"></i>candles</span><span><i style="background:rgba(43,95,217,.35)"></i>q10–q90 band</span><span><i style="background:#2b5fd9"></i>q50</span></div>
<div class="chart" id="chart"></div>
<h2>Precomputed call</h2>
<p id="precomputed" class="muted">—</p>
<h2>Accuracy leaderboard</h2>
<p class="muted" id="board-note"></p>
<table class="board" id="board"><thead><tr><th>Model</th><th>Chain</th><th>Horizon</th><th>Origin</th><th>Samples</th><th>Direction hit rate</th><th>Direction samples</th><th>MAPE %</th><th>RMSE</th></tr></thead><tbody></tbody></table>`);
}

