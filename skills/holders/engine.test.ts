import { describe, expect, it } from 'vitest';
import { SibylError } from '../core/errors.js';
import { addr, Fixture, units, withNative } from '../data/testing/fixtures.js';
import { holderConcentration } from './engine.js';

const TKN = addr(0x70c);
const POOL = addr(0x9001);
const DEAD = '0x000000000000000000000000000000000000dead';

/** TKN (18 decimals) with one WETH pool, answering `supply` whole tokens as its totalSupply. */
async function tokenMarket(supply: number) {
  const fx = withNative();
  fx.token(TKN, 'TKN', 18);
  fx.pool(POOL, TKN, fx.weth, units(1_000, 18), units(10, 18));
  fx.answer(TKN, 'totalSupply', () => units(supply, 18));
  return fx.market();
}

const raw = (n: number) => units(n, 18).toString();

describe('holders/v1', () => {
  it('shares, Gini and Nakamoto over 4 wallets; pool, burn address and the token itself excluded', async () => {
    const market = await tokenMarket(10 + 20 + 30 + 40 + 100 + 50 + 5);
    const r = await holderConcentration(market, {
      [addr(1)]: raw(10), [addr(2)]: raw(20), [addr(3)]: raw(30), [addr(4)]: raw(40),
      [POOL]: raw(100), [DEAD]: raw(50), [TKN]: raw(5), [addr(5)]: '0',
    }, TKN);
    // Circulating 100: top holder 40 → 40%; all four → 100%.
    expect(r.circulating).toBe('100');
    expect(r.holderCount).toBe(4);
    expect(r.top1Pct).toBe(40);
    expect(r.top10Pct).toBe(100);
    // Gini = Σ|xi-xj| over ordered pairs / (2 n² mean) = 2·(10+20+30+10+20+10) / (2·16·25) = 200/800.
    expect(r.gini).toBe(0.25);
    // 40 is not more than half of 100; 40 + 30 = 70 is: two holders.
    expect(r.nakamotoCoefficient).toBe(2);
    expect(r.topHolders.map((h) => h.address)).toEqual([addr(4), addr(3), addr(2), addr(1)]);
    expect(Object.fromEntries(r.excluded.map((e) => [e.address, e.reason]))).toEqual({ [POOL]: 'liquidity_pool', [DEAD]: 'burn_address', [TKN]: 'token_contract' });
  });

  it('equal holders: Gini 0, and exactly half is not a majority', async () => {
    const market = await tokenMarket(100);
    const r = await holderConcentration(market, { [addr(1)]: raw(25), [addr(2)]: raw(25), [addr(3)]: raw(25), [addr(4)]: raw(25) }, TKN);
    expect(r.gini).toBe(0);
    expect(r.top1Pct).toBe(25);
    // 25, 50 (= half, not more), 75: three holders.
    expect(r.nakamotoCoefficient).toBe(3);
  });

  it('one holder owns everything', async () => {
    const market = await tokenMarket(7);
    const r = await holderConcentration(market, { [addr(9)]: raw(7) }, TKN);
    expect(r).toMatchObject({ holderCount: 1, top1Pct: 100, top10Pct: 100, gini: 0, nakamotoCoefficient: 1 });
  });

  it('no holders at all: zeros, not NaN', async () => {
    const market = await tokenMarket(0);
    const r = await holderConcentration(market, {}, TKN);
    expect(r).toMatchObject({ holderCount: 0, top1Pct: 0, top10Pct: 0, gini: 0, nakamotoCoefficient: 0, circulating: '0' });
  });

  it('refuses when the replayed balances do not add up to totalSupply', async () => {
    const market = await tokenMarket(1_000);
    const err = await holderConcentration(market, { [addr(1)]: raw(10) }, TKN).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SibylError);
    expect((err as SibylError).code).toBe('upstream_unavailable');
  });

  it('reads the balances the index replayed from Transfers', async () => {
    const fx = new Fixture();
    fx.token(TKN, 'TKN', 18);
    fx.transfer(2, TKN, '0x0000000000000000000000000000000000000000', addr(1), units(90, 18));
    fx.transfer(3, TKN, addr(1), addr(2), units(30, 18));
    fx.answer(TKN, 'totalSupply', () => units(90, 18));
    const market = await fx.market();
    const r = await holderConcentration(market, await market.reader.balances(TKN), TKN);
    expect(r.topHolders).toEqual([{ address: addr(1), balance: '60', sharePct: 66.6666 }, { address: addr(2), balance: '30', sharePct: 33.3333 }]);
  });
});
