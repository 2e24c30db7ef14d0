import { describe, expect, it } from 'vitest';
import { addr, TKN, TKN_USDC, tokenUsdc, trade, units } from '../data/testing/fixtures.js';
import { walletPnl } from './pnl.js';

const W = addr(0x111);

/** W buys 100 TKN at $1 (block 10) and 100 at $3 (block 20), sells 150 at $4 (block 30); TKN is $5 now. */
async function world() {
  const fx = tokenUsdc(10_000, 50_000);
  trade(fx, 10, W, 'buy', 100, 100);
  trade(fx, 20, W, 'buy', 100, 300);
  trade(fx, 30, W, 'sell', 150, 600);
  // A multi-hop leg whose output goes to another pool is nobody's trade.
  fx.swap(30, TKN_USDC, { to: addr(0xe0), a1In: units(5, 6), a0Out: units(1, 18) });
  return fx.market();
}

describe('wallet-pnl/v1', () => {
  it('average cost over the whole index: realized on the sell, unrealized on the rest at today\'s price', async () => {
    const r = await walletPnl(await world(), W, 0);
    // Average cost (100·1 + 100·3) / 200 = $2; sell 150 at $4 → realized 150·(4 − 2) = $300;
    // 50 left at cost $100, worth 50·5 = $250 → unrealized $150.
    expect(r).toMatchObject({ swapsIndexed: 3, tradesInPeriod: 3, realizedUsd: 300, unrealizedUsd: 150, totalPnlUsd: 450, volumeUsd: 1_000, winRate: 1 });
    expect(r.tokens).toEqual([expect.objectContaining({ token: TKN, symbol: 'TKN', boughtUsd: 400, soldUsd: 600, positionTokens: 50, averageCostUsd: 2, priceNowUsd: 5 })]);
  });

  it('the period bounds what is realized and traded, not the cost basis', async () => {
    const r = await walletPnl(await world(), W, 25);
    expect(r).toMatchObject({ tradesInPeriod: 1, realizedUsd: 300, unrealizedUsd: 150, volumeUsd: 600 });
    expect(r.tokens[0]).toMatchObject({ boughtUsd: 0, soldUsd: 600, averageCostUsd: 2 });
  });

  it('an open position with no trade in the period still shows, with no win rate', async () => {
    const r = await walletPnl(await world(), W, 31);
    expect(r).toMatchObject({ tradesInPeriod: 0, realizedUsd: 0, unrealizedUsd: 150, winRate: null });
  });

  it('selling more than was bought matches only what has a cost basis', async () => {
    const fx = tokenUsdc();
    trade(fx, 10, W, 'buy', 10, 10);
    trade(fx, 11, W, 'sell', 30, 60); // 20 of these came by transfer: no cost basis
    const r = await walletPnl(await fx.market(), W, 0);
    expect(r).toMatchObject({ realizedUsd: 10, unrealizedUsd: 0, winRate: 1 });
    expect(r.tokens[0]).toMatchObject({ soldUsd: 60, positionTokens: 0, averageCostUsd: null });
  });

  it('a wallet the index never saw trade', async () => {
    const r = await walletPnl(await world(), addr(0x999), 0);
    expect(r).toEqual({ swapsIndexed: 0, tradesInPeriod: 0, realizedUsd: 0, unrealizedUsd: 0, totalPnlUsd: 0, volumeUsd: 0, winRate: null, firstTradeAt: null, lastTradeAt: null, tokens: [] });
  });
});
