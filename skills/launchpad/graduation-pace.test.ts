import { describe, expect, it } from 'vitest';
import { byGraduationEta, graduationPace, type PaceInput } from './graduation-pace.js';

const NOW = 1_700_000_000;
const input = (p: Partial<PaceInput>): PaceInput => ({ needed: 3, netInflow: 1.5, tradesInWindow: 10, windowSeconds: 86_400, now: NOW, lastTradeTime: NOW - 60, unit: 'ETH', ...p });

describe('graduation pace', () => {
  it('3 ETH still needed at 1.5 ETH net per 24 h: 0.0625 ETH/h, 48 h to go', () => {
    expect(graduationPace(input({}))).toEqual({
      netInflow: 1.5, perHour: 0.0625, etaHours: 48,
      estimatedGraduationAt: new Date((NOW + 48 * 3600) * 1000).toISOString(), noPaceReason: null,
    });
  });

  it('never traded, no trades lately, net outflow, flat, unknown target: no estimate, each with its reason', () => {
    expect(graduationPace(input({ netInflow: 0, tradesInWindow: 0, lastTradeTime: null })).noPaceReason).toBe('never traded');
    expect(graduationPace(input({ netInflow: 0, tradesInWindow: 0, lastTradeTime: NOW - 2 * 86_400 })).noPaceReason).toBe('no trades in the last 24 h; last trade 48 h ago');
    expect(graduationPace(input({ netInflow: -0.25 })).noPaceReason).toBe('net ETH outflow in the last 24 h (-0.25 ETH)');
    expect(graduationPace(input({ netInflow: 0 })).noPaceReason).toBe('no net ETH inflow in the last 24 h');
    const unknown = graduationPace(input({ needed: null, unknownTarget: 'the venue does not state its target' }));
    expect(unknown).toMatchObject({ etaHours: null, estimatedGraduationAt: null, noPaceReason: 'the venue does not state its target' });
  });

  it('ranking: soonest ETA first (progress breaks ties), then no pace, most recently traded first', () => {
    const curves = [
      { id: 'idle-old', etaHours: null, lastTradeTime: 100, progressPct: 90 },
      { id: 'slow', etaHours: 50, lastTradeTime: 300, progressPct: 10 },
      { id: 'never', etaHours: null, lastTradeTime: null, progressPct: 0 },
      { id: 'fast-less', etaHours: 5, lastTradeTime: 300, progressPct: 20 },
      { id: 'idle-new', etaHours: null, lastTradeTime: 200, progressPct: 1 },
      { id: 'fast-more', etaHours: 5, lastTradeTime: 300, progressPct: 60 },
    ];
    expect(curves.sort(byGraduationEta).map((c) => c.id)).toEqual(['fast-more', 'fast-less', 'slow', 'idle-new', 'idle-old', 'never']);
  });
});
