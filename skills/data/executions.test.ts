import { describe, expect, it } from 'vitest';
import { addr, units, withNative } from './testing/fixtures.js';
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
});
