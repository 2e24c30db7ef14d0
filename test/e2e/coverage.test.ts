/**
 * Periods longer than the indexed history say so (docs/skills.md, "Charts and coverage"): on a world with two days of history,
 * a 7d/14d/30d chart carries `coverage` with the candles that hold history and `complete: false`,
 * never 15 silent daily candles; rankings measure each change over what exists and state since
 * when; yields annualise over the span covered. A period inside the history is `complete`.
 * Candle sizes per period are docs/skills.md's (7d → 4 h, 14d → 8 h, 30d → 1 day, 24h → 30 min);
 * the first prices and times are read from the chain itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUnits, parseAbi, parseAbiItem, type Address } from 'viem';
import { USDC, json } from '../helpers/sibyl.js';
import { startWorldSibyl, type WorldSibyl } from '../helpers/world.js';

const DAYS = 2;
const HOUR = 3_600;
const DAY = 86_400;
/** docs/skills.md: "Charts cut the period into candles (... 24h → 30 min, 7d → 4 h, 14d → 8 h, 30d → 1 day)". */
const PERIOD = { '24h': [DAY, 1_800], '7d': [7 * DAY, 4 * HOUR], '14d': [14 * DAY, 8 * HOUR], '30d': [30 * DAY, DAY] } as const;

let w: WorldSibyl;
let genesisTs: number;

const seconds = (iso: string) => Date.parse(iso) / 1000;
async function buy(path: string, body: Record<string, unknown>) {
  const res = await w.post(path, body);
  const answer = await json(res);
  expect(res.status, JSON.stringify(answer).slice(0, 400)).toBe(200);
  return answer;
}
/** A typed capability body on the report path: the skill's own result. */
async function capability(body: Record<string, unknown>) {
  return (await buy('/x402/svc/report', body)).results[0].result;
}
/**
 * The candles a period is cut into, from its own definition: the period begins its length before
 * the head (as every ranking's does), its candles sit on the grid of their size from the slot
 * holding that start through the head.
 */
function periodCandles(period: keyof typeof PERIOD, to: number) {
  const [length, candle] = PERIOD[period];
  const from = to - length;
  const grid = Math.floor(from / candle) * candle;
  return { from, count: Math.floor((to - grid) / candle) + 1, candle };
}

beforeAll(async () => {
  w = await startWorldSibyl('coverage', DAYS);
  genesisTs = Number((await w.client.getBlock({ blockNumber: 0n })).timestamp);
}, 120_000);
afterAll(() => w?.close());

describe('charts over periods longer than the history', () => {
  it.each(['7d', '14d', '30d'] as const)('tokenchart %s: coverage counts the candles that hold history, and says the period is not covered', async (period) => {
    const chart = await buy('/x402/data/tokenchart', { tokenAddress: 'WETH', timeperiod: period });
    const to = seconds(chart.asOf.timestamp);
    const expected = periodCandles(period, to);
    const { coverage, candles } = chart;
    expect(coverage).toMatchObject({ complete: false, reason: 'index_history', periodCandles: expected.count, periodFrom: new Date(expected.from * 1000).toISOString(), to: chart.asOf.timestamp });
    expect(coverage.note).toMatch(/history covers/);
    // Every candle returned holds history, and there are only as many as two days give.
    expect(coverage.candles).toBe(candles.length);
    expect(candles.length).toBeLessThan(expected.count);
    expect(candles.length).toBeLessThanOrEqual(Math.ceil((DAYS * DAY) / expected.candle) + 2);
    // History begins where the world does, inside the first candle returned.
    const from = seconds(coverage.from);
    expect(from).toBeGreaterThanOrEqual(genesisTs);
    expect(from).toBeLessThan(genesisTs + expected.candle);
    expect(seconds(candles[0].time)).toBeLessThanOrEqual(from);
    expect(from).toBeLessThan(seconds(candles[0].time) + expected.candle);
    expect(chart.timeperiod).toBe(period);
  });

  it('tokenchart 24h inside the history is complete: every candle of the period is there', async () => {
    const chart = await buy('/x402/data/tokenchart', { tokenAddress: 'WETH', timeperiod: '24h' });
    const expected = periodCandles('24h', seconds(chart.asOf.timestamp));
    expect(chart.coverage).toMatchObject({ complete: true, candles: expected.count, periodCandles: expected.count, from: new Date(expected.from * 1000).toISOString() });
    expect(chart.coverage.reason).toBeUndefined();
    expect(chart.candles).toHaveLength(expected.count);
  });

  it('tokenchart/raw 30d gives coverage in unix seconds like its arrays; ohlcv 14d in ISO like its candles', async () => {
    const raw = await buy('/x402/data/tokenchart/raw', { tokenAddress: 'WETH', timeperiod: '30d' });
    expect(raw.coverage).toMatchObject({ complete: false, candles: raw.ohlcv.length, from: expect.any(Number), to: seconds(raw.asOf.timestamp) });
    expect(raw.ohlcv[0][0]).toBeLessThanOrEqual(raw.coverage.from);
    expect(raw.coverage.from).toBeLessThan(raw.ohlcv[0][0] + DAY);
    const ohlcv = await buy('/x402/data/ohlcv', { tokenAddress: 'WETH', timeperiod: '14d' });
    expect(ohlcv.coverage).toMatchObject({ complete: false, candles: ohlcv.candles.length, from: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  });

  it('technical analysis and backtests state the candles they really had', async () => {
    const ta = await capability({ service: 'technical-analysis', token: 'WETH', timeframe: '1d', candles: 30 });
    expect(ta.coverage).toMatchObject({ complete: false, candles: ta.candles });
    expect(ta.candles).toBeLessThanOrEqual(DAYS + 2);
    expect(ta.coverage.periodCandles).toBeGreaterThanOrEqual(30);
    const answer = await buy('/x402/svc/report', { service: 'strategy-backtest', token: 'WETH', strategy: 'buy-and-hold', timeframe: '1h', periodDays: 30, fastWindow: 5, slowWindow: 10 });
    const test = answer.results[0].result;
    expect(test.coverage).toMatchObject({ complete: false });
    expect(test.coverage.candles).toBeLessThanOrEqual(DAYS * 24 + 2);
    expect(answer.analysis).toContain(`since ${test.coverage.from}`);
  });
});

describe('rankings over periods longer than the history', () => {
  /** WETH's first price and its price now, from its pool's first Sync log and its reserves on chain. */
  async function wethOnChain(pair: Address) {
    const abi = parseAbi(['function token0() view returns (address)', 'function getReserves() view returns (uint112, uint112, uint32)']);
    const usdcIs0 = (await w.client.readContract({ address: pair, abi, functionName: 'token0' })).toLowerCase() === USDC.toLowerCase();
    const price = (r0: bigint, r1: bigint) => Number(formatUnits(usdcIs0 ? r0 : r1, 6)) / Number(formatUnits(usdcIs0 ? r1 : r0, 18));
    const [first] = await w.client.getLogs({ address: pair, event: parseAbiItem('event Sync(uint112 reserve0, uint112 reserve1)'), fromBlock: 0n, toBlock: 'latest' });
    const [r0, r1] = await w.client.readContract({ address: pair, abi, functionName: 'getReserves' });
    const firstTs = Number((await w.client.getBlock({ blockNumber: first!.blockNumber })).timestamp);
    return { first: price(first!.args.reserve0!, first!.args.reserve1!), now: price(r0, r1), firstTs };
  }

  it('top-tokens 30d: the change is WETH\'s since its first indexed price, and says since when', async () => {
    const ranking = await buy('/x402/data/top-tokens', { timeperiod: '30d', limit: 500 });
    expect(ranking.coverage).toMatchObject({ complete: false, reason: 'index_history', to: ranking.asOf.timestamp });
    const from = seconds(ranking.coverage.from);
    expect(from).toBeGreaterThanOrEqual(genesisTs);
    expect(from).toBeLessThan(genesisTs + HOUR);
    const periodFrom = seconds(ranking.coverage.periodFrom);
    expect(seconds(ranking.asOf.timestamp) - periodFrom).toBe(30 * DAY);
    for (const row of ranking.tokens.filter((r: any) => r.changePct !== null)) {
      // Never labelled as the full period: no change is measured from before the history begins.
      expect(seconds(row.changeSince), row.symbol).toBeGreaterThanOrEqual(from);
    }
    const weth = ranking.tokens.find((r: any) => r.symbol === 'WETH');
    const chain = await wethOnChain(weth.pricedBy);
    expect(weth.changeSince).toBe(new Date(chain.firstTs * 1000).toISOString());
    expect(weth.changePct).toBeCloseTo((chain.now / chain.first - 1) * 100, 2);
  });

  it('topvolume 24h inside the history is complete, WETH\'s change measured from the period\'s start', async () => {
    const ranking = await buy('/x402/data/topvolume', { timeperiod: '24h', limit: 500 });
    expect(ranking.coverage).toMatchObject({ complete: true });
    const weth = ranking.tokens.find((r: any) => r.symbol === 'WETH');
    expect(weth.changeSince).toBe(ranking.coverage.periodFrom);
    expect(seconds(ranking.asOf.timestamp) - seconds(ranking.coverage.periodFrom)).toBe(DAY);
  });

  it('investment-report 30d: each chain states its coverage and no idea calls a two-day change the period\'s', async () => {
    const report = await buy('/x402/data/investment-report', { chains: ['base'], timeperiod: '30d' });
    const [section] = report.perChain;
    expect(section.coverage).toMatchObject({ complete: false, reason: 'index_history' });
    expect(report.ideas.length).toBeGreaterThan(0);
    for (const idea of report.ideas.filter((i: any) => i.signals.changePct !== null)) {
      expect(seconds(idea.signals.changeSince)).toBeGreaterThanOrEqual(seconds(section.coverage.from));
      expect(idea.thesis.join('; ')).not.toMatch(/over the period/);
      expect(idea.thesis.join('; ')).toContain(`since ${idea.signals.changeSince}`);
    }
  });

  it('LP yields 30d are annualised over the two days covered, not thirty', async () => {
    const yields = await capability({ service: 'defi-yield-analysis', timeperiod: '30d', limit: 100 });
    expect(yields.coverage).toMatchObject({ complete: false });
    const span = seconds(yields.coverage.to) - seconds(yields.coverage.from);
    expect(span).toBeLessThan((DAYS + 0.5) * DAY);
    const earning = yields.pools.filter((p: any) => p.feesUsd > 100);
    expect(earning.length).toBeGreaterThan(0);
    for (const p of earning) {
      const apr = (p.feesUsd / p.liquidityUsd) * ((365 * DAY) / span) * 100;
      expect(Math.abs(p.feeAprPct - apr) / apr, p.pair).toBeLessThan(0.01);
    }
  });

  it.each([
    ['/x402/data/mevdetection'], ['/x402/data/liquidityshifts'], ['/x402/data/whaleintel'], ['/x402/data/smartmoney'],
    ['/x402/data/dexcapital'], ['/x402/data/creator-launches'],
  ])('%s over 30d states that it covers the two days the index holds', async (path) => {
    const answer = await buy(path, { timeperiod: '30d', limit: 10 });
    expect(answer.coverage).toMatchObject({ complete: false, reason: 'index_history', to: answer.asOf.timestamp });
    expect(seconds(answer.coverage.from)).toBeGreaterThanOrEqual(genesisTs);
    expect(seconds(answer.coverage.from)).toBeLessThan(genesisTs + HOUR);
  });

  it('the altcoin season index over 30d says its changes cover the history, not 30 days', async () => {
    const season = await capability({ service: 'altcoin-season-index', timeperiod: '30d' });
    expect(season.coverage).toMatchObject({ complete: false, reason: 'index_history' });
  });
});
