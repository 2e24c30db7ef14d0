import { describe, expect, it } from 'vitest';
import { SibylError } from '../core/errors.js';
import { addr, Fixture, TKN, units, withNative } from './testing/fixtures.js';
import { resolveToken } from './resolve.js';
import { valueAt } from './market.js';
import { openingPrice, priceAtBlock } from './pricing.js';
import { rowScore } from '../../indexer/rows.js';

const [TKN_WETH, TKN_USDC, DUST, DUST_USDC, VIRT, VIRT_WETH, AGENT, AGENT_VIRT] = [addr(0x71), addr(0x72), addr(0xd5), addr(0xd6), addr(0x71a), addr(0x71b), addr(0xa9e), addr(0xa9f)];

/** WETH $2,000. TKN: $5 on a $5,000-deep USDC pool, $10 on a $20,000-deep WETH pool. DUST only against $999. AGENT only against VIRT ($2). */
async function world(fx: Fixture = withNative(2_000)) {
  fx.token(TKN, 'TKN', 18);
  fx.token(DUST, 'DUST', 18);
  fx.token(VIRT, 'VIRTUAL', 18);
  fx.token(AGENT, 'AGENT', 18);
  fx.pool(TKN_USDC, TKN, fx.usdc, units(1_000, 18), units(5_000, 6));
  fx.pool(TKN_WETH, TKN, fx.weth, units(2_000, 18), units(10, 18));
  fx.pool(DUST_USDC, DUST, fx.usdc, units(1, 18), units(999, 6));
  fx.pool(VIRT_WETH, VIRT, fx.weth, units(10_000, 18), units(10, 18));
  fx.pool(AGENT_VIRT, AGENT, VIRT, units(1_000, 18), units(5_000, 18));
  return fx;
}

describe('market/v1 prices', () => {
  it('from the deepest pool with a priceable quote, not the first one found', async () => {
    const market = await (await world()).market();
    expect(market.priceNow(market.chain.spec.wrappedNative)?.usd).toBe(2_000);
    const tkn = market.priceNow(TKN)!;
    expect(tkn.usd).toBeCloseTo(10, 12);
    expect(tkn.pool?.pair).toBe(TKN_WETH);
    // Both sides of TKN/WETH: 2,000 TKN at $10 + 10 WETH at $2,000.
    expect(market.liquidityUsd(tkn.pool!)).toBeCloseTo(40_000, 6);
  });

  it('a pool with less than $1,000 on its quote side sets no price', async () => {
    const market = await (await world()).market();
    expect(market.priceNow(DUST)).toBeNull();
  });

  it('one hop: AGENT in VIRTUAL, VIRTUAL in WETH', async () => {
    const market = await (await world()).market();
    // VIRTUAL = 10 WETH / 10,000 = 0.001 WETH = $2; AGENT = 5,000 VIRTUAL / 1,000 = 5 VIRTUAL = $10.
    expect(market.priceNow(VIRT)?.usd).toBeCloseTo(2, 12);
    expect(market.priceNow(AGENT)?.usd).toBeCloseTo(10, 12);
  });

  it('history values the pool\'s rate with the quote\'s price at each moment: it moves when either does', async () => {
    const fx = await world();
    fx.sync(10, addr(0xe0), units(100, 18), units(300_000, 6)); // WETH $3,000 from block 10
    fx.sync(20, TKN_WETH, units(2_000, 18), units(20, 18)); // TKN 0.01 WETH
    const market = await fx.market();
    const line = await market.timeline(TKN, 0);
    // Block 1: $5 on TKN/USDC, synced first, until TKN/WETH's Sync makes it the deeper pool; then
    // 0.005 WETH at $2,000; the same 0.005 WETH at $3,000; 0.01 WETH at $3,000.
    expect(line.map((p) => p.usd)).toEqual([5, 10, 15, 30].map((v) => expect.closeTo(v, 9)));
    expect(line.map((p) => p.pool)).toEqual([TKN_USDC, TKN_WETH, TKN_WETH, TKN_WETH]);
  });

  it('one price per token per block: the price now is the history\'s value at the head, when the quote moved after the pool last traded', async () => {
    const fx = await world();
    fx.sync(20, TKN_WETH, units(2_000, 18), units(20, 18)); // TKN 0.01 WETH, at $2,000: $20
    fx.sync(30, addr(0xe0), units(100, 18), units(300_000, 6)); // then WETH $3,000: TKN $30
    const market = await fx.market(40);
    const head = rowScore(40, 0);
    for (const from of [0, 25, 35]) expect(valueAt(await market.timeline(TKN, from), head), `history from block ${from}`).toBe(market.priceNow(TKN)!.usd);
    expect(market.priceNow(TKN)!.usd).toBeCloseTo(30, 9);
    expect((await priceAtBlock(market, TKN, 25))!.usd).toBeCloseTo(20, 9);
    expect((await priceAtBlock(market, TKN, 30))!).toMatchObject({ usd: expect.closeTo(30, 9), block: 30, pool: TKN_WETH, quote: fx.weth });
  });

  it('a past price comes from the pool that priced the token then: a deeper pool created later did not', async () => {
    const fx = withNative(2_000);
    fx.token(TKN, 'TKN', 18);
    fx.pool(TKN_USDC, TKN, fx.usdc, units(1_000, 18), units(5_000, 6)); // $5, $5,000 deep, from block 1
    fx.sync(10, TKN_USDC, units(1_000, 18), units(6_000, 6)); // $6 from block 10
    fx.pool(TKN_WETH, TKN, fx.weth, units(2_000, 18), units(10, 18), { block: 20 }); // $10, $20,000 deep, from block 20
    const market = await fx.market(40);
    expect(await priceAtBlock(market, TKN, 15)).toEqual({ usd: 6, block: 15, pool: TKN_USDC, quote: fx.usdc });
    expect(await priceAtBlock(market, TKN, 25)).toEqual({ usd: expect.closeTo(10, 9), block: 25, pool: TKN_WETH, quote: fx.weth });
    expect(await priceAtBlock(market, TKN)).toMatchObject({ usd: expect.closeTo(10, 9), block: 40, pool: TKN_WETH });
    // A window opening at block 20 opens at the USDC pool's last price before it.
    expect(await openingPrice(market, TKN, 20, fx.ts(20))).toEqual({ usd: 6, since: fx.ts(20) });
  });

  it('once no pool qualifies any more the line says so: no price is carried past it', async () => {
    const fx = withNative(2_000);
    fx.token(TKN, 'TKN', 18);
    fx.pool(TKN_USDC, TKN, fx.usdc, units(1_000, 18), units(5_000, 6));
    fx.sync(30, TKN_USDC, units(100_000, 18), units(50, 6)); // drained: $50 on the quote side
    const market = await fx.market(40);
    expect(market.priceNow(TKN)).toBeNull();
    expect(await priceAtBlock(market, TKN, 20)).toMatchObject({ usd: 5, pool: TKN_USDC });
    expect(await priceAtBlock(market, TKN, 35)).toBeNull();
    expect(valueAt(await market.timeline(TKN, 0), rowScore(40, 0))).toBeNull();
  });

  it('the opening of a window is the price just before it, also when the pool last traded long before its quote did', async () => {
    const fx = await world();
    fx.sync(10, addr(0xe0), units(100, 18), units(300_000, 6)); // WETH $3,000 from block 10; TKN's pool last synced at block 1
    fx.sync(60, addr(0xe0), units(100, 18), units(400_000, 6)); // WETH $4,000 from block 60
    const market = await fx.market(80);
    // Before block 50: 0.005 WETH at $3,000.
    expect(await openingPrice(market, TKN, 50, fx.ts(50))).toEqual({ usd: expect.closeTo(15, 9), since: fx.ts(50) });
    expect(market.priceNow(TKN)!.usd).toBeCloseTo(20, 9);
  });

  it('resolves symbols by the deepest candidate, canonical aliases included', async () => {
    const fx = await world();
    const lookalike = fx.token(addr(0x7a), 'TKN', 18);
    fx.pool(addr(0x7b), lookalike, fx.usdc, units(10, 18), units(1_500, 6));
    const market = await fx.market();
    expect(resolveToken(market, 'tkn')).toBe(TKN);
    expect(resolveToken(market, 'ETH')).toBe(fx.weth);
    expect(resolveToken(market, TKN.toUpperCase().replace('0X', '0x'))).toBe(TKN);
    expect(() => resolveToken(market, 'NOPE')).toThrow(SibylError);
    expect(() => resolveToken(market, addr(0x12345))).toThrow(/no indexed pool/);
  });

  it('an empty index prices nothing but the numeraire', async () => {
    const market = await new Fixture().market();
    expect(market.pools).toEqual([]);
    expect(market.priceNow(market.chain.spec.usdc)?.usd).toBe(1);
    expect(market.priceNow(TKN)).toBeNull();
  });
});
