/**
 * Which curve tokens will graduate next, at the pace they are going: the SOL a curve still needs
 * (the SOL it holds when its last token is sold, less what it holds now) over the net SOL it
 * took in during the last hour. A token whose SOL did not grow in that hour has no pace: it
 * ranks after every token that has one, with the reason and how long it has been idle.
 */
import type { CurveFeed, CurveVenueParams } from '../../world/curve/feed.js';
import { SolPricer, toRow, windowActivity, type TokenActivity } from './engine.js';
import { byGraduationEta, graduationPace, paceRanking } from '../launchpad/graduation-pace.js';
import { round } from '../data/market.js';

/** How far back the pace looks: long enough to hold a few trades of a live token, short enough to be "now". */
export const GRADUATION_PACE_SECONDS = 3_600;
/** Recent graduations listed beside the candidates. */
export const RECENT_GRADUATIONS_SECONDS = 86_400;

export const GRADUATION_RANKING = paceRanking(GRADUATION_PACE_SECONDS, 'SOL');

/** SOL the curve holds when its last token is sold: k / (virtual tokens left then) - initial virtual SOL. */
export function graduationSol(venue: CurveVenueParams): number {
  const { initialVirtualSol, initialVirtualTokens, curveSupply } = venue;
  return (initialVirtualSol * initialVirtualTokens) / (initialVirtualTokens - curveSupply) - initialVirtualSol;
}

export interface GraduationCandidate extends TokenActivity {
  realSol: number;
  solToGraduate: number;
  /** Net SOL into the curve over the pace window: buys' SOL minus sells' SOL. */
  netSolInflow: number;
  solPerHour: number;
  /** Hours to graduation at that pace; null without a positive pace. */
  etaHours: number | null;
  estimatedGraduationAt: string | null;
  /** Why there is no ETA; null when there is one. */
  noPaceReason: string | null;
  idleHours: number | null;
}

export interface Graduate extends TokenActivity {
  graduatedAt: string;
  hoursFromLaunch: number | null;
}

/** Candidates at or past `minProgressPct` ranked by ETA, and the graduations of the last day. */
export async function graduationWatch(feed: CurveFeed, minProgressPct: number) {
  const head = await feed.head();
  const paceFrom = head.time - GRADUATION_PACE_SECONDS;
  const recentFrom = head.time - RECENT_GRADUATIONS_SECONDS;
  const pricer = new SolPricer(feed);
  const [states, launches, pace, recent, solUsd] = await Promise.all([
    feed.states(), feed.launches(0, head.time), windowActivity(feed, paceFrom, head.time, pricer), windowActivity(feed, recentFrom, head.time, pricer), feed.solUsd(head.time),
  ]);
  const launchByMint = new Map(launches.map((l) => [l.mint, l]));
  const solUsdNow = solUsd?.usd ?? null;
  const target = graduationSol(feed.venue);

  const candidates: GraduationCandidate[] = states
    .filter((s) => !s.graduated && s.progressPct >= minProgressPct)
    .map((s) => {
      const activity = pace.curve.get(s.mint);
      const needed = Math.max(0, target - s.realSol);
      const p = graduationPace({ needed, netInflow: activity?.netSol ?? 0, tradesInWindow: activity?.trades ?? 0, windowSeconds: GRADUATION_PACE_SECONDS, now: head.time, lastTradeTime: s.lastTradeTime, unit: 'SOL' });
      return { state: s, needed, pace: p, etaHours: p.etaHours, lastTradeTime: s.lastTradeTime, progressPct: s.progressPct };
    })
    .sort(byGraduationEta)
    .map(({ state: s, needed, pace: p }) => ({
      ...toRow(feed, s.mint, launchByMint.get(s.mint), s, solUsdNow, pace),
      realSol: round(s.realSol, 6),
      solToGraduate: round(needed, 6),
      netSolInflow: round(p.netInflow, 6),
      solPerHour: round(p.perHour, 6),
      etaHours: p.etaHours === null ? null : round(p.etaHours, 3),
      estimatedGraduationAt: p.estimatedGraduationAt,
      noPaceReason: p.noPaceReason,
      idleHours: s.lastTradeTime === null ? null : round((head.time - s.lastTradeTime) / 3600, 2),
    }));

  const graduates: Graduate[] = states
    .filter((s) => s.graduated && s.graduated.time >= recentFrom)
    .sort((a, b) => b.graduated!.time - a.graduated!.time)
    .map((s) => {
      const launch = launchByMint.get(s.mint);
      return {
        ...toRow(feed, s.mint, launch, s, solUsdNow, recent),
        graduatedAt: new Date(s.graduated!.time * 1000).toISOString(),
        hoursFromLaunch: launch ? round((s.graduated!.time - launch.time) / 3600, 2) : null,
      };
    });
  return { head, target, paceWindow: { from: paceFrom, to: head.time }, recentWindow: { from: recentFrom, to: head.time }, candidates, graduates };
}
