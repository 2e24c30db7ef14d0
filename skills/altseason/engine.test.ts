import { describe, expect, it } from 'vitest';
import { altcoinSeason } from './engine.js';
import { addr, Fixture, moved, T0 } from '../data/testing/fixtures.js';

/** The period starts at T0 − 1,000: after block 1 (T0 − 10,000), before block 50 where prices move. */
async function season(build: (fx: Fixture) => void) {
  const fx = new Fixture();
  build(fx);
  const market = await fx.market(100);
  const fromBlock = (await market.reader.firstBlockAtOrAfter(T0 - 1_000))!;
  return altcoinSeason(market, fromBlock, T0 - 1_000);
}

const btc = (fx: Fixture) => moved(fx, addr(0xb7c), 'WBTC', 50_000, 55_000); // +10%

describe('altseason/v1', () => {
  it('the share of liquid altcoins beating BTC', async () => {
    const r = await season((fx) => {
      btc(fx);
      moved(fx, addr(0xa1), 'ONE', 5, 6); // +20%
      moved(fx, addr(0xa2), 'TWO', 1, 1.05); // +5%
      moved(fx, addr(0xa3), 'THREE', 2, 3); // +50%
      moved(fx, addr(0xa4), 'FOUR', 10, 10); // 0%
      moved(fx, addr(0xa5), 'SMALL', 1, 2, 20_000); // +100% but $40,000 of liquidity
      moved(fx, addr(0xa6), 'USDT', 1, 1.2); // a stablecoin
    });
    expect(r).toMatchObject({ available: true, index: 50, season: 'neither', tokensCompared: 4, benchmark: { symbol: 'WBTC', changePct: 10 } });
    expect(r.available && r.tokens.map((t) => [t.symbol, t.changePct, t.beatBenchmark])).toEqual([['THREE', 50, true], ['ONE', 20, true], ['TWO', 5, false], ['FOUR', 0, false]]);
  });

  it('75 and above is altcoin season; 25 and below bitcoin season', async () => {
    const alts = (fx: Fixture, changes: number[]) => changes.forEach((c, i) => moved(fx, addr(0xa1 + i), `ALT${i}`, 1, 1 + c / 100));
    expect(await season((fx) => { btc(fx); alts(fx, [20, 30, 40, 5]); })).toMatchObject({ index: 75, season: 'altcoin season' });
    expect(await season((fx) => { btc(fx); alts(fx, [20, 0, 1, 5]); })).toMatchObject({ index: 25, season: 'bitcoin season' });
  });

  it('without BTC the wrapped native is the benchmark', async () => {
    const r = await season((fx) => {
      moved(fx, fx.weth, 'WETH', 2_000, 2_100, 200_000); // +5%
      moved(fx, addr(0xa1), 'ONE', 5, 6);
    });
    expect(r).toMatchObject({ index: 100, benchmark: { symbol: 'WETH', changePct: 5 } });
  });

  it('no liquid altcoin, or no benchmark price: unavailable with the reason', async () => {
    expect(await season(btc)).toEqual({ available: false, reason: 'no liquid altcoin has a price over the period' });
    expect(await season(() => {})).toMatchObject({ available: false, reason: expect.stringContaining('has no price over the period') });
  });
});
