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
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUnits, parseAbi, type Address } from 'viem';
import { createRegistry } from '../../skills/catalog/index.js';
import { allExecutions } from '../../skills/data/executions.js';
import { loadMarket } from '../../skills/data/load.js';
import { pct, usd } from '../../skills/core/summary.js';
import { json, untilIndexed } from '../helpers/sibyl.js';
import { startSharedWorldSibyl, type WorldSibyl } from '../helpers/world.js';

const PAIR = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)', 'function token0() view returns (address)', 'function token1() view returns (address)']);
const ERC20 = parseAbi(['function decimals() view returns (uint8)']);
const SWAP = parseAbi(['event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)']);

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
