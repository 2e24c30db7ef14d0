import { describe, expect, it } from 'vitest';
import { SibylError } from '../core/errors.js';
import { addr, Fixture, units, withNative } from '../data/testing/fixtures.js';
import { holderConcentration } from './engine.js';
import { entityBook } from '../data/entities.js';
import { whaleActivity, whaleWallets } from '../whales/flows.js';

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
    expect(r.topHolders).toEqual([{ address: addr(1), balance: '60', sharePct: 66.6666, entity: null }, { address: addr(2), balance: '30', sharePct: 33.3333, entity: null }]);
  });

  // holder-concentration reported the genesis treasury as the largest holder (63.5% of WBTC) as if it
  // were a wallet, while whale-tracking left it out as a treasury. One classification (entities/v1)
  // now serves both: the treasury is listed, marked, and the figures are given again without it.
  it('marks the treasury and other entities as whale tracking classifies them, and gives the figures without them', async () => {
    const fx = withNative(); // WETH $2,000
    fx.token(TKN, 'TKN', 18);
    fx.pool(POOL, TKN, fx.weth, units(1_000, 18), units(10, 18)); // TKN $20
    fx.answer(TKN, 'totalSupply', () => units(100_000, 18));
    const [DEPLOYER, TREASURY, VAULT] = [addr(0xde9), addr(0x7ea), addr(0x4a17)];
    const [W1, W2, W3] = [addr(1), addr(2), addr(3)];
    fx.code.set(VAULT, '0x6080604052');
    fx.transfer(2, TKN, '0x0000000000000000000000000000000000000000', TREASURY, units(100_000, 18), fx.tx(DEPLOYER));
    fx.transfer(3, TKN, TREASURY, W1, units(30_000, 18));
    fx.transfer(4, TKN, TREASURY, W2, units(5_000, 18));
    fx.transfer(5, TKN, TREASURY, W3, units(1_500, 18));
    fx.transfer(6, TKN, W1, W2, units(6_000, 18)); // $120,000
    fx.transfer(7, TKN, W1, W2, units(6_000, 18));
    fx.transfer(8, TKN, W3, VAULT, units(500, 18)); // a deposit: W3 only ever deals with its funder and a protocol
    const market = await fx.market();
    const r = await holderConcentration(market, await market.reader.balances(TKN), TKN);
    // Every holder (pools, burn and token aside), as before: the treasury holds 63,500 of 100,000.
    expect(r).toMatchObject({ holderCount: 5, top1Pct: 63.5, nakamotoCoefficient: 1 });
    expect(r.topHolders.map((h) => [h.address, h.entity])).toEqual([[TREASURY, 'treasury'], [W1, null], [W2, null], [W3, 'protocol-actor'], [VAULT, 'protocol']]);
    expect(r.entities.map((h) => [h.address, h.entity, h.role, h.sharePct])).toEqual([[TREASURY, 'treasury', 'first-mint-holder', 63.5], [W3, 'protocol-actor', 'protocol-user', 1], [VAULT, 'protocol', 'contract', 0.5]]);
    expect(r.entityCount).toBe(3);
    // Without entities: W1 18,000 and W2 17,000 of 35,000; Gini = 2·1,000 / (2·2²·17,500).
    expect(r.withoutEntities).toEqual({
      circulating: '35000', holderCount: 2, top1Pct: 51.4285, top10Pct: 100, gini: 0.0143, nakamotoCoefficient: 1,
      topHolders: [{ address: W1, balance: '18000', sharePct: 51.4285 }, { address: W2, balance: '17000', sharePct: 48.5714 }],
    });
    // Whale tracking reads the same book: the treasury handed out $600,000 and $100,000 in two blocks and is no whale; W1 is.
    const events = await whaleActivity(market, 0);
    expect(events.filter((e) => e.wallet === TREASURY).length).toBe(2);
    const book = await entityBook(market);
    expect(whaleWallets(events, book)).toEqual(new Set([W1]));
    for (const h of r.topHolders) expect(book.kind(h.address)).toBe(h.entity);
  });
});
