/**
 * The computed capabilities of the report path, bought as typed bodies with the official x402
 * client and checked against the world's ground truth or against figures recomputed here:
 * technical analysis, backtests, wallet PnL and trust, transaction debugging and fund flows,
 * contract review, LP yields, the altcoin season index, top gainers and the chart forecast.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, encodeFunctionData, http, parseAbi, parseAbiItem, parseEther, parseUnits, type Address, type Hex } from 'viem';
import { CHAINS } from '../../chain/chains.js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { viemChain } from '../../chain/runtime.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { USDC, freshAddress, json, mintUsdc, rpc, untilIndexed, walletPoster } from '../helpers/sibyl.js';
import { startSharedWorldSibyl, type WorldSibyl } from '../helpers/world.js';
import { SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';

const registry = createRegistry();
let w: WorldSibyl;
let buy: (body: Record<string, unknown>) => Promise<{ status: number; result: any; body: any }>;
let balance: () => Promise<bigint>;

beforeAll(async () => {
  // The seed and span of the security tests' world, which holds rug pulls.
  w = await startSharedWorldSibyl();
  const wallet = await walletPoster(w.sibyl.url, '40', w.rpcUrl);
  balance = wallet.balance;
  buy = async (body) => {
    const res = await wallet.post('/x402/svc/report', body);
    const answer = await json(res);
    return { status: res.status, body: answer, result: answer.results?.[0]?.result };
  };
}, 120_000);
afterAll(() => w?.close());

/** A funded EOA on the world's chain that can send transactions. */
async function sender() {
  const key = generatePrivateKey();
  const account = privateKeyToAccount(key);
  await rpc(w.rpcUrl, 'anvil_setBalance', [account.address, `0x${parseEther('1').toString(16)}`]);
  await mintUsdc(account.address, '1000', w.rpcUrl);
  const wallet = createWalletClient({ account, chain: viemChain('base', w.rpcUrl), transport: http(w.rpcUrl) });
  const transferUsdc = async (to: Address, usd: string, gas?: bigint) => {
    const hash = await wallet.sendTransaction({ to: USDC, data: encodeFunctionData({ abi: parseAbi(['function transfer(address, uint256) returns (bool)']), functionName: 'transfer', args: [to, parseUnits(usd, 6)] }), ...(gas && { gas }) });
    await w.client.waitForTransactionReceipt({ hash });
    return hash;
  };
  return { account, wallet, transferUsdc };
}

const PAIR_CREATED = parseAbiItem('event PairCreated(address indexed token0, address indexed token1, address pair, uint256 count)');
const SYNC = parseAbiItem('event Sync(uint112 reserve0, uint112 reserve1)');
const WETH = CHAINS.base.wrappedNative.toLowerCase();
const USDC_BASE = CHAINS.base.usdc.toLowerCase();

/**
 * WETH's USD price after every Sync of its deepest WETH/USDC pool (by USDC held at `block`), up to
 * `block`, with its block's time: read from the chain's own logs, not from Sibyl's index.
 */
async function wethPricesFromChain(block: bigint): Promise<{ ts: number; usd: number }[]> {
  const created = await w.client.getLogs({ event: PAIR_CREATED, fromBlock: 0n, toBlock: block });
  const pairs = created.map((l) => l.args).filter((a) => new Set([a.token0!.toLowerCase(), a.token1!.toLowerCase()]).has(WETH) && new Set([a.token0!.toLowerCase(), a.token1!.toLowerCase()]).has(USDC_BASE));
  const usdcHeld = await Promise.all(pairs.map((a) => w.client.readContract({ address: USDC, abi: parseAbi(['function balanceOf(address) view returns (uint256)']), functionName: 'balanceOf', args: [a.pair!], blockNumber: block })));
  const deepest = pairs[usdcHeld.indexOf(usdcHeld.reduce((a, b) => (b > a ? b : a)))]!;
  const wethIs0 = deepest.token0!.toLowerCase() === WETH;
  const syncs = (await w.client.getLogs({ address: deepest.pair!, event: SYNC, fromBlock: 0n, toBlock: block }))
    .sort((a, b) => Number(a.blockNumber - b.blockNumber) || a.logIndex - b.logIndex);
  const times = new Map<bigint, number>();
  for (const s of syncs) if (!times.has(s.blockNumber)) times.set(s.blockNumber, Number((await w.client.getBlock({ blockNumber: s.blockNumber })).timestamp));
  return syncs.map((s) => {
    const [weth, usdc] = wethIs0 ? [s.args.reserve0!, s.args.reserve1!] : [s.args.reserve1!, s.args.reserve0!];
    return { ts: times.get(s.blockNumber)!, usd: (Number(usdc) / 1e6) / (Number(weth) / 1e18) };
  });
}

/** Closes of the hourly candles over the last `hours` to `asOf` (market/v1's cut: buckets on the hour, each closing at its last price, forward-filled). */
function hourlyCloses(prices: { ts: number; usd: number }[], asOf: string, hours: number): number[] {
  const end = Date.parse(asOf) / 1000;
  const start = Math.floor((end - hours * 3_600) / 3_600) * 3_600;
  const closes: number[] = [];
  for (let t = start; t <= end; t += 3_600) closes.push(prices.filter((p) => p.ts < t + 3_600).at(-1)!.usd);
  return closes;
}

/** RSI(n) by Wilder: the first averages over n changes, then each smoothed by (n − 1) / n. */
function wilderRsi(closes: number[], n = 14): number {
  const changes = closes.slice(1).map((c, i) => c - closes[i]!);
  let gain = changes.slice(0, n).reduce((s, d) => s + Math.max(d, 0), 0) / n;
  let loss = changes.slice(0, n).reduce((s, d) => s + Math.max(-d, 0), 0) / n;
  for (const d of changes.slice(n)) {
    gain = (gain * (n - 1) + Math.max(d, 0)) / n;
    loss = (loss * (n - 1) + Math.max(-d, 0)) / n;
  }
  return loss === 0 ? 100 : 100 - 100 / (1 + gain / loss);
}

describe('computed capabilities over the world', () => {
  it('charges each typed capability its price in the spec', async () => {
    const before = await balance();
    const { status } = await buy({ service: 'altcoin-season-index', chain: 'base', timeperiod: '24h' });
    expect(status).toBe(200);
    expect(before - (await balance())).toBe(SPEC_SKILL_PRICE['altcoin-season-index']);
  });

  it('technical analysis: SMA 20 is the mean of the last 20 closes of the same candles', async () => {
    const { status, result, body } = await buy({ service: 'technical-analysis', token: 'WETH', chain: 'base', timeframe: '1h', candles: 40 });
    expect(status).toBe(200);
    expect(body.analysis).toContain(`RSI 14 ${result.rsi14.value} (${result.rsi14.state})`);
    const ohlcv = await buy({ service: 'ohlcv', tokenAddress: 'WETH', chain: 'base', timeperiod: '24h' });
    expect(result.token.symbol).toBe('WETH');
    expect(result.candles).toBeGreaterThanOrEqual(30);
    // RSI 14 recomputed by hand (Wilder) from the same hours' closes, read from the pool's Sync logs on chain.
    const closes = hourlyCloses(await wethPricesFromChain(BigInt(result.asOf.block)), result.asOf.timestamp, 40);
    expect(closes).toHaveLength(result.candles);
    expect(result.lastClose).toBeCloseTo(closes.at(-1)!, 6);
    expect(result.rsi14.value).toBeCloseTo(wilderRsi(closes), 1);
    expect(result.rsi14.state).toBe(result.rsi14.value >= 70 ? 'overbought' : result.rsi14.value <= 30 ? 'oversold' : 'neutral');
    expect(result.sma50).toMatchObject({ available: false, reason: expect.stringMatching(/needs 50 candles/) });
    // Both end at the same head; ohlcv's 24h period is cut in 30-minute candles: an hour closes with its last half.
    const byHour = new Map<number, number>();
    for (const c of ohlcv.result.candles as { time: string; close: number }[]) byHour.set(Math.floor(Date.parse(c.time) / 3_600_000), c.close);
    const hourly = [...byHour.entries()].sort(([a], [b]) => a - b).map(([, close]) => close);
    const mean = hourly.slice(-20).reduce((a, b) => a + b, 0) / 20;
    expect(result.sma20 / mean).toBeCloseTo(1, 2);
    for (const s of result.support) expect(s).toBeLessThan(result.lastClose);
    for (const r of result.resistance) expect(r).toBeGreaterThan(result.lastClose);
  });

  it('backtests: buy and hold without fees earns the price move from the first fill; crossover trades are consistent', async () => {
    const hold = await buy({ service: 'strategy-backtest', token: 'WETH', chain: 'base', strategy: 'buy-and-hold', timeframe: '1h', periodDays: 2, feeBps: 0, fastWindow: 5, slowWindow: 10 });
    expect(hold.status).toBe(200);
    expect(hold.result.tradeCount).toBe(1);
    const entry = hold.result.trades[0].entryPrice;
    expect(hold.result.totalReturnPct).toBeCloseTo(hold.result.trades[0].returnPct, 2);
    // Held from the first candle's close (the second one's open): the drawdown is the price path's, from the chain's Syncs.
    const closes = hourlyCloses(await wethPricesFromChain(BigInt(hold.result.asOf.block)), hold.result.asOf.timestamp, 48);
    expect(entry / closes[0]!).toBeCloseTo(1, 7); // eight significant digits
    let peak = 1;
    let drawdown = 0;
    for (const close of closes.slice(1)) {
      peak = Math.max(peak, close / closes[0]!);
      drawdown = Math.max(drawdown, 1 - close / closes[0]! / peak);
    }
    expect(drawdown).toBeGreaterThan(0);
    expect(hold.result.maxDrawdownPct).toBeCloseTo(drawdown * 100, 3);
    const cross = await buy({ service: 'strategy-backtest', token: 'WETH', chain: 'base', strategy: 'moving-average-cross', fastWindow: 3, slowWindow: 8, timeframe: '1h', periodDays: 2, feeBps: 30 });
    expect(cross.status).toBe(200);
    for (const t of cross.result.trades.filter((x: any) => !x.open)) {
      expect(t.returnPct).toBeCloseTo(((t.exitPrice / t.entryPrice) * 0.997 ** 2 - 1) * 100, 1);
    }
    // A closed trade's loss is a fall from equity at least as high as at its entry: the drawdown is at least the worst one.
    const worstLoss = Math.max(0, ...cross.result.trades.filter((x: any) => !x.open).map((x: any) => -x.returnPct));
    expect(cross.result.maxDrawdownPct).toBeGreaterThanOrEqual(worstLoss - 1e-3);
    const refused = await buy({ service: 'strategy-backtest', token: 'WETH', fastWindow: 50, slowWindow: 20 });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields[0]).toMatchObject({ field: 'slowWindow' });
  });

  it('wallet trust: a labelled sandwich bot and a rug deployer score risky, with the evidence', async () => {
    const bot = w.labels.wallets.sandwichers[0]!;
    const botScore = await buy({ service: 'wallet-trust-score', walletAddress: bot });
    expect(botScore.status).toBe(200);
    expect(botScore.result.factors).toContainEqual(expect.objectContaining({ factor: 'sandwich attacker', points: -40 }));
    const rugger = w.labels.rugs[0]!.creator;
    const ruggerScore = await buy({ service: 'wallet-trust-score', walletAddress: rugger });
    expect(ruggerScore.result.factors).toContainEqual(expect.objectContaining({ factor: 'deployer', points: expect.any(Number) }));
    expect(ruggerScore.result.factors.find((f: any) => f.factor === 'deployer').points).toBeLessThan(0);
    expect(ruggerScore.result.grade).toBe('risky');
    // No history is an honest gap, answered and not charged.
    const before = await balance();
    const stranger = await buy({ service: 'wallet-trust-score', walletAddress: freshAddress() });
    expect(stranger.status).toBe(422);
    expect(stranger.body.error.message).toMatch(/not available: the index holds no activity of this wallet/i);
    expect(await balance()).toBe(before);
  });

  it('wallet PnL: a labelled smart-money wallet traded; an unknown wallet has nothing', async () => {
    const smart = w.labels.wallets.smartMoney[0]!;
    const pnl = await buy({ service: 'wallet-pnl', walletAddress: smart, timeperiod: '30d' });
    expect(pnl.status).toBe(200);
    expect(pnl.result.swapsIndexed).toBeGreaterThan(0);
    expect(pnl.result.totalPnlUsd).toBeCloseTo(pnl.result.realizedUsd + pnl.result.unrealizedUsd, 1);
    const sum = pnl.result.tokens.reduce((s: number, t: any) => s + t.realizedUsd, 0);
    expect(pnl.result.realizedUsd).toBeCloseTo(sum, 0);
    const none = await buy({ service: 'wallet-pnl', walletAddress: freshAddress() });
    expect(none.result).toMatchObject({ swapsIndexed: 0, totalPnlUsd: 0, tokens: [] });
  });

  it('transaction debugger and fund flow: a transfer, its onward hop, and a revert with its reason', async () => {
    const a = await sender();
    const b = await sender();
    const c = freshAddress();
    const first = await a.transferUsdc(b.account.address, '250');
    await b.transferUsdc(c, '100');
    const reverted = await a.transferUsdc(c, '5000', 100_000n);
    await untilIndexed(w.sibyl.url);

    const debug = await buy({ service: 'transaction-debugger', txHash: first });
    expect(debug.status).toBe(200);
    expect(debug.result).toMatchObject({ status: 'success', from: a.account.address, call: { function: 'transfer' } });
    expect(debug.result.logs[0]).toMatchObject({ event: 'transfer', args: { from: a.account.address, to: b.account.address, value: '250000000' } });

    const failed = await buy({ service: 'transaction-debugger', txHash: reverted, chain: 'base' });
    expect(failed.result.status).toBe('reverted');
    expect(failed.result.revertReason).toMatch(/\S/);

    const flow = await buy({ service: 'fund-flow-trace', txHash: first, hops: 1 });
    expect(flow.status).toBe(200);
    const edges = flow.result.edges.map((e: any) => [e.hop, e.from, e.to, e.amount]);
    expect(edges).toContainEqual([0, a.account.address.toLowerCase(), b.account.address.toLowerCase(), '250']);
    expect(edges).toContainEqual([1, b.account.address.toLowerCase(), c.toLowerCase(), '100']);
    expect(flow.result.edges.find((e: any) => e.hop === 0).usd).toBeCloseTo(250, 0);

    const before = await balance();
    const missing = await buy({ service: 'transaction-debugger', txHash: `0x${'ab'.repeat(32)}` as Hex });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('transaction_not_found');
    expect(await balance()).toBe(before);
  });

  it('contract review: the labelled owner-powers token shows its powers; an EOA is no contract', async () => {
    const token = w.labels.tokens.find((t) => t.kind === 'owner-powers')!;
    const review = await buy({ service: 'contract-review', address: token.token, chain: 'base' });
    expect(review.status).toBe(200);
    expect(review.result.ownerPowers.powers.length).toBeGreaterThan(0);
    expect(['medium', 'high']).toContain(review.result.risk);
    // No code at the address: refused before any payment (docs/protocols.md, "Refusals before payment").
    const eoa = await buy({ service: 'contract-review', address: freshAddress() });
    expect(eoa.status).toBe(404);
    expect(eoa.body.error).toMatchObject({ code: 'contract_not_found', reason: 'no_code', message: expect.stringMatching(/no contract code at 0x[0-9a-fA-F]{40} on base/) });
  });

  it('LP yields: fees are 0.3% of volume, sorted by APR; the stablecoin filter keeps stablecoin pools', async () => {
    const all = await buy({ service: 'defi-yield-analysis', chain: 'base', timeperiod: '24h', limit: 50 });
    expect(all.status).toBe(200);
    const pools = all.result.pools as any[];
    expect(pools.length).toBeGreaterThan(0);
    for (const p of pools) expect(p.feesUsd).toBeCloseTo(p.volumeUsd * 0.003, 0);
    expect(pools.map((p) => p.feeAprPct)).toEqual([...pools.map((p) => p.feeAprPct)].sort((x, y) => y - x));
    const stable = await buy({ service: 'defi-yield-analysis', chain: 'base', timeperiod: '24h', stablecoinsOnly: true });
    expect(stable.result.pools.every((p: any) => p.stableSides > 0)).toBe(true);
  });

  it('altcoin season and top gainers agree with their own rows', async () => {
    const season = await buy({ service: 'altcoin-season-index', chain: 'base', timeperiod: '24h' });
    const rows = season.result.tokens as any[];
    expect(season.result.index).toBe(Math.round((100 * rows.filter((r) => r.beatBenchmark).length) / rows.length));
    expect(season.result.benchmark.symbol).toBe('WBTC');
    const gainers = await buy({ service: 'top-gainers', chain: 'base', timeperiod: '24h', limit: 5 });
    const changes = (gainers.result.tokens as any[]).map((t) => t.changePct ?? -Infinity);
    expect(changes).toEqual([...changes].sort((x, y) => y - x));
  });

  it('chart forecast: the tokenchart forecast record, at the chart forecast price', async () => {
    const before = await balance();
    const fc = await buy({ service: 'chart-forecast', token: 'WETH', chain: 'base', timeperiod: '24h' });
    expect(fc.status).toBe(200);
    // The models read the chart's closes: the last is WETH's price in its deepest pool at the block the answer is as of.
    const prices = await wethPricesFromChain(BigInt(fc.result.asOf.block));
    expect(fc.result.forecast.lastClose).toBeCloseTo(prices.at(-1)!.usd, 6);
    expect(fc.result.forecast.lastClose).toBe(fc.result.candles.at(-1).close);
    // 24h is cut in 30-minute candles; the first forecast point is one candle after the head.
    expect(fc.result.forecast.candleSeconds).toBe(1_800);
    for (const m of fc.result.forecast.models) expect(Date.parse(m.points[0].time)).toBe(Date.parse(fc.result.asOf.timestamp) + 1_800_000);
    expect(before - (await balance())).toBe(SPEC_SKILL_PRICE['chart-forecast']);
  });
});

describe('catalogue services computed from the index', () => {
  it('copy trading: the leaderboard ranks by realized profit; the intel on each ranked trader agrees with it and applies the copyable rule', async () => {
    const board = await buy({ service: 'copy-trading-leaderboard', chain: 'base', limit: 5, minClosedTrades: 2 });
    expect(board.status, JSON.stringify(board.body)).toBe(200);
    const traders = board.result.traders as { wallet: string; realizedUsd: number; closedTrades: number }[];
    expect(traders.length).toBeGreaterThan(0);
    expect(traders.map((t) => t.realizedUsd)).toEqual([...traders.map((t) => t.realizedUsd)].sort((a, b) => b - a));
    const verdicts: boolean[] = [];
    for (const trader of traders) {
      const intel = await buy({ service: 'copy-trading-intel', walletAddress: trader.wallet });
      expect(intel.status).toBe(200);
      expect(intel.result.record).toMatchObject({ closedTrades: trader.closedTrades, realizedUsd: trader.realizedUsd });
      // The rule docs/skills.md states: >= 4 closed trades, >= 60% won, trust >= 60.
      const { record, trust } = intel.result;
      expect(intel.result.verdict.copyable, trader.wallet).toBe(record.closedTrades >= 4 && record.winRate >= 0.6 && trust.score >= 60);
      verdicts.push(intel.result.verdict.copyable);
    }
    // The rule was checked both ways: the board holds traders worth copying and one that is not.
    expect(new Set(verdicts)).toEqual(new Set([true, false]));
    const nobody = await buy({ service: 'copy-trading-intel', walletAddress: freshAddress() });
    expect(nobody.status).toBe(422);
  });

  it('MEV protection: a bigger trade has a bigger impact, and the advice follows it', async () => {
    const small = await buy({ service: 'mev-protection', tokenAddress: 'WETH', amountUsd: 100 });
    const big = await buy({ service: 'mev-protection', tokenAddress: 'WETH', amountUsd: 500_000 });
    expect(small.status).toBe(200);
    expect(big.result.priceImpactPct).toBeGreaterThan(small.result.priceImpactPct);
    expect(small.result.priceImpactPct).toBeGreaterThanOrEqual(0.3 - 1e-9); // the pool fee
    expect(big.result.recommendation.splitInto).toBeGreaterThan(1);
    expect(big.result.recommendation.slippagePct).toBeGreaterThanOrEqual(big.result.priceImpactPct);
  });

  it('smart contract audit: the owner-powers token loses points for its live powers; a labelled honeypot for its blocked sell', async () => {
    const powers = w.labels.tokens.find((t) => t.kind === 'owner-powers')!;
    const audit = await buy({ service: 'smart-contract-audit', address: powers.token });
    expect(audit.status, JSON.stringify(audit.body)).toBe(200);
    expect(audit.result.score).toBeLessThan(100);
    expect(audit.result.findings.some((f: { finding: string }) => /owner power/.test(f.finding))).toBe(true);
    const honeypot = w.labels.tokens.find((t) => t.kind === 'honeypot' && t.pair)!;
    const trapped = await buy({ service: 'smart-contract-audit', address: honeypot.token });
    expect(trapped.result.tokenScan.honeypot).toBe(true);
    expect(trapped.result.grade).not.toBe('low risk');
  });

  it('enforces a service\'s rate limit per payer with 429 and Retry-After, charging nothing for the refused call', async () => {
    const wallet = await walletPoster(w.sibyl.url, '20', w.rpcUrl);
    const limit = registry.byId('strategy-backtest')!.catalog!.rateLimitPerMinute;
    const body = { service: 'strategy-backtest', token: 'WETH', strategy: 'buy-and-hold', timeframe: '1h', periodDays: 2, fastWindow: 5, slowWindow: 10 };
    let served = 0;
    let refused: Response | undefined;
    for (let i = 0; i < 2 * limit + 1 && !refused; i++) {
      const res = await wallet.post('/x402/svc/report', body);
      if (res.status === 429) refused = res;
      else {
        expect(res.status).toBe(200);
        served++;
      }
    }
    expect(refused).toBeDefined();
    expect(served).toBeGreaterThanOrEqual(limit);
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await json(refused!)).error.code).toBe('rate_limited');
    expect(20_000_000n - (await wallet.balance())).toBe(BigInt(served) * SPEC_SKILL_PRICE['strategy-backtest']);
  });
});
