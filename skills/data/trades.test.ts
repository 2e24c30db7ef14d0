import { describe, expect, it } from 'vitest';
import { addr, units, withNative } from './testing/fixtures.js';
import { assembleTrades, linkTrades } from './trades.js';

const TKN = addr(0x70c);
const POOL = addr(0x9001);
/** The fixture's WETH/USDC pool (withNative): WETH is token0, USDC token1. */
const WETH_USDC = addr(0xe0);
const TRADER = addr(0xa11);
const ROUTER = addr(0x7007);
const weth = (n: number) => units(n, 18);
const tkn = (n: number) => units(n, 18);
const usdc = (n: number) => units(n, 6);

/** WETH at $2,000; POOL is WETH (token0) / TKN (token1). */
function world() {
  const fx = withNative(2_000);
  fx.token(TKN, 'TKN', 18);
  fx.pool(POOL, fx.weth, TKN, weth(10), tkn(10_000));
  return fx;
}

const trades = async (fx: ReturnType<typeof world>) => {
  const market = await fx.market();
  return assembleTrades(market.chain, await market.reader.swaps(0, market.head.block), market.pools);
};

describe('trades/v1', () => {
  it('a V2 router path (each hop paid to the next pool) is one trade of the sender: first token in, last token out', async () => {
    const fx = world();
    const tx = fx.tx(TRADER);
    fx.swap(5, WETH_USDC, { to: POOL, router: ROUTER, a1In: usdc(2_000), a0Out: weth(1) }, tx);
    fx.swap(5, POOL, { to: TRADER, router: ROUTER, a0In: weth(1), a1Out: tkn(990) }, tx);
    const [trade, ...rest] = await trades(fx);
    expect(rest).toEqual([]);
    expect(trade).toMatchObject({ tx, block: 5, sender: TRADER, recipient: TRADER, tokenIn: fx.usdc, amountIn: usdc(2_000), tokenOut: TKN, amountOut: tkn(990) });
    expect(trade!.hops.map((h) => h.pool)).toEqual([WETH_USDC, POOL]);
  });

  it('a router holding the token between hops (output to the router, which calls the next pool) is one trade, never the router\'s', async () => {
    const fx = world();
    const tx = fx.tx(TRADER);
    fx.swap(5, POOL, { to: ROUTER, router: ROUTER, a1In: tkn(1_000), a0Out: weth(0.9) }, tx);
    fx.swap(5, WETH_USDC, { to: ROUTER, router: ROUTER, a0In: weth(0.9), a1Out: usdc(1_790) }, tx);
    const all = await trades(fx);
    expect(all).toHaveLength(1);
    // The router unwrapped or forwarded the output: the trade is still the sender's.
    expect(all[0]).toMatchObject({ sender: TRADER, recipient: ROUTER, tokenIn: TKN, amountIn: tkn(1_000), tokenOut: fx.usdc, amountOut: usdc(1_790) });
  });

  it('two trades batched in one transaction stay two: the first paid its output to the trader, not to the next pool', async () => {
    const fx = world();
    const tx = fx.tx(TRADER);
    fx.swap(5, WETH_USDC, { to: TRADER, router: ROUTER, a1In: usdc(2_000), a0Out: weth(1) }, tx);
    fx.swap(5, POOL, { to: TRADER, router: ROUTER, a0In: weth(1), a1Out: tkn(990) }, tx);
    const all = await trades(fx);
    expect(all.map((t) => [t.tokenIn, t.tokenOut])).toEqual([[fx.usdc, fx.weth], [fx.weth, TKN]]);
    expect(all.every((t) => t.sender === TRADER && t.hops.length === 1)).toBe(true);
  });

  it('a hop spending more than the last hop paid out is not its continuation', () => {
    const fx = world();
    const tx = fx.tx(TRADER);
    const first = fx.swap(5, WETH_USDC, { to: POOL, router: ROUTER, a1In: usdc(2_000), a0Out: weth(1) }, tx);
    const second = fx.swap(5, POOL, { to: TRADER, router: ROUTER, a0In: weth(3), a1Out: tkn(2_500) }, tx);
    expect(linkTrades([first, second], [{ pair: WETH_USDC, token0: fx.weth, token1: fx.usdc }, { pair: POOL, token0: fx.weth, token1: TKN }])).toHaveLength(2);
  });

  it('an arbitrage cycle is one trade from WETH back to WETH; a swap on a pool the index does not know is left out', async () => {
    const fx = world();
    const tx = fx.tx(TRADER);
    fx.swap(5, POOL, { to: WETH_USDC, router: ROUTER, a0In: weth(1), a1Out: tkn(990) }, tx);
    fx.swap(5, addr(0xdead01), { to: TRADER, a0In: 5n, a1Out: 4n }, fx.tx(TRADER));
    const all = await trades(fx);
    expect(all).toHaveLength(1);
    expect(all[0]!.tokenIn).toBe(fx.weth);
    const cycle = linkTrades([
      { ...all[0]!.hops[0]!.swap, to: POOL },
      { ...all[0]!.hops[0]!.swap, logIndex: 99, amount0In: '0', amount1In: tkn(990).toString(), amount0Out: weth(1.01).toString(), amount1Out: '0', to: TRADER },
    ], [{ pair: POOL, token0: fx.weth, token1: TKN }]);
    expect(cycle).toHaveLength(1);
    expect(cycle[0]).toMatchObject({ tokenIn: fx.weth, amountIn: weth(1), tokenOut: fx.weth, amountOut: weth(1.01) });
  });
});
