/**
 * The prediction-whales report (get_prediction_whales): the insider scan's largest positions and
 * their recent trades, its flags, the markets they gather in, and the wallets that go together
 * (one funder, or the same side of one market within hours). Built from one scan; reads nothing.
 */
import { zeroAddress } from 'viem';
import { round } from '../data/market.js';
import type { FundingProvenance } from './funding.js';
import { INSIDER_ENGINE, type InsiderCandidate, type InsiderScan } from './insiders.js';
import { iso } from './markets.js';
import type { VenueOrigin } from './source.js';

const HOUR = 3_600;

export const WHALE_RULES = {
  /** Trades of the large positions this recent are listed as their recent moves. */
  recentHours: 24,
  /** Flagged wallets on the same side of one market within this many hours form a cluster. */
  clusterHours: 6,
} as const;

export const WHALES_METHODOLOGY =
  `prediction-whales/v1: the insider scan (${INSIDER_ENGINE}, its methodology in insider-scan) over Polymarket; alerts are its flags (high: the price already moved their way; watch: the window is open); ` +
  `whaleTransfers are the trades of the positions it examined ($5,000 or more on one side) made in the last ${WHALE_RULES.recentHours} h, largest first; marketAnomalies the markets holding flags, by USD flagged; ` +
  `walletClusters the examined wallets funded by one sender other than a mint (read on chain), and the flagged wallets on the same side of one market within ${WHALE_RULES.clusterHours} h`;

export interface WhaleReport {
  readonly alertCount: number;
  readonly highRiskCount: number;
  readonly insiderScanReport: {
    readonly alerts: Record<string, unknown>[];
    readonly walletsScanned: number;
    readonly walletsFlagged: number;
    readonly marketsAnalyzed: number;
    readonly positionsExamined: number;
    readonly marketAnomalies: Record<string, unknown>[];
    readonly walletClusters: Record<string, unknown>[];
    readonly whaleTransfers: Record<string, unknown>[];
    readonly dataSourcesUsed: string[];
  };
}

export function whaleReport(scan: InsiderScan, funding: FundingProvenance, origins: readonly VenueOrigin[]): WhaleReport {
  const alerts = scan.alerts.map(alertRow);
  return {
    alertCount: alerts.length,
    highRiskCount: scan.alerts.filter((a) => a.level === 'high').length,
    insiderScanReport: {
      alerts,
      walletsScanned: scan.walletsScanned,
      walletsFlagged: new Set(scan.alerts.map((a) => a.account.address)).size,
      marketsAnalyzed: scan.markets.length,
      positionsExamined: scan.candidates.length,
      marketAnomalies: marketAnomalies(scan),
      walletClusters: [...funderClusters(scan.candidates), ...timedClusters(scan.alerts)],
      whaleTransfers: recentTrades(scan),
      dataSourcesUsed: [
        ...origins.map((o) => `${o.venue} ${o.api}: ${o.url}`),
        funding.source ? `${funding.chain} (chain ${funding.chainId}) ${funding.source}: first USDC funding of each examined wallet` : `${funding.chain}: not read (${funding.unreadable ?? 'unreadable'})`,
      ],
    },
  };
}

function alertRow(c: InsiderCandidate): Record<string, unknown> {
  const f = c.account.funding;
  return {
    wallet: c.account.address, question: c.market.question, conditionId: c.market.conditionId, side: c.side.outcome,
    level: c.level, risk: c.level === 'high' ? 'high' : 'medium', score: c.score,
    positionUsd: c.position.usd, avgPrice: c.position.avgPrice, tradedAt: iso(c.signalTrade.time),
    fundedAt: f.status === 'funded' ? iso(f.funding.time) : null, fundedUsd: f.status === 'funded' ? f.funding.amountUsd : null,
    fundedBy: f.status === 'funded' ? f.funding.from : null,
    hoursFundedBeforeTrade: c.account.ageAtTradeSeconds === null ? null : round(c.account.ageAtTradeSeconds / HOUR, 2),
    priorTrades: c.account.priorTrades,
    priceBefore: c.impact?.priceBefore ?? null, maxRise: c.impact?.maxRise ?? null, minutesToMove: c.impact?.minutesToMove ?? null,
    resolved: c.outcome.resolved, won: c.outcome.won,
    reasons: [...c.reasons],
  };
}

function marketAnomalies(scan: InsiderScan): Record<string, unknown>[] {
  const byMarket = new Map<string, InsiderCandidate[]>();
  for (const a of scan.alerts) byMarket.set(a.market.conditionId, [...(byMarket.get(a.market.conditionId) ?? []), a]);
  return [...byMarket.values()].map((flags) => {
    const m = flags[0]!.market;
    const usd = flags.reduce((s, a) => s + a.position.usd, 0);
    return {
      question: m.question, conditionId: m.conditionId, closed: m.closed, alerts: flags.length,
      wallets: [...new Set(flags.map((a) => a.account.address))], sides: [...new Set(flags.map((a) => a.side.outcome))],
      flaggedUsd: round(usd, 2), volumeUsd: m.volumeUsd, flaggedShareOfVolume: m.volumeUsd ? round(usd / m.volumeUsd, 4) : null,
      largestRise: Math.max(...flags.map((a) => a.impact?.maxRise ?? 0)),
    };
  }).sort((a, b) => b.flaggedUsd - a.flaggedUsd);
}

/** Examined wallets first funded by the same sender (a mint, the zero address, ties nobody together). */
function funderClusters(candidates: readonly InsiderCandidate[]): Record<string, unknown>[] {
  const byFunder = new Map<string, Map<string, InsiderCandidate[]>>();
  for (const c of candidates) {
    const f = c.account.funding;
    if (f.status !== 'funded' || f.funding.from.toLowerCase() === zeroAddress) continue;
    const wallets = byFunder.get(f.funding.from.toLowerCase()) ?? new Map<string, InsiderCandidate[]>();
    wallets.set(c.account.address, [...(wallets.get(c.account.address) ?? []), c]);
    byFunder.set(f.funding.from.toLowerCase(), wallets);
  }
  return [...byFunder].filter(([, wallets]) => wallets.size >= 2).map(([funder, wallets]) => {
    const all = [...wallets.values()].flat();
    return {
      basis: 'funder', funder, wallets: [...wallets.keys()], markets: [...new Set(all.map((c) => c.market.question))],
      totalUsd: round(all.reduce((s, c) => s + c.position.usd, 0), 2), flagged: all.filter((c) => c.flagged).length,
    };
  });
}

/** Flagged wallets on the same side of one market within the rule's hours of each other. */
function timedClusters(alerts: readonly InsiderCandidate[]): Record<string, unknown>[] {
  const groups = new Map<string, InsiderCandidate[]>();
  for (const a of alerts) groups.set(`${a.market.conditionId}:${a.side.outcomeIndex}`, [...(groups.get(`${a.market.conditionId}:${a.side.outcomeIndex}`) ?? []), a]);
  const out: Record<string, unknown>[] = [];
  for (const group of groups.values()) {
    const sorted = [...group].sort((a, b) => a.signalTrade.time - b.signalTrade.time);
    let run: InsiderCandidate[] = [];
    const flush = () => {
      if (new Set(run.map((a) => a.account.address)).size >= 2) {
        out.push({
          basis: 'same-side-same-window', question: run[0]!.market.question, conditionId: run[0]!.market.conditionId, side: run[0]!.side.outcome,
          wallets: [...new Set(run.map((a) => a.account.address))], from: iso(run[0]!.signalTrade.time), to: iso(run.at(-1)!.signalTrade.time),
          totalUsd: round(run.reduce((s, a) => s + a.position.usd, 0), 2),
        });
      }
    };
    for (const a of sorted) {
      if (run.length && a.signalTrade.time - run[0]!.signalTrade.time > WHALE_RULES.clusterHours * HOUR) {
        flush();
        run = [];
      }
      run.push(a);
    }
    flush();
  }
  return out;
}

/** The examined positions' trades of the last hours, largest first. */
function recentTrades(scan: InsiderScan): Record<string, unknown>[] {
  const since = scan.asOf - WHALE_RULES.recentHours * HOUR;
  return scan.candidates
    .flatMap((c) => c.trades.filter((t) => t.time > since && t.time <= scan.asOf && t.outcomeIndex === c.side.outcomeIndex).map((t) => ({ c, t })))
    .sort((a, b) => b.t.usd - a.t.usd)
    .map(({ c, t }) => ({
      wallet: c.account.address, question: c.market.question, conditionId: c.market.conditionId, side: t.outcome, direction: t.side,
      usd: t.usd, price: t.price, shares: t.shares, at: iso(t.time), tx: t.tx,
      positionUsd: c.position.usd, flagged: c.flagged, level: c.level,
    }));
}
