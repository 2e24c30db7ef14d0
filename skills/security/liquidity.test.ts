import { describe, expect, it } from 'vitest';
import { addr, LP_POOL as POOL, LP_PROVIDER as PROVIDER, providedPool, pull, TKN, withNative } from '../data/testing/fixtures.js';
import { poolLiquidity } from './liquidity.js';

const LOCKER = addr(0x10c);
const DEAD = '0x000000000000000000000000000000000000dead';
const lp = (n: number) => BigInt(n);

describe('security/v2 pool liquidity', () => {
  it('a provider that burned 8,000 of its 9,000 LP and took 60% of the liquidity: pulled', async () => {
    const fx = providedPool();
    fx.transfer(12, POOL, PROVIDER, DEAD, lp(500));
    pull(fx);
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
      lp: { burnedPct: 50, contractHeldPct: 0, walletHeldPct: 50, largestHolder: PROVIDER, largestHolderPct: 50, largestWallet: PROVIDER, largestWalletPct: 50, supply: '1000' },
      pulled: true,
    });
    // Now: 4,000 TKN + 4 WETH at $1,000, TKN priced by this pool: 2 · $4,000.
    expect(r.liquidityUsdNow).toBeCloseTo(8_000, 6);
  });

  it('LP handed to a locker contract with nothing removed is not a pull', async () => {
    const fx = providedPool();
    fx.code.set(LOCKER, '0x6080');
    fx.transfer(12, POOL, PROVIDER, LOCKER, lp(9_000));
    const market = await fx.market();
    const r = await poolLiquidity(market, market.pools.find((p) => p.pair === POOL)!, TKN);
    expect(r).toMatchObject({ providerHoldsPct: 0, removedPct: 0, removedUsd: 0, lpRedeemedPct: 0, lastRemovalBlock: null, pulled: false });
    // The locker is a contract: no wallet holds any LP to withdraw.
    expect(r.lp).toEqual({ burnedPct: 0, contractHeldPct: 100, walletHeldPct: 0, largestHolder: LOCKER, largestHolderPct: 100, largestWallet: null, largestWalletPct: 0, supply: '9000' });
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
