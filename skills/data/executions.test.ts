import { describe, expect, it } from 'vitest';
import { addr, Fixture, units, withNative } from './testing/fixtures.js';
import { executions } from './executions.js';

const A = addr(0x70a);
const B = addr(0x70b);
const POOL_A = addr(0x9a1);
const POOL_B = addr(0x9b1);
/** The fixture's WETH/USDC pool (withNative): WETH is token0, USDC token1. */
const WETH_USDC = addr(0xe0);
const TRADER = addr(0xa11);
const ROUTER = addr(0x7007);
const wei = (n: number) => units(n, 18);

/** WETH at $2,000; A and B each quoted in WETH (WETH is token0 of both pools). */
function world() {
  const fx = withNative(2_000);
  fx.token(A, 'AAA', 18);
  fx.token(B, 'BBB', 18);
  fx.pool(POOL_A, fx.weth, A, wei(10), wei(10_000));
  fx.pool(POOL_B, fx.weth, B, wei(10), wei(20_000));
  return fx;
}

describe('executions on trades/v1', () => {
  it('a route USDC -> WETH -> AAA held by the router between hops is one buy of AAA by the sender at the WETH price it paid; the router trades nothing', async () => {
    const fx = world();
    const tx = fx.tx(TRADER);
    fx.swap(5, WETH_USDC, { to: ROUTER, router: ROUTER, a1In: units(2_000, 6), a0Out: wei(1) }, tx);
    fx.swap(5, POOL_A, { to: TRADER, router: ROUTER, a0In: wei(1), a1Out: wei(900) }, tx);
    const market = await fx.market();
    const all = await executions(market, await market.reader.swaps(0, market.head.block));
    expect(all).toEqual([expect.objectContaining({ wallet: TRADER, token: A, bought: 900, sold: 0, tx, roundTripBlock: false })]);
    // 1 WETH at $2,000 for 900 AAA.
    expect(all[0]!.priceUsd).toBeCloseTo(2_000 / 900, 9);
  });

  it('a route AAA -> WETH -> BBB (each hop paid to the next pool) is a sell of AAA and a buy of BBB by the sender', async () => {
    const fx = world();
    const tx = fx.tx(TRADER);
    fx.swap(5, POOL_A, { to: POOL_B, router: ROUTER, a1In: wei(1_000), a0Out: wei(0.9) }, tx);
    fx.swap(5, POOL_B, { to: TRADER, router: ROUTER, a0In: wei(0.9), a1Out: wei(1_700) }, tx);
    const market = await fx.market();
    const all = await executions(market, await market.reader.swaps(0, market.head.block));
    expect(all.map((e) => [e.wallet, e.token, e.bought, e.sold])).toEqual([[TRADER, A, 0, 1_000], [TRADER, B, 1_700, 0]]);
    // Each at its own pool's price: 0.9 WETH ($1,800) for 1,000 AAA and for 1,700 BBB.
    expect(all.find((e) => e.token === A)!.priceUsd).toBeCloseTo(1.8, 9);
    expect(all.find((e) => e.token === B)!.priceUsd).toBeCloseTo(1_800 / 1_700, 9);
  });

  it('USDC, then the native, is the quote: trades of the native on its USDC pool and of WBTC on its WETH pool, even where the native\'s deepest pool is WBTC\'s', async () => {
    const fx = new Fixture();
    const WBTC = fx.token(addr(0xb7c), 'WBTC', 8);
    const [usdcWeth, wethWbtc] = [addr(0xe1), addr(0xe2)];
    // USDC sorts first on this pair; WETH's deepest pool by quote-side depth is WBTC's ($4M of WBTC against $2M of USDC).
    fx.pool(usdcWeth, fx.usdc, fx.weth, units(2_000_000, 6), wei(1_000));
    fx.pool(wethWbtc, fx.weth, WBTC, wei(2_000), units(100, 8));
    const market = await fx.market();
    expect(market.mainPool(fx.weth)?.quote).toBe(WBTC);
    fx.swap(5, usdcWeth, { to: TRADER, a0In: units(2_000, 6), a1Out: wei(1) }); // buys 1 WETH for 2,000 USDC
    fx.swap(6, wethWbtc, { to: TRADER, a0In: wei(1), a1Out: units(0.05, 8) }); // buys 0.05 WBTC for 1 WETH
    fx.swap(7, wethWbtc, { to: TRADER, a1In: units(0.05, 8), a0Out: wei(1.1) }); // sells the WBTC for 1.1 WETH
    fx.swap(8, usdcWeth, { to: TRADER, a1In: wei(1.1), a0Out: units(2_310, 6) }); // sells 1.1 WETH for 2,310 USDC
    const later = await fx.market();
    const all = await executions(later, await later.reader.swaps(0, later.head.block));
    expect(all.map((e) => [e.block, e.token, e.bought, e.sold])).toEqual([[5, fx.weth, 1, 0], [6, WBTC, 0.05, 0], [7, WBTC, 0, 0.05], [8, fx.weth, 0, 1.1]]);
    expect(all[0]!.priceUsd).toBeCloseTo(2_000, 9);
    expect(all[3]!.priceUsd).toBeCloseTo(2_100, 9);
  });
});
