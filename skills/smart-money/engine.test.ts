import { describe, expect, it } from 'vitest';
import { allExecutions } from '../data/executions.js';
import { addr, Fixture, TKN, tokenUsdc, trade, units, withNative } from '../data/testing/fixtures.js';
import { isSmartMoney, walletRecords } from './engine.js';

const [SMART, LOSER, FEW, SAME_BLOCK] = [addr(0x5a), addr(0x10), addr(0xfe), addr(0x5b)];

/** Round trips of 100 TKN: bought at `buy`, sold at `sell`, each leg in its own block from `block` on (or both in one). */
function roundTrips(fx: Fixture, wallet: `0x${string}`, trips: [buy: number, sell: number][], block: number, sameBlock = false) {
  for (const [buy, sell] of trips) {
    trade(fx, block, wallet, 'buy', 100, 100 * buy);
    trade(fx, sameBlock ? block : block + 1, wallet, 'sell', 100, 100 * sell);
    block += 2;
  }
}

async function world() {
  const fx = tokenUsdc();
  // +200, +300, +100, −100: 4 closed, 3 won (75%), $500 realized: smart money, just.
  roundTrips(fx, SMART, [[1, 3], [1, 4], [2, 3], [3, 2]], 10);
  // +200, −100, +300, −150: 4 closed, 50% won.
  roundTrips(fx, LOSER, [[1, 3], [3, 2], [1, 4], [4, 2.5]], 10);
  // Three big wins are not a record.
  roundTrips(fx, FEW, [[1, 10], [1, 10], [1, 10]], 10);
  // The SMART record again, but each buy and sell in one block (arbitrage, sandwich legs), and one real trade.
  roundTrips(fx, SAME_BLOCK, [[1, 3], [1, 4], [2, 3], [3, 2]], 10, true);
  roundTrips(fx, SAME_BLOCK, [[1, 9]], 30);
  return fx.market();
}

describe('smart-money/v2', () => {
  it('executions: the recipient is the wallet, priced at quote paid or received per token', async () => {
    const fx = tokenUsdc();
    trade(fx, 10, SMART, 'buy', 100, 250);
    trade(fx, 11, SMART, 'sell', 40, 120);
    const ex = await allExecutions(await fx.market());
    expect(ex.map(({ wallet, token, bought, sold, priceUsd, roundTripBlock }) => ({ wallet, token, bought, sold, priceUsd, roundTripBlock }))).toEqual([
      { wallet: SMART, token: TKN, bought: 100, sold: 0, priceUsd: 2.5, roundTripBlock: false },
      { wallet: SMART, token: TKN, bought: 0, sold: 40, priceUsd: 3, roundTripBlock: false },
    ]);
  });

  it('executions quoted in WETH are valued at WETH\'s price at that moment, not now', async () => {
    const fx = withNative(2_000);
    fx.token(TKN, 'TKN', 18);
    fx.pool(addr(0x9006), TKN, fx.weth, units(100_000, 18), units(10, 18));
    fx.swap(10, addr(0x9006), { to: SMART, a1In: units(0.5, 18), a0Out: units(1_000, 18) }); // 0.0005 WETH each at $2,000
    fx.sync(20, addr(0xe0), units(100, 18), units(300_000, 6)); // WETH $3,000 from block 20
    fx.swap(30, addr(0x9006), { to: SMART, a0In: units(1_000, 18), a1Out: units(0.5, 18) }); // the same WETH, now $3,000
    const ex = await allExecutions(await fx.market());
    expect(ex.map((e) => e.priceUsd)).toEqual([1, 1.5]);
  });

  it('>= 4 closed trades, >= 60% won and >= $500 realized', async () => {
    const records = await walletRecords(await world(), 0);
    const smart = records.get(SMART)!;
    expect(smart).toMatchObject({ closedTrades: 4, wins: 3, winRate: 0.75, realizedUsd: 500 });
    expect(isSmartMoney(smart)).toBe(true);
    expect(records.get(LOSER)).toMatchObject({ closedTrades: 4, wins: 2, winRate: 0.5, realizedUsd: 250 });
    expect(isSmartMoney(records.get(LOSER)!)).toBe(false);
    expect(records.get(FEW)).toMatchObject({ closedTrades: 3, realizedUsd: 2_700 });
    expect(isSmartMoney(records.get(FEW)!)).toBe(false);
  });

  it('a wallet\'s swaps in a block where it both buys and sells the token are left out', async () => {
    const records = await walletRecords(await world(), 0);
    // Only the trade across blocks 30-31 counts: 1 closed, +$800.
    expect(records.get(SAME_BLOCK)).toMatchObject({ closedTrades: 1, wins: 1, realizedUsd: 800 });
    expect(isSmartMoney(records.get(SAME_BLOCK)!)).toBe(false);
  });

  it('round-trip legs that start from inventory do not close the position held before', async () => {
    const fx = tokenUsdc();
    const holder = addr(0x1e9);
    trade(fx, 10, holder, 'buy', 100, 100);
    // Block 20: sells its 100 at $5 and buys 100 back at $4.90 (a sandwich's legs from inventory).
    trade(fx, 20, holder, 'sell', 100, 500);
    trade(fx, 20, holder, 'buy', 100, 490);
    const records = await walletRecords(await fx.market(), 0);
    expect(records.get(holder)).toMatchObject({ closedTrades: 0, wins: 0, realizedUsd: 0 });
  });

  it('the period bounds what a wallet bought and sold lately, not its record', async () => {
    // SMART's last round trip: bought 100 at $3 in block 16, sold at $2 in block 17.
    const records = await walletRecords(await world(), 16);
    expect(records.get(SMART)!.closedTrades).toBe(4);
    expect(records.get(SMART)!.recent.get(TKN)).toEqual({ boughtUsd: 300, soldUsd: 200 });
  });

  it('round trips of the native on a USDC/WETH pair (USDC sorting first) are closed trades of WETH, not sells of USDC', async () => {
    // The pair as it sorts where USDC's address is the lower: USDC is token0.
    const fx = new Fixture();
    const pair = fx.pool(addr(0xe1), fx.usdc, fx.weth, units(2_000_000, 6), units(1_000, 18));
    // Four round trips of 10 WETH, each leg in its own block: +$500, +$1,000, +$500, −$500.
    let block = 10;
    for (const [buy, sell] of [[2_000, 2_050], [2_000, 2_100], [2_100, 2_150], [2_150, 2_100]] as const) {
      fx.swap(block, pair, { to: SMART, a0In: units(10 * buy, 6), a1Out: units(10, 18) });
      fx.swap(block + 1, pair, { to: SMART, a1In: units(10, 18), a0Out: units(10 * sell, 6) });
      block += 2;
    }
    const market = await fx.market();
    expect(new Set((await allExecutions(market)).map((e) => e.token))).toEqual(new Set([fx.weth]));
    const record = (await walletRecords(market, 0)).get(SMART)!;
    expect(record).toMatchObject({ closedTrades: 4, wins: 3, realizedUsd: 1_500 });
    expect(isSmartMoney(record)).toBe(true);
  });

  it('an index without swaps has no records', async () => {
    expect((await walletRecords(await tokenUsdc().market(), 0)).size).toBe(0);
  });
});
