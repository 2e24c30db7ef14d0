import { describe, expect, it } from 'vitest';
import { addr, T0, TKN, TKN_USDC, tokenUsdc, trade, units } from './testing/fixtures.js';
import { changeSpan, liquidityOf, openingPrice, tokenRows } from './rankings.js';

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

  it('the opening is the last price at or before the start, read from a history that begins earlier', async () => {
    const { market } = await world();
    // Block 400 ($6) is at T0 + 800; $5 before it.
    expect(await openingPrice(market, TKN, 0, T0 + 900)).toEqual({ usd: 6, since: T0 + 900 });
    expect(await openingPrice(market, TKN, 0, T0 + 799)).toEqual({ usd: 5, since: T0 + 799 });
    expect(await openingPrice(market, addr(0x999), 0, T0)).toBeNull();
  });
});
