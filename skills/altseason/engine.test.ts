/**
 * altseason/v2: the share of a chain's altcoins beating BTC, where what counts as an altcoin is
 * decided before the moves are looked at (found before: an index of 95 resting on launchpad micro
 * tokens at +849% and +731%). Every expected index is counted by hand from the fixture.
 */
import { describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import { ALTSEASON_MIN_LIQUIDITY_USD, ALTSEASON_MIN_TRADES, altcoinSeason, type AltseasonSources } from './engine.js';
import { addr, Fixture, moved, T0, units } from '../data/testing/fixtures.js';

/** Sources with a screen that fails `scams` and a fixed-yield factory that made `fixedIncome`. */
const sources = (scams: Address[] = [], fixedIncome: Address[] = []): AltseasonSources => ({
  failing: async (tokens) => new Map(tokens.filter((t) => scams.some((s) => s.toLowerCase() === t)).map((t) => [t, ['a sell reverts (honeypot)']])),
  fixedIncome: async () => new Set(fixedIncome.map((a) => a.toLowerCase())),
});

/** The period starts at T0 − 1,000: after block 1 (T0 − 10,000), before block 50 where prices move. */
async function season(build: (fx: Fixture) => void, src = sources()) {
  const fx = new Fixture();
  build(fx);
  const market = await fx.market(100);
  const fromBlock = (await market.reader.firstBlockAtOrAfter(T0 - 1_000))!;
  return altcoinSeason(market, fromBlock, T0 - 1_000, src);
}

const pairOf = (token: Address) => `0xffffffff${token.slice(10).toLowerCase()}` as Address;

/** `n` small buys of `token` on its USDC pool inside the window (blocks 60 on). */
function traded(fx: Fixture, token: Address, n = ALTSEASON_MIN_TRADES) {
  for (let i = 0; i < n; i++) fx.swap(60 + i, pairOf(token), { to: addr(0xb0b0 + i), a1In: units(10, 6), a0Out: units(1, 15) });
}

/** A liquid, traded token: moved() with the window's trades. */
function alt(fx: Fixture, token: Address, symbol: string, from: number, to: number, quoteUsd = 50_000, trades = ALTSEASON_MIN_TRADES) {
  moved(fx, token, symbol, from, to, quoteUsd);
  traded(fx, token, trades);
  return token;
}

/** A pump as a constant-product pool makes it: buyers add USDC, so the pool's dollars grow with the price (√ of the move). */
function pumped(fx: Fixture, token: Address, symbol: string, from: number, to: number, quoteUsd: number, opts: { block?: number } = {}) {
  fx.token(token, symbol, 18);
  fx.at(1, T0 - 10_000);
  const k = (quoteUsd / from) * quoteUsd;
  fx.pool(pairOf(token), token, fx.usdc, units(quoteUsd / from, 18), units(quoteUsd, 6), opts);
  const quoteNow = Math.sqrt(k * to);
  fx.sync(70, pairOf(token), units((quoteNow / to).toFixed(6), 18), units(quoteNow.toFixed(6), 6));
  traded(fx, token);
  return token;
}

const btc = (fx: Fixture) => alt(fx, addr(0xb7c), 'WBTC', 50_000, 55_000); // +10%

describe('altseason/v2', () => {
  it('the share of altcoins beating BTC; a stablecoin and a pool under the floor are left out and counted', async () => {
    const r = await season((fx) => {
      btc(fx);
      alt(fx, addr(0xa1), 'ONE', 5, 6); // +20%
      alt(fx, addr(0xa2), 'TWO', 1, 1.05); // +5%
      alt(fx, addr(0xa3), 'THREE', 2, 3); // +50%
      alt(fx, addr(0xa4), 'FOUR', 10, 10); // 0%
      alt(fx, addr(0xa5), 'SMALL', 1, 2, 20_000); // +100% but $40,000 of liquidity
      alt(fx, addr(0xa6), 'USDT', 1, 1.2); // a stablecoin
    });
    expect(r).toMatchObject({ available: true, index: 50, season: 'neither', tokensCompared: 4, benchmark: { symbol: 'WBTC', changePct: 10 } });
    expect(r.available && r.tokens.map((t) => [t.symbol, t.changePct, t.beatBenchmark])).toEqual([['THREE', 50, true], ['ONE', 20, true], ['TWO', 5, false], ['FOUR', 0, false]]);
    expect(r.excluded).toMatchObject({ belowLiquidity: 1, launchpad: 0, thinlyTraded: 0, failedScreen: [] });
  });

  it('75 and above is altcoin season; 25 and below bitcoin season', async () => {
    const alts = (fx: Fixture, changes: number[]) => changes.forEach((c, i) => alt(fx, addr(0xa1 + i), `ALT${i}`, 1, 1 + c / 100));
    expect(await season((fx) => { btc(fx); alts(fx, [20, 30, 40, 5]); })).toMatchObject({ index: 75, season: 'altcoin season' });
    expect(await season((fx) => { btc(fx); alts(fx, [20, 0, 1, 5]); })).toMatchObject({ index: 25, season: 'bitcoin season' });
  });

  it('without BTC the wrapped native is the benchmark', async () => {
    const r = await season((fx) => {
      moved(fx, fx.weth, 'WETH', 2_000, 2_100, 200_000); // +5%
      alt(fx, addr(0xa1), 'ONE', 5, 6);
    });
    expect(r).toMatchObject({ index: 100, benchmark: { symbol: 'WETH', changePct: 5 } });
  });

  it('no altcoin, or no benchmark price: unavailable with the reason', async () => {
    expect(await season(btc)).toMatchObject({ available: false, reason: expect.stringContaining('no token counts as an altcoin') });
    expect(await season(() => {})).toMatchObject({ available: false, reason: expect.stringContaining('has no price over the period') });
  });

  it('the issue\'s case: launchpad and micro tokens, listings inside the window, thin trading, scams and bonds do not vote', async () => {
    const LAUNCHED = addr(0xc1), MICRO = addr(0xc2), LATE = addr(0xc3), THIN = addr(0xc4), SCAM = addr(0xc5), PT = addr(0xc6);
    const r = await season((fx) => {
      btc(fx);
      alt(fx, addr(0xa1), 'ONE', 5, 6); // +20%: beats BTC
      alt(fx, addr(0xa2), 'TWO', 1, 1.05); // +5%: does not
      // +849% on a token the launchpad created (its TokenLaunched event), with $60k of USDC in its pool before the window.
      pumped(fx, LAUNCHED, 'CRV7', 1, 9.49, 60_000);
      fx.launched(1, addr(0x1a0), LAUNCHED, addr(0xc0ffee), 'CRV7');
      // +731% on $15k of USDC at the opening ($30k of liquidity): the pump grows it past the floor now.
      pumped(fx, MICRO, 'MICRO', 1, 8.31, 15_000);
      // +300% on a pool created inside the window.
      pumped(fx, LATE, 'LATE', 1, 4, 60_000, { block: 55 });
      // +200% on two trades.
      alt(fx, THIN, 'THIN', 1, 3, 50_000, 2);
      // +500%, fails the screen; a principal token, flat.
      alt(fx, SCAM, 'SCAM', 1, 6);
      alt(fx, PT, 'PT-syUSDC', 0.97, 0.97);
    }, sources([SCAM], [PT]));
    // Only ONE and TWO count as altcoins: one of two beats BTC.
    expect(r).toMatchObject({ available: true, index: 50, season: 'neither', tokensCompared: 2 });
    expect(r.available && r.tokens.map((t) => t.symbol)).toEqual(['ONE', 'TWO']);
    expect(r.excluded).toMatchObject({ launchpad: 1, belowLiquidity: 1, listedInWindow: 1, thinlyTraded: 1, fixedIncome: 1, failedScreen: [{ token: SCAM, symbol: 'SCAM', risks: ['a sell reverts (honeypot)'] }] });
  });

  it('the floor is read at the opening: $25,000 of USDC then ($50,000 of liquidity) counts; a hair under does not', async () => {
    const at = (quoteUsd: number) => season((fx) => { btc(fx); pumped(fx, addr(0xd1), 'EDGE', 1, 2, quoteUsd); alt(fx, addr(0xa1), 'ONE', 5, 6); });
    expect(await at(ALTSEASON_MIN_LIQUIDITY_USD / 2)).toMatchObject({ tokensCompared: 2 });
    expect(await at(ALTSEASON_MIN_LIQUIDITY_USD / 2 - 1)).toMatchObject({ tokensCompared: 1, excluded: { belowLiquidity: 1 } });
  });

  it('trading at the floor counts; one trade fewer does not', async () => {
    const at = (trades: number) => season((fx) => { btc(fx); alt(fx, addr(0xd1), 'EDGE', 1, 2, 50_000, trades); alt(fx, addr(0xa1), 'ONE', 5, 6); });
    expect(await at(ALTSEASON_MIN_TRADES)).toMatchObject({ tokensCompared: 2 });
    expect(await at(ALTSEASON_MIN_TRADES - 1)).toMatchObject({ tokensCompared: 1, excluded: { thinlyTraded: 1 } });
  });
});
