import { getAddress, zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { addr, TKN, tokenUsdc, units } from '../data/testing/fixtures.js';
import { walletHoldings } from './engine.js';

const [W, OTHER, DUST, SPENT, NOT_ERC20] = [addr(0x111), addr(0x222), addr(0xd5), addr(0x5be), addr(0x4e4)];

describe('wallet-holdings/v2', () => {
  it('replayed balances at market/v1 prices, USDC at peg, unpriced and spent tokens handled, native at the checkpoint', async () => {
    const fx = tokenUsdc(10_000, 50_000); // TKN $5
    fx.token(DUST, 'DUST', 18);
    fx.token(SPENT, 'SPENT', 18);
    fx.transfer(2, TKN, zeroAddress, W, units(30, 18));
    fx.transfer(3, TKN, W, OTHER, units(10, 18));
    fx.transfer(2, fx.usdc, OTHER, W, units(123.45, 6));
    fx.transfer(2, DUST, zeroAddress, W, units(7, 18));
    fx.transfer(2, SPENT, zeroAddress, W, units(1, 18));
    fx.transfer(4, SPENT, W, OTHER, units(1, 18));
    fx.transfer(2, NOT_ERC20, zeroAddress, W, 5n);
    fx.nativeBalances.set(W, units(0.5, 18));
    fx.pool(addr(0xe0), fx.weth, fx.usdc, units(100, 18), units(200_000, 6)); // WETH $2,000
    const market = await fx.market();
    const r = await walletHoldings(market, (await market.reader.checkpoint())!, W);
    expect(r.holdings.map((h) => [h.symbol, h.balance, h.valueUsd, h.pricedBy])).toEqual([
      ['USDC', '123.45', 123.45, 'peg'],
      ['TKN', '20', 100, addr(0x7c0)],
      ['DUST', '7', null, null],
    ]);
    expect(r.holdings[0]!.token).toBe(getAddress(fx.usdc));
    expect(r.holdings[2]!.unpricedReason).toBe('no pool with enough liquidity prices this token');
    expect(r.native).toEqual({ symbol: 'ETH', balance: '0.5', priceUsd: 2_000, valueUsd: 1_000 });
    expect(r).toMatchObject({ totalUsd: 1_223.45, unpricedCount: 1 });
  });

  it('a wallet the index never saw holds nothing', async () => {
    const market = await tokenUsdc().market();
    const r = await walletHoldings(market, (await market.reader.checkpoint())!, addr(0x999));
    expect(r).toMatchObject({ holdings: [], totalUsd: 0, unpricedCount: 0, native: { balance: '0', priceUsd: null, valueUsd: null } });
  });
});
