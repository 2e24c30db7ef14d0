import { describe, expect, it } from 'vitest';
import { addr, moved, T0, TKN, TKN_USDC, tokenUsdc, trade, units } from './testing/fixtures.js';
import { changeSpan, liquidityOf, qualifying, tokenRows, type RankedBy } from './rankings.js';
import { openingPrice } from './pricing.js';

const NEW = addr(0x2222);
const iso = (s: number) => new Date(s * 1000).toISOString();

/**
 * Head block 1000 at T0 + 2,000; a 1 h period starts at T0 − 1,600. TKN: $5 at block 1 (long
 * before), $6 from block 400 (inside), traded at block 450. NEW: listed at block 500 at $2, $3 at block 900.
 */
async function world() {
  const fx = tokenUsdc(10_000, 50_000);
  fx.at(1, T0 - 10_000);
  fx.sync(400, TKN_USDC, units(10_000, 18), units(60_000, 6));
  trade(fx, 450, addr(0x111), 'buy', 10, 61);
  fx.token(NEW, 'NEW', 18);
  fx.pool(addr(0x2223), NEW, fx.usdc, units(1_000, 18), units(2_000, 6), { block: 500 });
  fx.sync(900, addr(0x2223), units(1_000, 18), units(3_000, 6));
  const market = await fx.market(1_000);
  const checkpoint = (await market.reader.checkpoint())!;
  const fromBlock = (await market.reader.firstBlockAtOrAfter(checkpoint.timestamp - 3_600))!;
  return { market, checkpoint, fromBlock };
}

describe('market rows (top-tokens, topvolume)', () => {
  it('change from the last price before the period, or from a listing inside it, stating since when', async () => {
    const { market, checkpoint, fromBlock } = await world();
    const rows = await tokenRows(market, checkpoint, '1h', fromBlock);
    const tkn = rows.find((r) => r.token.toLowerCase() === TKN)!;
    const fresh = rows.find((r) => r.token.toLowerCase() === NEW)!;
    // TKN: $5 → $6 over the whole period.
    expect(tkn).toMatchObject({ symbol: 'TKN', priceUsd: 6, changePct: 20, changeSince: iso(T0 - 1_600), pricedBy: TKN_USDC });
    // Both sides now: 10,000 TKN at $6 + $60,000.
    expect(tkn.liquidityUsd).toBe(120_000);
    // One swap of 10 TKN at the $6 of its moment.
    expect(tkn).toMatchObject({ volumeUsd: 60, trades: 1 });
    // NEW: $2 at its listing (block 500, T0 + 1,000) → $3.
    expect(fresh).toMatchObject({ priceUsd: 3, changePct: 50, changeSince: iso(T0 + 1_000), volumeUsd: 0, trades: 0 });
    expect(changeSpan(tkn, checkpoint, '1h')).toBe('over the period');
    expect(changeSpan(fresh, checkpoint, '1h')).toBe(`since ${iso(T0 + 1_000)}`);
    // USDC is the numeraire, not a row.
    expect(rows).toHaveLength(2);
  });

  it('liquidity sums every pool whose both sides are priced', async () => {
    const { market } = await world();
    expect(liquidityOf(market, TKN)).toBe(120_000);
    expect(liquidityOf(market, addr(0x999))).toBe(0);
  });

  it('the opening is the price just before the window\'s first block: a Sync in that block is inside the window', async () => {
    const { market } = await world();
    // Block 400 ($6) is at T0 + 800; $5 before it.
    expect(await openingPrice(market, TKN, 401, T0 + 801)).toEqual({ usd: 6, since: T0 + 801 });
    expect(await openingPrice(market, TKN, 400, T0 + 800)).toEqual({ usd: 5, since: T0 + 800 });
    expect(await openingPrice(market, TKN, 400, T0 + 799)).toEqual({ usd: 5, since: T0 + 799 });
    expect(await openingPrice(market, addr(0x999), 0, T0)).toBeNull();
  });
});

describe('rankings list only what their names say', () => {
  /**
   * Over the 1 h period (from block 200): UP rose $5 -> $6 and traded; DRIFT rose $5 -> $6 with no
   * trade in the window; DOWN fell $5 -> $4 and traded; FLAT traded at an unchanged $5.
   */
  async function board() {
    const fx = tokenUsdc();
    fx.at(1, T0 - 10_000);
    const tokens = { UP: addr(0x3001), DRIFT: addr(0x3002), DOWN: addr(0x3003), FLAT: addr(0x3004) };
    const pools = Object.fromEntries(Object.entries(tokens).map(([symbol, token]) => [symbol, moved(fx, token, symbol, 5, { UP: 6, DRIFT: 6, DOWN: 4, FLAT: 5 }[symbol]!)]));
    // Block 50 (T0 + 100) is inside the window: DRIFT's move there is no trade, a bare Sync.
    for (const symbol of ['UP', 'DOWN', 'FLAT']) fx.swap(500, pools[symbol]! as `0x${string}`, { to: addr(0x111), a1In: units(10, 6), a0Out: units(2, 18) });
    const market = await fx.market(1_000);
    const checkpoint = (await market.reader.checkpoint())!;
    const fromBlock = (await market.reader.firstBlockAtOrAfter(checkpoint.timestamp - 3_600))!;
    const rows = await tokenRows(market, checkpoint, '1h', fromBlock);
    const symbols = (by: RankedBy) => qualifying(rows, by).map((r) => r.symbol);
    return { rows, symbols };
  }

  it('gainers rose and traded in the window; losers fell and traded; the volume ranking traded', async () => {
    const { rows, symbols } = await board();
    expect(rows.find((r) => r.symbol === 'DRIFT')).toMatchObject({ changePct: 20, trades: 0 });
    expect(symbols('gainers')).toEqual(['UP']);
    expect(symbols('losers')).toEqual(['DOWN']);
    expect(symbols('volume').sort()).toEqual(['DOWN', 'FLAT', 'UP']);
    expect(symbols('liquidity')).toHaveLength(rows.length);
  });
});
