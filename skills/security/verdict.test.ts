import { describe, expect, it } from 'vitest';
import { factor, FAILING, HIGH_SCORE, judge, MEDIUM_SCORE, POINTS, unavailableFactor, type Factor, type FactorName, type Severity } from './verdict.js';

/** A factor of `name` that fired at `severity` (or did not, with 'none'). */
const f = (severity: Severity | 'none', name: FactorName = 'lp-lock'): Factor =>
  factor({ factor: name, severity, value: 1, threshold: 't', source: 's', finding: `${name} ${severity}` });

describe('security/v2 verdict rule', () => {
  it('the points and bands the rule states', () => {
    expect(POINTS).toEqual({ critical: 100, high: 40, medium: 20, low: 5 });
    expect([HIGH_SCORE, MEDIUM_SCORE]).toEqual([60, 20]);
    expect(FAILING).toEqual(['critical', 'high']);
  });

  it('nothing fired: low, 0, passes', () => {
    expect(judge([])).toMatchObject({ riskScore: 0, verdict: 'low', findings: [], fails: false });
    expect(judge([f('none'), f('none', 'holder-concentration')])).toMatchObject({ riskScore: 0, verdict: 'low', findings: [] });
  });

  it('low factors add up: three are still low (15), the fourth makes medium (20)', () => {
    const lows = (n: number) => Array.from({ length: n }, () => f('low'));
    expect(judge(lows(1))).toMatchObject({ riskScore: 5, verdict: 'low' });
    expect(judge(lows(3))).toMatchObject({ riskScore: 15, verdict: 'low' });
    expect(judge(lows(4))).toMatchObject({ riskScore: 20, verdict: 'medium', fails: false });
  });

  it('two medium factors are medium (40); a third makes high (60) and fails', () => {
    expect(judge([f('medium')])).toMatchObject({ riskScore: 20, verdict: 'medium', fails: false });
    expect(judge([f('medium'), f('medium', 'trading-activity')])).toMatchObject({ riskScore: 40, verdict: 'medium', fails: false });
    expect(judge([f('medium'), f('medium', 'trading-activity'), f('low', 'sell-simulation'), f('low', 'owner-powers'), f('low', 'liquidity-depth'), f('low', 'deployer-history')])).toMatchObject({ riskScore: 60, verdict: 'high', fails: true });
    expect(judge([f('medium'), f('medium', 'trading-activity'), f('low', 'sell-simulation'), f('low', 'owner-powers'), f('low', 'liquidity-depth')])).toMatchObject({ riskScore: 55, verdict: 'medium' });
    expect(judge([f('medium'), f('medium', 'trading-activity'), f('medium', 'holder-concentration')])).toMatchObject({ riskScore: 60, verdict: 'high', fails: true });
  });

  it('one high factor is high on its own (40 points); one critical is critical; the score caps at 100', () => {
    expect(judge([f('high', 'owner-powers')])).toMatchObject({ riskScore: 40, verdict: 'high', fails: true });
    expect(judge([f('critical', 'sell-simulation')])).toMatchObject({ riskScore: 100, verdict: 'critical', fails: true });
    expect(judge([f('critical', 'sell-simulation'), f('high', 'owner-powers'), f('medium')])).toMatchObject({ riskScore: 100, verdict: 'critical' });
  });

  it('findings are the fired factors, worst first, each with its points; undetermined factors weigh nothing and are named', () => {
    const gone = unavailableFactor('holder-concentration', 't', 's', 'totalSupply() did not answer');
    expect(gone).toMatchObject({ available: false, severity: 'none', points: 0, value: null, reason: 'totalSupply() did not answer' });
    const v = judge([f('medium'), f('low', 'sell-simulation'), f('high', 'owner-powers'), gone]);
    expect(v.findings).toEqual([
      { factor: 'owner-powers', severity: 'high', points: 40, finding: 'owner-powers high' },
      { factor: 'lp-lock', severity: 'medium', points: 20, finding: 'lp-lock medium' },
      { factor: 'sell-simulation', severity: 'low', points: 5, finding: 'sell-simulation low' },
    ]);
    expect(v).toMatchObject({ riskScore: 65, verdict: 'high', undetermined: [{ factor: 'holder-concentration', reason: 'totalSupply() did not answer' }] });
    // A factor said to be unavailable never fires, whatever severity it was built with.
    expect(factor({ factor: 'lp-lock', available: false, severity: 'critical', value: null, threshold: 't', source: 's', finding: 'x' })).toMatchObject({ severity: 'none', points: 0 });
  });
});
