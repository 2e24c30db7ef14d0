/**
 * The tokenized equities' plan (world/stocks/plan.ts), without a chain: who lists what where, the
 * stock chain's new listings, the multiplier each split and dividend calls for and the fair value it
 * keeps continuous, the feeds' posting rule, and the traders' book.
 */
import { describe, expect, it } from 'vitest';
import { STOCK_CHAINS, STOCK_FEED_CHAIN } from '../../chain/stocks.js';
import { inSession, lastClose } from '../../lib/market-hours.js';
import { Book } from '../../world/stocks/book.js';
import {
  FEED_DEVIATION, IMPOSTOR, ISSUERS, ONE, actionFactor, fairValueUsd, feedAnswer, feedDue, laterListings, multiplierEvents, trueMultiplier, weekendPremium,
} from '../../world/stocks/plan.js';
import { StockPaths, UNDERLYINGS } from '../../world/stocks/underlyings.js';

const DAY = 86_400;
/** A Wednesday, 09:17:41 UTC. */
const ORIGIN = Date.UTC(2026, 0, 7, 9, 17, 41) / 1000;

/** A seed whose split falls in the first weeks, and the split. */
function splitOf(paths: StockPaths) {
  const split = paths.events(ORIGIN, ORIGIN + 60 * DAY).find((e) => e.kind === 'split');
  if (split?.kind !== 'split') throw new Error('no split');
  return split;
}

describe('the issuers', () => {
  it('list on the stock chains only, not every underlying on every chain, one honest multiplier issuer on the stock chain', () => {
    const onFeedChain = ISSUERS.filter((i) => i.listings[STOCK_FEED_CHAIN]?.length);
    expect(onFeedChain.map((i) => [i.key, i.status])).toEqual([['hood', 'honest']]);
    for (const issuer of ISSUERS) {
      for (const [chain, tickers] of Object.entries(issuer.listings)) {
        expect(STOCK_CHAINS).toContain(chain);
        for (const t of tickers!) expect(UNDERLYINGS[t], t).toBeDefined();
        expect(tickers!.length).toBeLessThan(Object.keys(UNDERLYINGS).length);
      }
    }
    expect(new Set(ISSUERS.map((i) => i.status))).toEqual(new Set(['honest', 'under-reserved', 'lagging-multiplier']));
    for (const chain of ['ethereum', 'base', 'arbitrum'] as const) expect(ISSUERS.filter((i) => i.listings[chain]?.length).length, chain).toBeGreaterThanOrEqual(2);
    // Every symbol is its issuer's style, and the impostor copies one that is genuine on another chain.
    expect(ISSUERS.map((i) => i.symbol('AAPL'))).toEqual(['AAPL', 'AAPLon', 'AAPLx', 'mAAPL']);
    const copied = ISSUERS.find((i) => i.key === IMPOSTOR.copies)!;
    const genuineOn = Object.entries(copied.listings).filter(([, t]) => t!.includes(IMPOSTOR.underlying)).map(([c]) => c);
    expect(genuineOn.length).toBeGreaterThan(0);
    expect(genuineOn).not.toContain(IMPOSTOR.chain);
  });

  it('list new names on the stock chain every few days, the first within any three-day world, each in session with its hype', () => {
    // Origins every 5 hours through a week, so every weekday and weekend hour is tried.
    for (let k = 0; k < 40; k++) {
      const origin = ORIGIN + k * 5 * 3_600 + 17;
      const seed = `listing-${k}`;
      const listings = laterListings(seed, origin);
      expect(listings.length).toBeGreaterThan(3);
      expect(listings[0]!.at - origin, seed).toBeLessThan(3 * DAY - 2 * 3_600);
      expect(listings[0]!.at - origin, seed).toBeGreaterThan(0.3 * DAY);
      for (const [i, l] of listings.entries()) {
        expect(inSession(l.at), `${seed} ${l.ticker}`).toBe(true);
        expect(inSession(l.at + l.hypeSeconds), `${seed} ${l.ticker} hype`).toBe(true);
        expect(l.hypeSeconds).toBeGreaterThanOrEqual(3 * 3_600);
        if (i) expect(l.at - listings[i - 1]!.at).toBeGreaterThanOrEqual(2 * DAY);
        expect(ISSUERS.find((x) => x.key === 'hood')!.listings[STOCK_FEED_CHAIN]).not.toContain(l.ticker);
      }
      expect(laterListings(seed, origin)).toEqual(listings);
    }
  });
});

describe('multipliers and fair value', () => {
  it('a split multiplies the multiplier by its ratio at its moment, and the fair value goes on as before', () => {
    const paths = new StockPaths('plan-split', ORIGIN);
    const split = splitOf(paths);
    expect(actionFactor(paths, split)).toBe(BigInt(split.ratio) * ONE);
    const m = (t: number) => trueMultiplier(paths, split.symbol, ORIGIN, t);
    expect(m(split.at - 1) * BigInt(split.ratio)).toBe(m(split.at));
    const before = fairValueUsd(paths, split.symbol, ORIGIN, split.at - 1);
    const after = fairValueUsd(paths, split.symbol, ORIGIN, split.at);
    // Within an hour's move of the name, not the ratio's.
    expect(Math.abs(after / before - 1)).toBeLessThan(0.05);
    // A token listed after the split starts at 1.
    expect(trueMultiplier(paths, split.symbol, split.at + 60, split.at + DAY)).toBe(ONE);
  });

  it('a dividend is reinvested: the multiplier grows by dividend / ex-price and the holder\'s value stays whole', () => {
    const paths = new StockPaths('plan-dividend', ORIGIN);
    const dividend = paths.events(ORIGIN, ORIGIN + 120 * DAY, 'XOM').find((e) => e.kind === 'dividend')!;
    if (dividend.kind !== 'dividend') throw new Error('no dividend');
    expect(multiplierEvents(paths, 'XOM', ORIGIN, dividend.at).map((e) => e.at)).toContain(dividend.at);
    const ex = paths.priceUsd('XOM', dividend.at);
    const factor = Number(actionFactor(paths, dividend)) / 1e18;
    expect(factor).toBeCloseTo(1 + dividend.usdPerShare / ex, 10);
    const cum = fairValueUsd(paths, 'XOM', ORIGIN, dividend.at - 1);
    const exFair = fairValueUsd(paths, 'XOM', ORIGIN, dividend.at);
    expect(Math.abs(exFair / cum - 1)).toBeLessThan(0.02);
  });
});

describe('the feeds', () => {
  it('post in session beyond the deviation or after the heartbeat, and only the close outside it', () => {
    const monday = Date.UTC(2026, 0, 12) / 1000;
    const last = { answer: feedAnswer(100), at: monday + 3_600 };
    expect(feedDue(undefined, 100, monday)).toBe(true);
    expect(feedDue(last, 100 * (1 + FEED_DEVIATION * 0.9), monday + 3_700)).toBe(false);
    expect(feedDue(last, 100 * (1 + FEED_DEVIATION * 1.1), monday + 3_700)).toBe(true);
    expect(feedDue(last, 100, monday + 2 * 3_600)).toBe(true);
    const saturday = monday + 5 * DAY;
    expect(feedDue({ answer: feedAnswer(101), at: saturday - 600 }, 101.3, saturday + 60)).toBe(true);
    expect(feedDue({ answer: feedAnswer(101.3), at: saturday + 60 }, 101.3, saturday + 9 * 3_600)).toBe(false);
    expect(lastClose(saturday + 60)).toBe(saturday);
    // A feed that posts whenever it is due stays within the threshold of the price at every block in session.
    const paths = new StockPaths('plan-feed', ORIGIN);
    let posted: { answer: bigint; at: number } | undefined;
    let worst = 0;
    for (let t = ORIGIN; t < ORIGIN + 10 * DAY; t += 37) {
      const price = paths.priceUsd('TSLA', t);
      if (feedDue(posted, price, t)) posted = { answer: feedAnswer(price), at: t };
      if (inSession(t)) worst = Math.max(worst, Math.abs(Number(posted!.answer) / 1e8 / price - 1));
      else expect(Number(posted!.answer) / 1e8).toBeCloseTo(paths.priceUsd('TSLA', lastClose(t)), 6);
    }
    // (Measured against the price, not the answer: a hair over the threshold.)
    expect(worst).toBeLessThanOrEqual(FEED_DEVIATION * 1.001);
    expect(worst).toBeLessThan(0.0005);
  });
});

describe('the weekend', () => {
  it('leans each token one way for the whole weekend, a few percent at most', () => {
    const saturday = Date.UTC(2026, 0, 10) / 1000;
    const p = weekendPremium('s', 'base', 'AAPLx', saturday + 3_600);
    expect(weekendPremium('s', 'base', 'AAPLx', saturday + 30 * 3_600)).toBe(p);
    expect(weekendPremium('s', 'base', 'AAPLx', saturday + 7 * DAY)).not.toBe(p);
    const draws = Array.from({ length: 200 }, (_, i) => weekendPremium(`s${i}`, 'base', 'AAPLx', saturday));
    expect(Math.max(...draws.map(Math.abs))).toBeLessThanOrEqual(0.04);
    expect(draws.filter((x) => Math.abs(x) > 0.005).length).toBeGreaterThan(100);
  });
});

describe('a trader\'s book', () => {
  it('realises profit at average cost', () => {
    const book = new Book();
    book.buy('t', 10n ** 18n, 100);
    book.buy('t', 10n ** 18n, 120);
    expect(book.sell('t', 10n ** 18n, 130)).toBeCloseTo(20, 9);
    expect(book.sell('t', 10n ** 18n, 100)).toBeCloseTo(-10, 9);
    expect(book.positions.size).toBe(0);
    expect(Book.from(JSON.parse(JSON.stringify(book.toJSON()))).realisedUsd).toBeCloseTo(10, 9);
    expect(book.trades).toBe(4);
  });
});
