/**
 * The commentary files each factor by what it means for the call: a band that holds the last
 * close is a reason to doubt a bullish or bearish call (and to believe a neutral one), agreement,
 * momentum and volume count for the call only when they point its way.
 */
import { describe, expect, it } from 'vitest';
import { commentary, type CommentaryInput } from './commentary.js';

const LAST = 100;
/** 40 candles rising (or falling) `pct` % in all over the last 10, with `recentVolume` on those 10. */
function history(pct: number, recentVolume = 100) {
  return Array.from({ length: 40 }, (_, i) => ({
    close: i < 30 ? LAST / (1 + pct / 100) : LAST / (1 + pct / 100) + ((i - 29) / 10) * (LAST - LAST / (1 + pct / 100)),
    volumeUsd: i < 30 ? 100 : recentVolume,
  }));
}

function input(over: Partial<CommentaryInput> & { call: 'bullish' | 'bearish' | 'neutral'; q10: number; q90: number; driftPct: number }): CommentaryInput {
  const { call, q10, q90, driftPct, ...rest } = over;
  return {
    lastClose: LAST,
    lead: { model: 'modelB-small', driftPct, direction: call, noisePct: [10, 20], quantiles: { q10: [LAST, q10], q90: [LAST, q90] } },
    consensus: { verdict: 'CONSENSUS', statement: 'models agree: bullish (modelA-2.5 bullish +29.5%, modelB-small bullish +30%)' },
    history: history(0),
    ...rest,
  };
}

const band = (factors: string[]) => factors.filter((f) => f.includes('q10-q90 band'));

describe('commentary factors by sign', () => {
  it('a band spanning 116% of the price around the last close contradicts a bullish call', () => {
    const c = commentary(input({ call: 'bullish', driftPct: 30, q10: 80, q90: 196 }));
    expect(band(c.supporting)).toEqual([]);
    expect(band(c.contradicting)).toHaveLength(1);
    expect(band(c.contradicting)[0]).toContain('116%');
  });

  it('a band wholly above the last close supports a bullish call; wholly below, a bearish one', () => {
    const up = commentary(input({ call: 'bullish', driftPct: 30, q10: 110, q90: 150 }));
    expect(band(up.supporting)).toHaveLength(1);
    expect(band(up.contradicting)).toEqual([]);
    const down = commentary(input({ call: 'bearish', driftPct: -30, q10: 60, q90: 90 }));
    expect(band(down.supporting)).toHaveLength(1);
    expect(band(down.contradicting)).toEqual([]);
  });

  it('a neutral call: the band holding the last close supports it, the missing call contradicts confidence, confidence is low', () => {
    const c = commentary(input({ call: 'neutral', driftPct: 0.2, q10: 90, q90: 112 }));
    expect(band(c.supporting)).toHaveLength(1);
    expect(c.contradicting.some((f) => f.includes('no directional call'))).toBe(true);
    expect(c.confidence).toBe('low');
  });

  it('momentum and the volume behind it count for the call only when they point its way', () => {
    // Price up 10% over the last quarter on three times the earlier volume: twice the series average (300 against 150).
    const rally = history(10, 300);
    const bullish = commentary(input({ call: 'bullish', driftPct: 30, q10: 110, q90: 150, history: rally }));
    expect(bullish.supporting.some((f) => f.startsWith('price moved 10%'))).toBe(true);
    expect(bullish.supporting.some((f) => f.startsWith('recent volume is 2x'))).toBe(true);
    const bearish = commentary(input({ call: 'bearish', driftPct: -30, q10: 60, q90: 90, history: rally }));
    expect(bearish.contradicting.some((f) => f.startsWith('price moved 10%'))).toBe(true);
    expect(bearish.contradicting.some((f) => f.startsWith('recent volume is 2x'))).toBe(true);
    // The same rally on a quarter of the volume: weak backing, against the bullish call.
    const thin = commentary(input({ call: 'bullish', driftPct: 30, q10: 110, q90: 150, history: history(10, 25) }));
    expect(thin.contradicting.some((f) => f.startsWith('recent volume is only'))).toBe(true);
  });

  it('divergence and a record below always bullish contradict; confidence follows the count', () => {
    const split = commentary(input({ call: 'bullish', driftPct: 30, q10: 110, q90: 150, consensus: { verdict: 'DIVERGENCE', statement: 'models disagree (different calls: modelA-2.5 neutral +0.2%, modelB-small bullish +30%); no direction' } }));
    expect(split.contradicting.some((f) => f.startsWith('DIVERGENCE: models disagree'))).toBe(true);
    // Disagreeing models make no call: the commentary says whose call its factors weigh.
    expect(split.call).toBe('none');
    expect(split.weighs).toBe('modelB-small bullish');
    expect(split.confidence).toBe('low');
    const poor = commentary(input({ call: 'bullish', driftPct: 30, q10: 110, q90: 150, track: { hitRate: 0.4, calls: 20, baseRate: 0.55, origin: 'backfill' } }));
    expect(poor.contradicting.some((f) => f.includes('backfill hit rate here is 0.4'))).toBe(true);
    const strong = commentary(input({ call: 'bullish', driftPct: 30, q10: 110, q90: 150, history: history(10, 300), track: { hitRate: 0.7, calls: 20, baseRate: 0.55, origin: 'live' } }));
    expect(strong.contradicting).toEqual([]);
    expect(strong.confidence).toBe('high');
  });
});
