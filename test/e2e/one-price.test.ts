/**
 * One price per token per block, across engines, on the shared world: for the same tokens at the
 * same checkpoint, the gainers ranking, the liquidity ranking, the chart, a holder's portfolio, a
 * trader's PnL and the report's prose all quote one USD price and one change over the period. The
 * price is also read straight from the chain: the pricing pool's reserves at the answer's block,
 * times its quote's price from its own pool's reserves at that same block (USDC at $1).
 *
 * The rankings list only what their names say (docs/skills.md, "Rankings"): gainers gained and
 * traded in the window, losers fell and traded, the volume ranking traded, and each says how many
 * tokens qualified. Both are checked against the world's own swaps, not the engine's counts.
 *
 * A price at a past block comes from the pool that priced the token at that block: a token
 * listed here on one pool and later on a deeper one is priced, before the second existed, from
 * the first pool's reserves at that block read from the chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, formatUnits, http, parseAbi, parseEther, parseEventLogs, type Abi, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DemoToken, SibylV2Router, WrappedNative } from '../../chain/artifacts/index.js';
import { CHAINS } from '../../chain/chains.js';
import { viemChain } from '../../chain/runtime.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { allExecutions } from '../../skills/data/executions.js';
import { loadMarket } from '../../skills/data/load.js';
import { openingPrice, priceAtBlock } from '../../skills/data/pricing.js';
import { MIN_LIQUIDITY_USD } from '../../skills/investment/engine.js';
import { pct, usd } from '../../skills/core/summary.js';
import { json, rpc, untilIndexed } from '../helpers/sibyl.js';
import { startSharedWorldSibyl, type WorldSibyl } from '../helpers/world.js';

const PAIR = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)', 'function token0() view returns (address)', 'function token1() view returns (address)']);
const ERC20 = parseAbi(['function decimals() view returns (uint8)']);
const SWAP = parseAbi(['event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)']);
const SYNC = parseAbi(['event Sync(uint112 reserve0, uint112 reserve1)']);
const APPROVE = parseAbi(['function approve(address, uint256) returns (bool)']);

let w: WorldSibyl;
const registry = createRegistry();
/** A skill's answer, called as the server calls it (its input parsed, its output checked: SIBYL_CHECK_OUTPUTS). */
const call = (id: string, input: Record<string, unknown>) => registry.byId(id)!.handler(registry.byId(id)!.input.parse(input), w.sibyl.context) as Promise<any>;

beforeAll(async () => {
  w = await startSharedWorldSibyl();
  // Funding the payer mines a block after the server's first index: every answer here reads the same checkpoint.
  await untilIndexed(w.sibyl.url);
}, 300_000);
afterAll(() => w?.close());

/** A token's USD price at `block` from the chain alone: its pricing pool's reserves, its quote priced the same way down to USDC. */
async function chainPrice(token: Address, block: bigint, usdc: string): Promise<number> {
  if (token.toLowerCase() === usdc) return 1;
  const chart = await call('tokenchart', { tokenAddress: token, chain: 'base', timeperiod: '1h' });
  const pool = chart.pricedBy.pool as Address;
  const read = <T>(functionName: 'getReserves' | 'token0' | 'token1') => w.client.readContract({ address: pool, abi: PAIR, functionName, blockNumber: block }) as Promise<T>;
  const [[r0, r1], t0, t1] = await Promise.all([read<readonly [bigint, bigint, number]>('getReserves'), read<Address>('token0'), read<Address>('token1')]);
  const quote = t0.toLowerCase() === token.toLowerCase() ? t1 : t0;
  const decimals = (a: Address) => w.client.readContract({ address: a, abi: ERC20, functionName: 'decimals' });
  const [d0, d1] = await Promise.all([decimals(t0), decimals(t1)]);
  const [a0, a1] = [Number(formatUnits(r0, d0)), Number(formatUnits(r1, d1))];
  const rate = quote === t1 ? a1 / a0 : a0 / a1;
  return rate * (await chainPrice(quote, block, usdc));
}

describe('one price per token per block', () => {
  it('gainers, top tokens, the chart, holdings, PnL and the chain agree on each gainer\'s price and change', async () => {
    const gainers = await call('top-gainers', { chain: 'base', limit: 50, timeperiod: '24h' });
    const top = await call('top-tokens', { chain: 'base', limit: 500, timeperiod: '24h' });
    expect(gainers.tokens.length, 'the world has gainers').toBeGreaterThan(2);
    const block = gainers.asOf.block as string;
    expect(top.asOf.block).toBe(block);
    const { market } = await loadMarket(w.sibyl.context, 'base');
    const usdc = market.chain.spec.usdc.toLowerCase();
    const executions = await allExecutions(market);
    const pools = new Set(market.pools.map((p) => p.pair));
    let holdingsSeen = 0;
    let pnlSeen = 0;
    for (const g of gainers.tokens) {
      const where = `${g.symbol} ${g.token}`;
      // The chart over the same period ends at the same price, with the same change since the same moment.
      const chart = await call('tokenchart', { tokenAddress: g.token, chain: 'base', timeperiod: '24h' });
      expect(chart.asOf.block, where).toBe(block);
      expect(chart.pricedBy.pool, where).toBe(g.pricedBy);
      expect(chart.priceUsd, `${where}: chart's last price`).toBe(g.priceUsd);
      expect(chart.changePct, `${where}: chart's change`).toBe(g.changePct);
      expect(chart.coverage.from, `${where}: the change is measured from the same moment`).toBe(g.changeSince);
      expect(chart.trades, where).toBe(g.trades);
      expect(chart.volumeUsd, where).toBeCloseTo(g.volumeUsd, 2);
      // The liquidity ranking lists the same token with the same figures.
      const row = top.tokens.find((t: { token: string }) => t.token === g.token);
      expect(row, `${where} in top-tokens`).toBeDefined();
      expect({ priceUsd: row.priceUsd, changePct: row.changePct, changeSince: row.changeSince }, where).toEqual({ priceUsd: g.priceUsd, changePct: g.changePct, changeSince: g.changeSince });
      // The chain: the pool's reserves at that block, its quote priced from its own pool at that block.
      expect(g.priceUsd / (await chainPrice(g.token, BigInt(block), usdc)), `${where}: price from the chain at block ${block}`).toBeCloseTo(1, 9);
      // A holder's portfolio values the token at the same price.
      const holders = Object.entries(await market.reader.balances(g.token.toLowerCase())).filter(([h, b]) => BigInt(b) > 0n && !pools.has(h)).map(([h]) => h);
      if (holders.length) {
        const portfolio = await call('wallet-portfolio', { walletAddress: holders[0], chain: 'base' });
        expect(portfolio.asOf.block).toBe(block);
        const held = portfolio.holdings.find((h: { token: string }) => h.token.toLowerCase() === g.token.toLowerCase());
        expect(held?.priceUsd, `${where}: holdings of ${holders[0]}`).toBe(g.priceUsd);
        holdingsSeen++;
      }
      // A trader's PnL marks its open position at the same price (PnL shows 8 significant digits).
      const trader = executions.find((e) => e.token === g.token.toLowerCase())?.wallet;
      if (trader) {
        const pnl = await call('wallet-pnl', { walletAddress: trader, chain: 'base', timeperiod: '24h' });
        const mine = pnl.tokens.find((t: { token: string }) => t.token === g.token.toLowerCase());
        if (mine) {
          expect(mine.priceNowUsd, `${where}: PnL of ${trader}`).toBe(Number(g.priceUsd.toPrecision(8)));
          pnlSeen++;
        }
      }
    }
    expect(holdingsSeen, 'some gainer has a holder').toBeGreaterThan(0);
    expect(pnlSeen, 'some gainer has a trader').toBeGreaterThan(0);
  }, 600_000);

  it('the report quotes the chart with the ranking\'s figures', async () => {
    const gainers = await call('top-gainers', { chain: 'base', limit: 5, timeperiod: '24h' });
    const best = gainers.tokens[0];
    const res = await w.post('/x402/svc/report', { prompt: `Chart ${best.token} on base over the last 24h` });
    const answer = await json(res);
    expect(res.status, JSON.stringify(answer).slice(0, 300)).toBe(200);
    const chart = answer.results.find((r: { skill: string }) => r.skill === 'tokenchart');
    expect(chart, JSON.stringify(answer.toolsUsed)).toBeDefined();
    expect(chart.result.asOf.block).toBe(gainers.asOf.block);
    // The figure the prose quotes is the engine's: the same as the ranking's for the same token and window.
    expect(answer.analysis).toContain(`${usd(best.priceUsd)} (${pct(best.changePct)}`);
  }, 300_000);
});

describe('rankings list only what their names say', () => {
  /** Swaps per token over the last `seconds` before the answer's block, read from the chain's Swap logs. */
  async function tradedOnChain(asOf: { block: string; timestamp: string }, seconds: number): Promise<Map<string, number>> {
    const { market } = await loadMarket(w.sibyl.context, 'base');
    const start = Date.parse(asOf.timestamp) / 1000 - seconds;
    const counts = new Map<string, number>();
    const logs = await w.client.getLogs({ event: SWAP[0], fromBlock: 0n, toBlock: BigInt(asOf.block) });
    const blocks = new Map<bigint, number>();
    for (const log of logs) {
      if (!blocks.has(log.blockNumber)) blocks.set(log.blockNumber, Number((await w.client.getBlock({ blockNumber: log.blockNumber })).timestamp));
      if (blocks.get(log.blockNumber)! < start) continue;
      const pool = market.pools.find((p) => p.pair === log.address.toLowerCase());
      if (!pool) continue;
      for (const t of [pool.token0, pool.token1]) counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    return counts;
  }

  it('gainers rose and traded in the window, losers fell and traded, and each says how many qualified', async () => {
    for (const side of ['gainers', 'losers'] as const) {
      const r = await call('top-gainers', { chain: 'base', limit: 50, timeperiod: '24h', side });
      const traded = await tradedOnChain(r.asOf, 86_400);
      expect(r.qualified, side).toBeTypeOf('number');
      expect(r.count, side).toBeLessThanOrEqual(r.qualified);
      for (const t of [...r.tokens, ...(r.excludedByScreen ?? [])]) {
        const where = `${side}: ${t.symbol} ${t.token}`;
        expect(t.changePct, where).not.toBeNull();
        if (side === 'gainers') expect(t.changePct, where).toBeGreaterThan(0);
        else expect(t.changePct, where).toBeLessThan(0);
        expect(traded.get(t.token.toLowerCase()) ?? 0, `${where} traded in the window`).toBeGreaterThan(0);
      }
    }
  }, 300_000);

  it('the investment overview\'s top gainer and loser lead the gainers\' and losers\' rankings among tokens liquid enough to be ideas', async () => {
    const report = await call('investment-report', { chains: ['base'], limit: 500, timeperiod: '24h' });
    const section = report.perChain[0];
    const traded = await tradedOnChain(section.asOf, 86_400);
    for (const side of ['gainers', 'losers'] as const) {
      const r = await call('top-gainers', { chain: 'base', limit: 500, timeperiod: '24h', side });
      expect(r.asOf.block, side).toBe(section.asOf.block);
      const mover = section.overview[side === 'gainers' ? 'topGainer' : 'topLoser'];
      // Every qualifying token is listed or left out by the screen (the limit is above their number).
      const liquid = [...r.tokens, ...(r.excludedByScreen ?? [])].filter((t: { liquidityUsd: number }) => t.liquidityUsd >= MIN_LIQUIDITY_USD);
      expect(mover.qualified, side).toBe(liquid.length);
      const lead = r.tokens.find((t: { liquidityUsd: number }) => t.liquidityUsd >= MIN_LIQUIDITY_USD);
      if (!lead) {
        expect(mover, side).toMatchObject({ available: false, reason: expect.any(String) });
        continue;
      }
      expect(mover, side).toMatchObject({ available: true, token: lead.token, changePct: lead.changePct, flagged: lead.flagged });
      expect(side === 'gainers' ? mover.changePct > 0 : mover.changePct < 0, `${side}: ${mover.symbol} ${mover.changePct}`).toBe(true);
      expect(traded.get(mover.token.toLowerCase()) ?? 0, `${side}: ${mover.symbol} traded in the window`).toBeGreaterThan(0);
    }
  }, 300_000);

  it('the volume ranking lists only tokens that traded in the window, and counts every one that did', async () => {
    const r = await call('topvolume', { chain: 'base', limit: 500, timeperiod: '1h' });
    const traded = await tradedOnChain(r.asOf, 3_600);
    for (const t of r.tokens) expect(traded.get(t.token.toLowerCase()) ?? 0, `${t.symbol} traded in the hour`).toBeGreaterThan(0);
    // Every token the chain saw traded (and the index prices) qualifies.
    const priced = (await call('top-tokens', { chain: 'base', limit: 500, timeperiod: '1h' })).tokens.map((t: { token: string }) => t.token.toLowerCase());
    expect(r.qualified).toBe(priced.filter((t: string) => (traded.get(t) ?? 0) > 0).length);
    expect(r.available).toBe(true);
  }, 300_000);
});

describe('a past price comes from the pool that priced the token then', () => {
  /** A token's USD price at `block` from one pool's reserves on chain, its quote priced by its own pool at that block. */
  async function poolPrice(pool: Address, token: Address, block: bigint): Promise<number> {
    const read = <T>(functionName: 'getReserves' | 'token0' | 'token1') => w.client.readContract({ address: pool, abi: PAIR, functionName, blockNumber: block }) as Promise<T>;
    const [[r0, r1], t0, t1] = await Promise.all([read<readonly [bigint, bigint, number]>('getReserves'), read<Address>('token0'), read<Address>('token1')]);
    const quote = t0.toLowerCase() === token.toLowerCase() ? t1 : t0;
    const [d0, d1] = await Promise.all([t0, t1].map((a) => w.client.readContract({ address: a, abi: ERC20, functionName: 'decimals' })));
    const [a0, a1] = [Number(formatUnits(r0, d0!)), Number(formatUnits(r1, d1!))];
    return (quote === t1 ? a1 / a0 : a0 / a1) * (await chainPrice(quote, block, CHAINS.base.usdc.toLowerCase()));
  }

  it('a token listed on one pool, then on a deeper one: before the deeper pool existed its price is the first pool\'s at that block', async () => {
    const [firstDex, secondDex] = w.labels.contracts.routers as [Address, Address];
    const weth = CHAINS.base.wrappedNative;
    const lister = privateKeyToAccount(generatePrivateKey());
    await rpc(w.rpcUrl, 'anvil_setBalance', [lister.address, `0x${parseEther('100').toString(16)}`]);
    const wallet = createWalletClient({ account: lister, chain: viemChain('base', w.rpcUrl), transport: http(w.rpcUrl) });
    const send = async (address: Address, abi: Abi, functionName: string, args: unknown[], value?: bigint) => {
      const receipt = await w.client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address, abi, functionName, args, value, gas: 5_000_000n } as never) });
      expect(receipt.status, functionName).toBe('success');
      return receipt;
    };
    const deployed = await w.client.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi: DemoToken.abi as Abi, bytecode: DemoToken.bytecode as Hex, args: ['Moved Pool', 'MOVED', 18, parseEther('10000000'), lister.address], gas: 3_000_000n } as never) });
    const token = deployed.contractAddress!;
    await send(weth, WrappedNative.abi as Abi, 'deposit', [], parseEther('60'));
    for (const t of [weth, token]) for (const router of [firstDex, secondDex]) await send(t, APPROVE, 'approve', [router, 2n ** 255n]);
    const FAR = 2n ** 40n;
    const pairOf = (receipt: Awaited<ReturnType<typeof send>>) => parseEventLogs({ abi: SYNC, logs: receipt.logs })[0]!.address;
    // The first pool: 1,000,000 MOVED for 2 WETH; a buy then moves its rate away from the listing's.
    const first = pairOf(await send(firstDex, SibylV2Router.abi as Abi, 'addLiquidity', [token, weth, parseEther('1000000'), parseEther('2'), 0n, 0n, lister.address, FAR]));
    await send(firstDex, SibylV2Router.abi as Abi, 'swapExactTokensForTokens', [parseEther('0.1'), 0n, [weth, token], lister.address, FAR]);
    const before = await w.client.getBlockNumber();
    // The deeper pool, on the other DEX, at more than twice the rate: 1,000,000 MOVED for 50 WETH.
    const second = pairOf(await send(secondDex, SibylV2Router.abi as Abi, 'addLiquidity', [token, weth, parseEther('1000000'), parseEther('50'), 0n, 0n, lister.address, FAR]));
    expect(second.toLowerCase()).not.toBe(first.toLowerCase());
    await untilIndexed(w.sibyl.url);

    const { market } = await loadMarket(w.sibyl.context, 'base');
    const head = BigInt(market.head.block);
    expect(head).toBeGreaterThan(before);
    const expected = await poolPrice(first, token, before);
    const past = await priceAtBlock(market, token, Number(before));
    expect(past, 'a price at a block before the deeper pool existed').not.toBeNull();
    expect(past!.usd / expected, `the first pool's reserves on chain at block ${before}`).toBeCloseTo(1, 9);
    expect(past).toMatchObject({ block: Number(before), pool: first.toLowerCase(), quote: weth.toLowerCase() });
    // The opening of a window starting at the block the deeper pool was created in is that same price.
    expect((await openingPrice(market, token, Number(before) + 1, 0))!.usd).toBe(past!.usd);
    // Now the deeper pool prices it, at its own reserves on chain.
    const now = await priceAtBlock(market, token);
    expect(now).toMatchObject({ block: Number(head), pool: second.toLowerCase(), quote: weth.toLowerCase() });
    expect(now!.usd / (await poolPrice(second, token, head)), `the deeper pool's reserves on chain at block ${head}`).toBeCloseTo(1, 9);
  }, 300_000);
});
