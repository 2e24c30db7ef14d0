/**
 * The quantum portfolio monitor's memory (quantum-monitor/v1): a watch list's exposure is kept
 * under a key derived from the sorted list, and each call is answered with what changed since the
 * last call for the same list: newly exposed, no longer exposed, value moves.
 */
import { createHash } from 'node:crypto';
import { canonicalAddress } from '../exposure/address.js';

export const MONITOR_METHODOLOGY = 'quantum-monitor/v1 (each address scanned by quantum-exposure/v1 without the evidence search; the last answer for the same watch list — the sorted, de-duplicated addresses — is kept 90 days and compared by address and chain)';
export const MONITOR_TTL_MS = 90 * 24 * 3600 * 1000;

/** One address on one chain, as the monitor remembers it. */
export interface WatchRow {
  readonly address: string;
  readonly chain: string;
  readonly exposed: boolean;
  readonly why: string | null;
  readonly valueUsd: number;
  readonly atRiskUsd: number;
  readonly sats: number | null;
}

export interface WatchSnapshot {
  readonly at: string;
  readonly rows: readonly WatchRow[];
}

export interface WatchChange {
  readonly address: string;
  readonly chain: string;
  readonly before: WatchRow | null;
  readonly after: WatchRow | null;
  readonly deltaUsd: number;
  readonly deltaSats: number | null;
}

export interface WatchDiff {
  readonly newlyExposed: WatchChange[];
  readonly noLongerExposed: WatchChange[];
  readonly valueChanges: WatchChange[];
}

/** The watch list as one set: canonical addresses, sorted, without repeats. */
export function watchList(addresses: readonly string[]): string[] {
  return [...new Set(addresses.map(canonicalAddress))].sort();
}

/** The store key of a watch list (the same list in any order or case gives the same key). */
export function watchKey(addresses: readonly string[]): string {
  return `quantum-monitor:v1:${createHash('sha256').update(watchList(addresses).join(',')).digest('hex')}`;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export function diffWatch(before: WatchSnapshot, after: WatchSnapshot): WatchDiff {
  const key = (r: WatchRow) => `${r.address}@${r.chain}`;
  const old = new Map(before.rows.map((r) => [key(r), r]));
  const now = new Map(after.rows.map((r) => [key(r), r]));
  const change = (b: WatchRow | null, a: WatchRow | null): WatchChange => ({
    address: (a ?? b)!.address, chain: (a ?? b)!.chain, before: b, after: a,
    deltaUsd: round2((a?.valueUsd ?? 0) - (b?.valueUsd ?? 0)),
    deltaSats: a?.sats === null || b?.sats === null ? null : (a?.sats ?? 0) - (b?.sats ?? 0),
  });
  const diff: WatchDiff = { newlyExposed: [], noLongerExposed: [], valueChanges: [] };
  for (const k of new Set([...old.keys(), ...now.keys()])) {
    const b = old.get(k) ?? null;
    const a = now.get(k) ?? null;
    // A chain read once and not the other time is neither: its state is unknown on the other side.
    if (!a || !b) continue;
    if (a.exposed && !b.exposed) diff.newlyExposed.push(change(b, a));
    else if (!a.exposed && b.exposed) diff.noLongerExposed.push(change(b, a));
    const c = change(b, a);
    if (Math.abs(c.deltaUsd) >= 0.01 || (c.deltaSats !== null && c.deltaSats !== 0)) diff.valueChanges.push(c);
  }
  diff.valueChanges.sort((x, y) => Math.abs(y.deltaUsd) - Math.abs(x.deltaUsd));
  return diff;
}
