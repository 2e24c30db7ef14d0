/**
 * The chart forecast on a world with two days of history: models bound to an HTTP inference
 * server (the documented contract, served here by a local test server), the 503-and-no-charge
 * path when it fails, the background majors and the ledger scoring against the index.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AccuracyLedger, RANDOM_WALK, withBaselines } from '../../skills/forecast/ledger.js';
import { precomputeMajors, PRECOMPUTE_ASSETS, PRECOMPUTE_INTERVALS, scoreDue, snapshotKey } from '../../skills/forecast/jobs.js';
import { volatilityForecast } from '../../skills/forecast/models/volatility.js';
import { loadMarket } from '../../skills/data/load.js';
import { json } from '../helpers/sibyl.js';
import { startWorldSibyl, type WorldSibyl } from '../helpers/world.js';
import { fundedPayer, payingFetch, usdcBalance } from '../helpers/sibyl.js';

let w: WorldSibyl;
let backend: Server;
let mode: 'ok' | 'fail' | 'short' = 'ok';
const received: { model: string; inputs: number; horizon: number }[] = [];

beforeAll(async () => {
  // A finance-native inference server: GARCH with filtered historical simulation, on the contract.
  backend = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as { model: string; inputs: number[]; horizon: number };
      received.push({ model: body.model, inputs: body.inputs.length, horizon: body.horizon });
      if (mode === 'fail') return void res.writeHead(500).end('model crashed');
      const f = volatilityForecast('garch', body.inputs, body.horizon, 'backend');
      const points = mode === 'short' ? f.points.slice(1) : f.points;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ points, quantiles: f.quantiles }));
    });
  });
  await new Promise<void>((r) => backend.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(backend.address() as AddressInfo).port}/forecast`;
  w = await startWorldSibyl('forecast', 2, { FORECAST_BACKEND_MODELB_SMALL: url, FORECAST_BACKEND_MODELA_3_0: url });
}, 300_000); // a world written and forecast on cores the other test files share (CI timed it out at 120 s)
afterAll(async () => {
  await w?.close();
  await new Promise((r) => backend.close(r));
});
// Each test starts with a backend that answers and an empty log of what it was asked (whatever ran, or failed, before).
beforeEach(() => {
  mode = 'ok';
  received.length = 0;
});

const chartForecast = () => w.post('/x402/data/tokenchart', { tokenAddress: 'ETH', timeperiod: '24h', forecast: true });

describe('chart forecast on a world', () => {
  it('is served with one model from the HTTP backend, its inputs the chart closes', async () => {
    const res = await chartForecast();
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(received).toEqual([{ model: 'modelB-small', inputs: body.candles.length, horizon: 12 }]);
    expect(body.forecast.servedBy['modelB-small']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/forecast$/);
    expect(body.forecast.servedBy['modelA-2.5']).toBe('in-process (ets)');
    expect(body.forecast.quantiles.model).toBe('modelB-small');
    expect(body.forecast.interval).toBe('6h');
  });

  it.each(['fail', 'short'] as const)('a backend that %ss makes it 503 forecast_unavailable, and nothing is charged', async (m) => {
    mode = m;
    const { key, account } = await fundedPayer('5', w.rpcUrl);
    const { pay } = payingFetch(key);
    const before = await usdcBalance(account.address, w.rpcUrl);
    const res = await pay(`${w.sibyl.url}/x402/data/tokenchart`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tokenAddress: 'ETH', forecast: true }) });
    expect(res.status).toBe(503);
    expect((await json(res)).error.code).toBe('forecast_unavailable');
    expect(await usdcBalance(account.address, w.rpcUrl)).toBe(before);
  });

  it('the forecast API paid with x402 while its model fails: 503 forecast_unavailable, and nothing is charged', async () => {
    mode = 'fail';
    const { key, account } = await fundedPayer('5', w.rpcUrl);
    const { pay, seen } = payingFetch(key);
    const before = await usdcBalance(account.address, w.rpcUrl);
    const inputs = Array.from({ length: 32 }, (_, i) => 100 + Math.sin(i));
    const res = await pay(`${w.sibyl.url}/api/svc/v1/forecast`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ inputs, model: 'modelB-small' }) });
    expect(res.status).toBe(503);
    expect((await json(res)).error.code).toBe('forecast_unavailable');
    // The client signed once (after the 402); the authorization was never settled.
    expect(seen).toHaveLength(1);
    expect(await usdcBalance(account.address, w.rpcUrl)).toBe(before);
  });

  it('the models endpoint names the backend of a bound slot; a backend-only slot becomes available', async () => {
    const body = await json(await fetch(`${w.sibyl.url}/api/svc/v1/models`));
    const byId = Object.fromEntries(body.models.map((m: any) => [m.id, m]));
    expect(byId['modelB-small']).toMatchObject({ available: true, servedBy: 'http', backend: expect.stringMatching(/\/forecast$/) });
    expect(byId['modelA-3.0']).toMatchObject({ available: true, servedBy: 'http' });
    expect(byId['modelA-2.5']).toMatchObject({ servedBy: 'in-process' });
  });
});

describe('background majors and ledger scoring', () => {
  it('precomputes the majors where history allows, and says why where it does not', async () => {
    const { service, ledger } = w.sibyl.context.forecast!;
    const done = await precomputeMajors(w.sibyl.context, service, ledger);
    const snapshots = [];
    for (const asset of PRECOMPUTE_ASSETS) for (const interval of Object.keys(PRECOMPUTE_INTERVALS)) snapshots.push(JSON.parse((await w.sibyl.store.get(snapshotKey(asset, interval)))!));
    expect(snapshots.filter((s) => s.available)).toHaveLength(done);
    // Two days of history: 48 hourly candles serve 4h; 4h candles (12 of them) cannot serve 1d.
    const eth4h = snapshots.find((s) => s.asset === 'ETH' && s.interval === '4h');
    expect(eth4h).toMatchObject({ available: true, chain: 'base', steps: 4 });
    // Consensus by the documented rule (skills/forecast/agreement.ts), from the two models' own calls and q10-q90 at
    // the horizon: the same call and overlapping ranges; models that disagree give no direction.
    const { record } = eth4h;
    const atHorizon = record.horizons.find((h: { steps: number }) => h.steps === eth4h.steps);
    const [a, b] = record.models.map((m: { model: string }) => atHorizon.models[m.model]);
    expect(eth4h.consensus).toBe(a.direction === b.direction && Math.max(a.q10, b.q10) <= Math.min(a.q90, b.q90));
    expect(eth4h.verdict).toBe(eth4h.consensus ? 'CONSENSUS' : 'DIVERGENCE');
    expect(eth4h.direction).toBe(eth4h.consensus ? a.direction : null);
    // Both models' figures are in the snapshot get_price_forecast serves.
    expect(eth4h.models.map((m: { model: string; direction: string }) => [m.model, m.direction])).toEqual(record.models.map((m: { model: string }) => [m.model, atHorizon.models[m.model].direction]));
    const eth1d = snapshots.find((s) => s.asset === 'ETH' && s.interval === '1d');
    expect(eth1d).toMatchObject({ available: false, reason: expect.stringContaining('at least 16 candles') });
    // BNB has no pool on this base-only world.
    expect(snapshots.find((s) => s.asset === 'BNB' && s.interval === '4h')).toMatchObject({ available: false });
  });

  it('scores a due event at the indexed price of its due time', async () => {
    const ledger = new AccuracyLedger(w.sibyl.store);
    const { market } = await loadMarket(w.sibyl.context, 'base');
    const token = [...market.tokens.values()].find((t) => t.symbol === 'WETH')!.address.toLowerCase();
    const dueTs = market.head.timestamp - 3_600;
    const originTs = dueTs - 4 * 3_600;
    const lastClose = (await market.priceAt(token, originTs))!;
    const realized = (await market.priceAt(token, dueTs))!;
    await ledger.record({ id: 'x', asset: 'TESTETH', chain: 'base', token, interval: '4h', originTs, dueTs, lastClose, calls: withBaselines({ 'modelB-small': { point: lastClose * 1.01, direction: 'bullish' } }, lastClose) });
    await scoreDue(w.sibyl.context, ledger);
    const { rows } = await ledger.rows('TESTETH');
    const rw = rows.find((r) => r.model === RANDOM_WALK)!;
    expect(rw.samples).toBe(1);
    expect(rw.mape_pct).toBeCloseTo((Math.abs(lastClose - realized) / realized) * 100, 4);
    const res = await json(await fetch(`${w.sibyl.url}/api/svc/v1/forecast/accuracy?asset=TESTETH`));
    expect(res.rows).toHaveLength(3);
    expect(res.assetsScored).toContain('TESTETH');
  });
});
