import { zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { addr, TKN, units, withNative, type Fixture } from '../fixtures.js';
import { poolLiquidity } from './liquidity.js';

const POOL = addr(0x9003);
const PROVIDER = addr(0x9e0);
const LOCKER = addr(0x10c);
const DEAD = '0x000000000000000000000000000000000000dead';
const lp = (n: number) => BigInt(n);

/**
 * TKN/WETH; WETH is $2,000 until block 15, then $1,000. Block 10: PROVIDER adds 10,000 TKN + 10 WETH,
 * the pair mints 1,000 LP to the zero address and 9,000 to PROVIDER.
 */
function world(): Fixture {
  const fx = withNative(2_000);
  fx.token(TKN, 'TKN', 18);
  fx.pool(POOL, TKN, fx.weth, 0n, 0n, { block: 2 });
  const add = fx.tx(PROVIDER);
  fx.transfer(10, POOL, zeroAddress, zeroAddress, lp(1_000), add);
  fx.transfer(10, POOL, zeroAddress, PROVIDER, lp(9_000), add);
  fx.sync(10, POOL, units(10_000, 18), units(10, 18), add);
  fx.mint(10, POOL, units(10_000, 18), units(10, 18), add);
  fx.sync(15, addr(0xe0), units(100, 18), units(100_000, 6));
  return fx;
}

describe('security/v1 pool liquidity', () => {
  it('a provider that burned 8,000 of its 9,000 LP and took 60% of the liquidity: pulled', async () => {
    const fx = world();
    fx.transfer(12, POOL, PROVIDER, DEAD, lp(500));
    const remove = fx.tx(PROVIDER);
    fx.transfer(20, POOL, PROVIDER, POOL, lp(8_000), remove);
    fx.transfer(20, POOL, POOL, zeroAddress, lp(8_000), remove);
    fx.burn(20, POOL, units(6_000, 18), units(6, 18), PROVIDER, remove);
    fx.sync(20, POOL, units(4_000, 18), units(4, 18), remove);
    const market = await fx.market();
    const r = await poolLiquidity(market, market.pools.find((p) => p.pair === POOL)!, TKN);
    expect(r).toMatchObject({
      quote: fx.weth, provider: PROVIDER, providerMintedLp: '9000',
      // 500 of 9,000 left: 5.5556%.
      providerHoldsPct: 5.5556,
      addedQuote: 10, removedQuote: 6, removedPct: 60,
      // Twice the quote side, at each block's WETH price: 2·10·$2,000 in, 2·6·$1,000 out.
      addedUsd: 40_000, removedUsd: 12_000,
      // 8,000 redeemed of 10,000 ever minted (the zero address's 1,000 included).
      lpRedeemedPct: 80,
      lastRemovalBlock: 20,
      // What is left: 500 at the dead address, 500 with the provider.
      lp: { burnedPct: 50, contractHeldPct: 0, walletHeldPct: 50, largestHolder: PROVIDER, largestHolderPct: 50 },
      pulled: true,
    });
    // Now: 4,000 TKN + 4 WETH at $1,000, TKN priced by this pool: 2 · $4,000.
    expect(r.liquidityUsdNow).toBeCloseTo(8_000, 6);
  });

  it('LP handed to a locker contract with nothing removed is not a pull', async () => {
    const fx = world();
    fx.code.set(LOCKER, '0x6080');
    fx.transfer(12, POOL, PROVIDER, LOCKER, lp(9_000));
    const market = await fx.market();
    const r = await poolLiquidity(market, market.pools.find((p) => p.pair === POOL)!, TKN);
    expect(r).toMatchObject({ providerHoldsPct: 0, removedPct: 0, removedUsd: 0, lpRedeemedPct: 0, lastRemovalBlock: null, pulled: false });
    expect(r.lp).toEqual({ burnedPct: 0, contractHeldPct: 100, walletHeldPct: 0, largestHolder: LOCKER, largestHolderPct: 100 });
  });

  it('a pool that never had liquidity: no provider, nothing to measure', async () => {
    const fx = withNative();
    fx.token(TKN, 'TKN', 18);
    fx.pool(POOL, TKN, fx.weth, 0n, 0n);
    const market = await fx.market();
    const r = await poolLiquidity(market, market.pools.find((p) => p.pair === POOL)!, TKN);
    expect(r).toMatchObject({ provider: null, providerHoldsPct: null, removedPct: null, lpRedeemedPct: null, addedUsd: 0, pulled: false, liquidityUsdNow: null });
  });
});
