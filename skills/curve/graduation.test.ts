import { describe, expect, it } from 'vitest';
import { graduationSol, graduationWatch } from './graduation.js';
import { FixtureCurveFeed, PUMP_VENUE } from '../data/testing/fixtures.js';

const HEAD = 1_000_000;
const H = 3_600;
// k / (virtual tokens left when the curve is sold out) − initial virtual SOL = 30·1073/279.9 − 30 ≈ 85.005 SOL.
const TARGET = (30 * 1_073) / (1_073 - 793.1) - 30;

describe('curve graduation watch', () => {
  it('the pump-style target', () => {
    expect(graduationSol(PUMP_VENUE)).toBeCloseTo(TARGET, 9);
  });

  it('candidates past the progress floor by ETA at the last hour\'s net SOL, then idle ones; graduations of the last day', async () => {
    const f = new FixtureCurveFeed(HEAD, () => 100);
    // FAST needs 25 SOL and took in 6 − 1 = 5 SOL in the last hour: 5 h.
    f.state('FAST', { progressPct: 80, realSol: TARGET - 25, lastTradeTime: HEAD - 60 });
    f.trade('FAST', 'a', 'buy', 6, HEAD - 1_000).trade('FAST', 'b', 'sell', 1, HEAD - 60).trade('FAST', 'c', 'buy', 50, HEAD - 2 * H);
    f.state('IDLE', { progressPct: 90, realSol: TARGET - 5, lastTradeTime: HEAD - 3 * H });
    f.state('LOW', { progressPct: 40, realSol: 10, lastTradeTime: HEAD - 60 });
    f.launchList.push({ mint: 'NEW_GRAD', creator: 'm', name: 'N', symbol: 'N', time: HEAD - 12 * H, slot: 1, signature: 's' });
    f.state('NEW_GRAD', { progressPct: 100, graduated: { time: HEAD - 2 * H, slot: 2 } });
    f.state('OLD_GRAD', { progressPct: 100, graduated: { time: HEAD - 48 * H, slot: 2 } });
    const r = await graduationWatch(f, 50);
    expect(r.candidates.map((c) => c.mint)).toEqual(['FAST', 'IDLE']);
    expect(r.candidates[0]).toMatchObject({ solToGraduate: 25, netSolInflow: 5, solPerHour: 5, etaHours: 5, noPaceReason: null, idleHours: 0.02 });
    expect(r.candidates[1]).toMatchObject({ etaHours: null, noPaceReason: 'no trades in the last 1 h; last trade 3 h ago', idleHours: 3 });
    expect(r.graduates.map((g) => [g.mint, g.hoursFromLaunch])).toEqual([['NEW_GRAD', 10]]);
  });
});
