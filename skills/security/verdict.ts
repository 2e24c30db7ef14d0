/**
 * The security verdict's rule (`security/v2`): every factor that can make a holder lose money is
 * weighed on its own evidence (factors.ts) and given a severity; the score and the level follow
 * from those severities alone, by the rule below, never from a constant. The screen applied to
 * every ranking and recommendation (../data/screening.ts) reads this same verdict, so a list and
 * security-scan never disagree about a token at one checkpoint.
 *
 * Rule: a factor that fires scores POINTS[severity]; riskScore = min(100, sum). The level is
 * `critical` when any factor is critical; `high` when any factor is high or the score reaches
 * HIGH_SCORE (three medium factors together); `medium` when the score reaches MEDIUM_SCORE (any
 * medium factor, or four low ones); `low` otherwise. A token whose level is in FAILING fails the
 * screen.
 */

export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** What each factor weighs, in the answer's order (see factors.ts for each one's evidence and thresholds). */
export const FACTOR_NAMES = ['sell-simulation', 'owner-powers', 'liquidity-pulled', 'lp-lock', 'holder-concentration', 'liquidity-depth', 'trading-activity', 'deployer-history'] as const;
export type FactorName = (typeof FACTOR_NAMES)[number];

export const POINTS: Readonly<Record<Severity, number>> = { critical: 100, high: 40, medium: 20, low: 5 };
export const HIGH_SCORE = 60;
export const MEDIUM_SCORE = 20;
/** Levels that fail the screen: never an idea, a gainer or a planned buy. */
export const FAILING: readonly Severity[] = ['critical', 'high'];

export const VERDICT_RULE = `each factor that fires scores critical ${POINTS.critical}, high ${POINTS.high}, medium ${POINTS.medium}, low ${POINTS.low}; riskScore = min(100, sum); level critical if any factor is critical, high if any is high or riskScore >= ${HIGH_SCORE}, medium if riskScore >= ${MEDIUM_SCORE}, else low; ${FAILING.join(' and ')} fail the screen`;

/** One factor as the answer shows it: what was measured, against what, from where, and what it weighs. */
export interface Factor {
  factor: FactorName;
  /** False when the evidence could not be read (`reason` says why): the factor weighs nothing and the verdict is incomplete. */
  available: boolean;
  /** `none`: measured and within its threshold (or not applicable, `finding` says which). */
  severity: Severity | 'none';
  points: number;
  /** The measured value (a share in %, a USD amount, a count, a list), null when not available. */
  value: number | string | string[] | null;
  unit?: string;
  /** The thresholds the value is held to, in words. */
  threshold: string;
  /** Where the value came from. */
  source: string;
  /** One sentence: what the value means for a holder. */
  finding: string;
  reason?: string;
  /** The figures behind the value (holders, pools, wallets). */
  evidence?: Record<string, unknown>;
}

/** A factor with its points set from its severity. */
export function factor(f: Omit<Factor, 'points' | 'available'> & { available?: boolean }): Factor {
  const available = f.available ?? true;
  const severity = available ? f.severity : 'none';
  return { ...f, available, severity, points: severity === 'none' ? 0 : POINTS[severity] };
}

/** A factor whose evidence could not be read. */
export function unavailableFactor(name: FactorName, threshold: string, source: string, reason: string): Factor {
  return factor({ factor: name, available: false, severity: 'none', value: null, threshold, source, finding: `${name} not determined: ${reason}`, reason });
}

export interface Verdict {
  riskScore: number;
  verdict: Severity;
  /** The factors that fired, worst first: the answer's findings and the screen's risks, in these words. */
  findings: { factor: FactorName; severity: Severity; points: number; finding: string }[];
  /** Factors whose evidence could not be read: the verdict is then incomplete (the screen says `screened: false`). */
  undetermined: { factor: FactorName; reason: string }[];
  fails: boolean;
}

/** The documented rule (VERDICT_RULE) applied to a token's factors. */
export function judge(factors: readonly Factor[]): Verdict {
  const fired = factors.filter((f): f is Factor & { severity: Severity } => f.available && f.severity !== 'none');
  const riskScore = Math.min(100, fired.reduce((s, f) => s + POINTS[f.severity], 0));
  const has = (s: Severity) => fired.some((f) => f.severity === s);
  const verdict: Severity = has('critical') ? 'critical' : has('high') || riskScore >= HIGH_SCORE ? 'high' : riskScore >= MEDIUM_SCORE ? 'medium' : 'low';
  const findings = [...fired]
    .sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity))
    .map((f) => ({ factor: f.factor, severity: f.severity, points: f.points, finding: f.finding }));
  return {
    riskScore, verdict, findings,
    undetermined: factors.filter((f) => !f.available).map((f) => ({ factor: f.factor, reason: f.reason ?? 'not determined' })),
    fails: FAILING.includes(verdict),
  };
}
