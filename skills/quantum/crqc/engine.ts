/**
 * CRQC proximity: today's best announced hardware against the published resource estimates for
 * breaking RSA-2048 and 256-bit ECDLP (crqc-data.ts), and how the gap moved between a target's
 * earliest and latest physical estimate. Figures only come from the table; every comparison
 * names the rows it divides.
 */
import { CRQC_COMPILED_AT, HARDWARE, RESOURCE_ESTIMATES, type CrqcTarget, type HardwareSystem, type ResourceEstimate } from './data.js';

export const CRQC_METHODOLOGY = `crqc/v1: a shipped table of published resource estimates and announced hardware (compiled ${CRQC_COMPILED_AT}, every row sourced, unstated figures null). Qubit gap = the estimate's physical qubits / the largest announced machine's; error ratio = the lowest stated two-qubit error / the error rate the estimate assumes (below 1: better than assumed); hardware "then" is the table's hardware announced by the end of the estimate's publication year.`;

export interface SystemRef {
  readonly id: string;
  readonly name: string;
  readonly org: string;
  readonly announced: string;
  readonly physicalQubits: number;
  readonly twoQubitError: number | null;
}

const ref = (s: HardwareSystem): SystemRef => ({ id: s.id, name: s.name, org: s.org, announced: s.announced, physicalQubits: s.physicalQubits, twoQubitError: s.twoQubitError });

/** Three significant figures: gaps span 1 to 10^7, and more digits would claim a precision the sources lack. */
export const sig3 = (x: number) => Number(x.toPrecision(3));

export interface HardwareState {
  /** Months compared as YYYY-MM strings. */
  readonly asOf: string;
  readonly largest: SystemRef | null;
  readonly lowestError: SystemRef | null;
}

/** The best announced hardware as of a month: the most physical qubits, and the lowest stated two-qubit error. */
export function hardwareAsOf(asOf: string, systems: readonly HardwareSystem[] = HARDWARE): HardwareState {
  const known = systems.filter((s) => s.announced <= asOf);
  const largest = known.reduce<HardwareSystem | null>((best, s) => (!best || s.physicalQubits > best.physicalQubits ? s : best), null);
  const lowestError = known.filter((s) => s.twoQubitError !== null).reduce<HardwareSystem | null>((best, s) => (!best || s.twoQubitError! < best.twoQubitError! ? s : best), null);
  return { asOf, largest: largest && ref(largest), lowestError: lowestError && ref(lowestError) };
}

/** The largest machine whose stated two-qubit error is at or below `error`. */
export function largestAtError(error: number, asOf: string, systems: readonly HardwareSystem[] = HARDWARE): SystemRef | null {
  const meeting = systems.filter((s) => s.announced <= asOf && s.twoQubitError !== null && s.twoQubitError <= error);
  const best = meeting.reduce<HardwareSystem | null>((b, s) => (!b || s.physicalQubits > b.physicalQubits ? s : b), null);
  return best && ref(best);
}

export interface EstimateComparison {
  readonly estimate: string;
  readonly target: CrqcTarget;
  readonly published: string;
  readonly physicalQubits: number | null;
  readonly physicalQubitsKind: string | null;
  readonly runtimeHours: number | null;
  readonly assumedGateError: number | null;
  /** Estimate's physical qubits / today's largest machine's; null without a physical figure. */
  readonly qubitGap: number | null;
  /** Today's lowest stated two-qubit error / the assumed gate error; null when the estimate assumes another error model. */
  readonly errorRatio: number | null;
  /** The largest machine that already meets the assumed error, and the qubit gap from it. */
  readonly largestAtAssumedError: SystemRef | null;
  readonly qubitGapAtAssumedError: number | null;
}

export function compareEstimate(e: ResourceEstimate, now: HardwareState, systems: readonly HardwareSystem[] = HARDWARE): EstimateComparison {
  const atError = e.assumedGateError === null ? null : largestAtError(e.assumedGateError, now.asOf, systems);
  return {
    estimate: e.id, target: e.target, published: e.published,
    physicalQubits: e.physicalQubits, physicalQubitsKind: e.physicalQubitsKind, runtimeHours: e.runtimeHours, assumedGateError: e.assumedGateError,
    qubitGap: e.physicalQubits !== null && now.largest ? sig3(e.physicalQubits / now.largest.physicalQubits) : null,
    errorRatio: e.assumedGateError !== null && now.lowestError?.twoQubitError != null ? sig3(now.lowestError.twoQubitError / e.assumedGateError) : null,
    largestAtAssumedError: atError,
    qubitGapAtAssumedError: e.physicalQubits !== null && atError ? sig3(e.physicalQubits / atError.physicalQubits) : null,
  };
}

export interface GapPoint {
  readonly estimate: string;
  readonly published: string;
  readonly physicalQubits: number;
  readonly hardware: SystemRef | null;
  /** physicalQubits / hardware's; null when no hardware of the table was announced by then. */
  readonly gap: number | null;
}

export interface GapMovement {
  readonly target: CrqcTarget;
  readonly earlier: GapPoint;
  readonly latest: GapPoint;
  /** earlier estimate's qubits / latest estimate's: how much the algorithms and error correction cut. */
  readonly estimateShrink: number;
  /** today's largest machine / the largest at the earlier estimate. */
  readonly hardwareGrowth: number | null;
  /** earlier gap / latest gap: how many times closer the target is. */
  readonly gapClosed: number | null;
  readonly note: string;
}

/** For each target with two or more physical estimates: the earliest (hardware of its year) against the latest (hardware now). */
export function gapMovements(now: HardwareState, estimates: readonly ResourceEstimate[] = RESOURCE_ESTIMATES, systems: readonly HardwareSystem[] = HARDWARE): GapMovement[] {
  const targets = [...new Set(estimates.map((e) => e.target))];
  return targets.flatMap((target) => {
    // Of two estimates in one paper (time/space trade-offs), the fewest-qubit one stands for it.
    const physical = estimates.filter((e) => e.target === target && e.physicalQubits !== null)
      .sort((a, b) => a.published.localeCompare(b.published) || a.physicalQubits! - b.physicalQubits!);
    const first = physical[0];
    const last = physical.filter((e) => e.published === physical.at(-1)?.published).sort((a, b) => a.physicalQubits! - b.physicalQubits!)[0];
    if (!first || !last || first.published === last.published) return [];
    const then = hardwareAsOf(`${first.published.slice(0, 4)}-12`, systems).largest;
    const point = (e: ResourceEstimate, hw: SystemRef | null): GapPoint => ({
      estimate: e.id, published: e.published, physicalQubits: e.physicalQubits!, hardware: hw, gap: hw ? sig3(e.physicalQubits! / hw.physicalQubits) : null,
    });
    const earlier = point(first, then);
    const latest = point(last, now.largest);
    const sameArchitecture = first.architecture === last.architecture && first.assumedGateError === last.assumedGateError;
    return [{
      target, earlier, latest,
      estimateShrink: sig3(first.physicalQubits! / last.physicalQubits!),
      hardwareGrowth: then && now.largest ? sig3(now.largest.physicalQubits / then.physicalQubits) : null,
      gapClosed: earlier.gap !== null && latest.gap !== null ? sig3(earlier.gap / latest.gap) : null,
      note: sameArchitecture
        ? 'Both estimates make the same hardware assumptions, so the shrink is the algorithms\' and error correction\'s own.'
        : `The two estimates assume different hardware (${first.architecture}; ${last.architecture}), so part of the shrink is the architecture's.`,
    }];
  });
}

export interface CrqcBenchmark {
  readonly compiledAt: string;
  readonly today: HardwareState;
  readonly comparisons: readonly EstimateComparison[];
  readonly movements: readonly GapMovement[];
  readonly headline: string;
}

export function crqcBenchmark(estimates: readonly ResourceEstimate[] = RESOURCE_ESTIMATES, systems: readonly HardwareSystem[] = HARDWARE, asOf = CRQC_COMPILED_AT.slice(0, 7)): CrqcBenchmark {
  const today = hardwareAsOf(asOf, systems);
  const comparisons = estimates.map((e) => compareEstimate(e, today, systems));
  const movements = gapMovements(today, estimates, systems);
  return { compiledAt: CRQC_COMPILED_AT, today, comparisons, movements, headline: headline(today, comparisons, movements) };
}

const count = (n: number) => n.toLocaleString('en-US');

function headline(today: HardwareState, comparisons: readonly EstimateComparison[], movements: readonly GapMovement[]): string {
  const parts: string[] = [];
  if (today.largest) parts.push(`Largest announced machine: ${today.largest.name} (${today.largest.org}, ${count(today.largest.physicalQubits)} physical qubits, ${today.largest.announced})`);
  if (today.lowestError) parts.push(`lowest stated two-qubit error: ${today.lowestError.name} at ${(today.lowestError.twoQubitError! * 100).toFixed(3)}% on ${today.lowestError.physicalQubits} qubits`);
  for (const m of movements) {
    const c = comparisons.find((x) => x.estimate === m.latest.estimate)!;
    parts.push(`${m.target}: the latest estimate needs ${c.physicalQubitsKind === 'upper-bound' ? 'under ' : ''}${count(m.latest.physicalQubits)} physical qubits, ${count(c.qubitGap ?? 0)}× today's largest machine${c.qubitGapAtAssumedError !== null ? ` (${count(c.qubitGapAtAssumedError)}× the largest that meets its ${(c.assumedGateError! * 100).toFixed(1)}% error assumption)` : ''}; the gap was ${m.earlier.gap === null ? 'n/a' : `${count(m.earlier.gap)}×`} in ${m.earlier.published.slice(0, 4)} and closed ${m.gapClosed ?? 'n/a'}-fold (estimates ${m.estimateShrink}× smaller, hardware ${m.hardwareGrowth ?? 'n/a'}× larger)`);
  }
  return `${parts.join('; ')}.`;
}
