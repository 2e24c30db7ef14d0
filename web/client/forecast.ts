/**
 * The forecast page: a major's candles with the consensus forecast's q10/q50/q90 band (the q10–q90
 * area filled, q50 drawn), the verdict, the precomputed call, and the accuracy leaderboard with its
 * baselines, from the free GET /api/web/forecast. What the chart holds is exposed as
 * `window.sibylForecast` (the series' own data), so a test can check what was drawn.
 */
import { AreaSeries, CandlestickSeries, LineSeries, createChart, type IChartApi, type ISeriesApi, type SeriesType, type UTCTimestamp } from 'lightweight-charts';
import { byId } from './lib/dom.js';

interface BandPoint { time: number; q10: number; q50: number; q90: number }
interface ModelCall { model: string; family: string; direction: string; driftPct: number; q10: number; q90: number }
interface Row { model: string; chain: string; interval: string; origin: string; samples: number; direction_hit_rate: number | null; direction_samples: number; mape_pct: number | null; rmse: number | null }
interface ForecastData {
  asset: string;
  interval: string;
  computedAt: string;
  available: boolean;
  reason?: string;
  message?: string;
  baselines: string[];
  source?: { chain: string; token: string; fromBlock: number; toBlock: number; methodology: string };
  candles?: { time: number; open: number; high: number; low: number; close: number }[];
  forecast?: {
    verdict: string; statement: string; direction: string | null; driftPct: number | null; lastClose: number; horizon: string; call: string; confidence: string; pair: string[]; generatedAt: string;
    models: ModelCall[]; band?: { model: string; points: BandPoint[] };
  };
  precomputed: { available: boolean; reason?: string; direction?: string | null; driftPct?: number | null; consensus?: boolean | null; models?: ModelCall[]; source?: string; fetchedAt?: number | null; stale?: boolean };
  accuracy: { available: boolean; reason?: string; rows?: Row[]; fetchedAt?: number | null };
}

const BAND = 'rgba(43, 95, 217, 0.28)';
const chartEl = byId('chart');
const chart: IChartApi = createChart(chartEl, {
  autoSize: true,
  layout: { background: { color: '#ffffff' }, textColor: '#1b1f24' },
  grid: { vertLines: { color: '#f0f2f4' }, horzLines: { color: '#f0f2f4' } },
  timeScale: { timeVisible: true, secondsVisible: false },
});
// Drawn in this order: the q90 area, the q10 area in the background colour (so only q10–q90 stays filled), the candles, then q50.
const q90 = chart.addSeries(AreaSeries, { lineColor: '#2b5fd9', lineWidth: 1, lineStyle: 2, topColor: BAND, bottomColor: BAND, priceLineVisible: false, lastValueVisible: false, title: 'q90' });
const q10 = chart.addSeries(AreaSeries, { lineColor: '#2b5fd9', lineWidth: 1, lineStyle: 2, topColor: '#ffffff', bottomColor: '#ffffff', priceLineVisible: false, lastValueVisible: false, title: 'q10' });
const candles = chart.addSeries(CandlestickSeries, { upColor: '#26a69a', downColor: '#ef5350', borderVisible: false, wickUpColor: '#26a69a', wickDownColor: '#ef5350' });
const q50 = chart.addSeries(LineSeries, { color: '#2b5fd9', lineWidth: 2, priceLineVisible: false, title: 'q50' });

const t = (s: number) => s as UTCTimestamp;

function expose(data: ForecastData): void {
  const read = (s: ISeriesApi<SeriesType>) => s.data().map((p) => ({ ...p }));
  (window as unknown as { sibylForecast: unknown }).sibylForecast = { chart, data, drawn: { candles: read(candles), q10: read(q10), q50: read(q50), q90: read(q90) } };
}

function draw(data: ForecastData): void {
  const bars = data.candles ?? [];
  candles.setData(bars.map((c) => ({ ...c, time: t(c.time) })));
  const band = data.forecast?.band?.points ?? [];
  const last = bars[bars.length - 1];
  // The band starts at the last close, so it grows out of the chart.
  const origin = last && data.forecast ? [{ time: last.time, q10: data.forecast.lastClose, q50: data.forecast.lastClose, q90: data.forecast.lastClose }] : [];
  const path = [...origin, ...band];
  q10.setData(path.map((p) => ({ time: t(p.time), value: p.q10 })));
  q50.setData(path.map((p) => ({ time: t(p.time), value: p.q50 })));
  q90.setData(path.map((p) => ({ time: t(p.time), value: p.q90 })));
  chart.timeScale().fitContent();
}

function pct(n: number | null | undefined, digits = 2): string {
  return n === null || n === undefined ? '—' : `${n > 0 ? '+' : ''}${n.toFixed(digits)}%`;
}

function describe(data: ForecastData): void {
  const verdict = byId('verdict');
  const f = data.forecast;
  if (data.available && f) {
    // The verdict in words: "models agree: <call>" with the drift, or "models disagree" and no direction.
    const by = new Date((f.band?.points.at(-1)?.time ?? 0) * 1000).toLocaleString();
    verdict.textContent = f.direction
      ? `${data.asset} ${f.horizon}: models agree: ${f.direction}, drift ${pct(f.driftPct)} by ${by} (${f.verdict}, ${f.pair.join(' vs ')}), confidence ${f.confidence}`
      : `${data.asset} ${f.horizon}: models disagree, no direction (${f.verdict}, ${f.pair.join(' vs ')}), confidence ${f.confidence}`;
    verdict.dataset.verdict = f.verdict;
  } else {
    verdict.textContent = `${data.asset} ${data.interval}: no forecast (${data.reason}: ${data.message ?? ''})`;
    verdict.dataset.verdict = 'unavailable';
  }
  modelTable(f?.models ?? []);
  const s = data.source;
  byId('forecast-source').textContent = s
    ? `Source: index of ${s.chain}, token ${s.token}, blocks ${s.fromBlock}–${s.toBlock}; ${s.methodology}. Band: ${f?.band?.model ?? 'none'}; computed ${new Date(data.computedAt).toLocaleString()}.`
    : '';
  const p = data.precomputed;
  byId('precomputed').textContent = p.available
    ? `get_price_forecast: ${p.direction ? `${p.direction} ${pct(p.driftPct)}` : 'no direction'}, models ${p.consensus === true ? 'agree' : p.consensus === false ? 'disagree' : 'not recorded'}${p.models ? ` (${p.models.map((m) => `${m.model} ${m.direction} ${pct(m.driftPct)}`).join(', ')})` : ''}; ${p.source ?? ''}, fetched ${p.fetchedAt ? new Date(p.fetchedAt).toLocaleString() : '—'}${p.stale ? ' (stale)' : ''}.`
    : `get_price_forecast: not available (${p.reason}).`;
}

/** One row per model: its own call, drift and q10–q90 at the horizon, whatever the verdict. */
function modelTable(models: ModelCall[]): void {
  const body = byId('models').querySelector('tbody')!;
  body.replaceChildren(...models.map((m) => {
    const tr = document.createElement('tr');
    tr.dataset.model = m.model;
    tr.dataset.direction = m.direction;
    for (const [i, text] of [m.model, m.family, m.direction, pct(m.driftPct), `${m.q10.toPrecision(6)} – ${m.q90.toPrecision(6)}`].entries()) {
      const td = document.createElement('td');
      if (i < 3) td.className = 'text';
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  }));
}

function leaderboard(data: ForecastData): void {
  const body = byId('board').querySelector('tbody')!;
  body.replaceChildren();
  const all = data.accuracy.rows ?? [];
  const mine = all.filter((r) => r.interval === data.forecast?.horizon);
  const rows = mine.length ? mine : all;
  byId('board-note').textContent = !data.accuracy.available
    ? `get_forecast_accuracy: not available (${data.accuracy.reason}).`
    : `get_forecast_accuracy for ${data.asset}${mine.length ? `, horizon ${data.forecast?.horizon}` : ', every horizon'}: ${rows.length} rows. Baselines (${data.baselines.join(', ')}) in italics.`;
  for (const r of rows) {
    const tr = document.createElement('tr');
    tr.dataset.model = r.model;
    if (data.baselines.includes(r.model)) tr.className = 'baseline';
    const cells = [r.model, r.chain, r.interval, r.origin, String(r.samples), r.direction_hit_rate === null ? '—' : `${(r.direction_hit_rate * 100).toFixed(1)}%`, String(r.direction_samples), r.mape_pct === null ? '—' : r.mape_pct.toFixed(3), r.rmse === null ? '—' : String(r.rmse)];
    cells.forEach((text, i) => {
      const td = document.createElement('td');
      if (i < 4) td.className = 'text';
      td.textContent = text;
      tr.append(td);
    });
    body.append(tr);
  }
}

async function load(asset: string, interval: string): Promise<void> {
  byId('verdict').textContent = `Forecasting ${asset} ${interval}…`;
  const res = await fetch(`/api/web/forecast?asset=${encodeURIComponent(asset)}&interval=${encodeURIComponent(interval)}`);
  const data = (await res.json()) as ForecastData & { error?: { message: string } };
  if (!res.ok) {
    byId('verdict').textContent = `Error: ${data.error?.message ?? res.status}`;
    return;
  }
  draw(data);
  describe(data);
  leaderboard(data);
  expose(data);
  document.body.dataset.forecast = 'ready';
}

const controls = byId<HTMLFormElement>('forecast-controls');
const read = () => {
  const form = new FormData(controls);
  return [String(form.get('asset')), String(form.get('interval'))] as const;
};
controls.addEventListener('submit', (e) => {
  e.preventDefault();
  delete document.body.dataset.forecast;
  void load(...read());
});
void load(...read());
