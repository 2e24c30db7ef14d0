/**
 * The insider scan: Polymarket positions that look informed. An account takes a large position on
 * one side of a market, and soon after the price moves toward that side; the account is fresh on
 * chain (first funded on Polygon shortly before) and has little history on the venue. Each flag
 * carries its evidence: the account's trades in the market, its first funding (time, amount,
 * sender: read from the chain), its prior trades on the venue, the price before and after the
 * position (from the venue's price history) and the market's outcome once resolved.
 *
 * What is read: the markets (Gamma), each market's trades (Data), the price history of each side
 * bought large (CLOB), each such account's trades (Data) and its first funding (the chain).
 */
import { round } from '../data/market.js';
import type { DataTrade, GammaMarket, PolymarketClient } from './source.js';
import type { AccountFunding, FirstFunding, FundingReading } from './funding.js';
import { matchQuery, polymarketOutcome, unix } from './markets.js';

const HOUR = 3_600;
const DAY = 86_400;

/** The rules, declared once: the code and the methodology both read them. */
export const INSIDER_RULES = {
  /** USD bought on one side of one market for a position to be examined. */
  minPositionUsd: 5_000,
  /** Fresh: first funded on chain less than this many days before the position, */
  freshMaxAgeDays: 30,
  /** and fewer than this many trades on the venue before it. */
  freshMaxPriorTrades: 10,
  /** One-sided: at least this share of the account's USD in the market is on the side. */
  oneSidedShare: 0.8,
  /** A move: the side's price rose at least this much (0-1 price points) after the position, */
  minMove: 0.05,
  /** within this many seconds of it. */
  moveHorizonSeconds: 12 * HOUR,
  /** A rise over this many seconds before the position is news already priced: the position follows it. */
  followWindowSeconds: HOUR,
  /** Minutes per price-history point read. */
  historyFidelityMinutes: 5,
  /** Markets scanned: open ones and those closed within this many days, the busiest first, at most `maxMarkets`. */
  closedWithinDays: 7,
  maxMarkets: 150,
} as const;

/** The score's weights (0-100 in all). */
export const INSIDER_SCORE = { size: 25, freshness: 35, timing: 25, oneSided: 15 } as const;

const R = INSIDER_RULES;
const W = INSIDER_SCORE;

/** The engine and its version, as answers name it. */
export const INSIDER_ENGINE = 'insider-scan/v1';

export const INSIDER_METHODOLOGY =
  `${INSIDER_ENGINE}: a position is an account's buys on one side of one Polymarket market (Data API trades, sells netted); one of at least $${R.minPositionUsd.toLocaleString('en-US')} is examined from the trade that made it that large. ` +
  `Flagged when all hold: fresh (its first USDC funding on Polygon, read from the chain, less than ${R.freshMaxAgeDays} days before that trade, neither after its first venue trade nor at the start of the chain history read, and fewer than ${R.freshMaxPriorTrades} venue trades before it), ` +
  `one-sided (at least ${R.oneSidedShare * 100}% of its USD in the market on that side), and timed: the side's price (CLOB price history, ${R.historyFidelityMinutes}-minute points) rose at least ${R.minMove * 100} points within ${R.moveHorizonSeconds / HOUR} h after it ('high'), ` +
  `or that window is still open with no such rise yet ('watch'). An account whose funding cannot be read on chain is never scored as fresh. ` +
  `Score 0-100, ranking the flags: size ${W.size} x log10(USD/1,000)/log10(50), capped; freshness ${W.freshness} x (0.6 x (1 - age days/${R.freshMaxAgeDays}) + 0.4 x (1 - prior trades/${R.freshMaxPriorTrades})), 0 without a chain-read funding; ` +
  `timing ${W.timing} x min(1, rise/0.2), halved when the rise took over 6 h and reduced by up to half for a rise in the hour before (following news); one-sidedness ${W.oneSided} x (share - 0.5)/0.3, capped. ` +
  `Scope: open markets and those closed within ${R.closedWithinDays} days, the ${R.maxMarkets} busiest by volume, narrowed by the query (its words naming what the scan looks for, such as insider or whale, dropped first).`;

export type InsiderLevel = 'high' | 'watch';

export interface PositionTrade {
  readonly time: number;
  readonly side: 'BUY' | 'SELL';
  readonly outcome: string;
  readonly outcomeIndex: number;
  /** The outcome's token id. */
  readonly asset: string;
  readonly price: number;
  readonly shares: number;
  readonly usd: number;
  readonly tx: string;
}

export interface PriceImpact {
  /** The side's price at the last history point before the trade, and an hour before that. */
  readonly priceBefore: number;
  readonly priceHourBefore: number;
  readonly tradePrice: number;
  /** The highest rise of the side's price above `priceBefore` within the horizon, and when it peaked. */
  readonly maxRise: number;
  readonly peakAt: number | null;
  /** Minutes until the rise first reached the rule's move (null: not within the horizon). */
  readonly minutesToMove: number | null;
  /** The rise within five minutes of the trade. */
  readonly riseIn5m: number;
  /** The horizon has not passed yet (the market is open and the trade recent). */
  readonly windowOpen: boolean;
}

export interface AccountEvidence {
  readonly address: string;
  readonly funding: FundingReading;
  /** Seconds from the first funding read on chain to the position's trade (null without one). */
  readonly ageAtTradeSeconds: number | null;
  /** The funding comes after the account's first venue trade: the chain read does not show its real first funding. */
  readonly fundedAfterFirstTrade: boolean;
  /** The age is known, not only bounded: funded, not censored by the start of the history read, not after its first venue trade. */
  readonly ageKnown: boolean;
  readonly priorTrades: number;
  readonly venueTrades: number;
  readonly firstVenueTradeAt: number | null;
  readonly marketsTraded: number;
}

export interface InsiderCandidate {
  readonly market: { conditionId: string; question: string; slug: string; endDate: string; closed: boolean; volumeUsd: number };
  readonly account: AccountEvidence;
  readonly side: { outcome: string; outcomeIndex: number; tokenId: string };
  readonly position: { usd: number; shares: number; avgPrice: number; sideShare: number };
  /** The trade that made the position large. */
  readonly signalTrade: PositionTrade;
  /** The account's trades in the market, oldest first. */
  readonly trades: readonly PositionTrade[];
  readonly impact: PriceImpact | null;
  readonly outcome: { resolved: boolean; winner: string | null; won: boolean | null };
  readonly checks: { fresh: boolean; oneSided: boolean; timed: boolean; followedNews: boolean };
  readonly flagged: boolean;
  readonly level: InsiderLevel | null;
  readonly score: number;
  readonly scoreParts: { size: number; freshness: number; timing: number; oneSided: number };
  /** Why it is flagged, or which rule it missed. */
  readonly reasons: readonly string[];
}

export interface InsiderScan {
  readonly asOf: number;
  readonly query: { text: string | null; terms: string[]; rule: string };
  /** The markets read. */
  readonly markets: readonly GammaMarket[];
  readonly candidates: readonly InsiderCandidate[];
  /** The flagged candidates, highest score first. */
  readonly alerts: readonly InsiderCandidate[];
  readonly walletsScanned: number;
}

export interface InsiderScanOptions {
  readonly query?: string | undefined;
  /** Unix seconds the scan stands at (default: now). */
  readonly now?: number;
  readonly signal?: AbortSignal | undefined;
}

/** Scans the venue's markets for informed-looking positions. */
export async function insiderScan(venue: PolymarketClient, funding: AccountFunding, options: InsiderScanOptions = {}): Promise<InsiderScan> {
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const signal = options.signal;
  const listed = await venue.markets({}, signal);
  const inScope = listed
    .filter((m) => m.active || (m.closed && unix(m.endDate) >= now - R.closedWithinDays * DAY))
    .sort((a, b) => b.volumeNum - a.volumeNum)
    .slice(0, R.maxMarkets);
  const { markets, query } = polymarketsMatching(inScope, options.query);

  // Every position large enough to examine, market by market.
  const positions = (await inTurn(markets, 6, async (m) => largePositions(m, await venue.trades(m.conditionId, 5_000, signal)))).flat();

  // Each account and each side's price history read once.
  const accounts = new Map<string, Promise<{ trades: DataTrade[]; funding: FundingReading }>>();
  const histories = new Map<string, Promise<{ t: number; p: number }[]>>();
  const accountOf = (a: string) => {
    if (!accounts.has(a)) accounts.set(a, Promise.all([venue.tradesOf(a, 1_000, signal), funding.firstFunding(a)]).then(([trades, f]) => ({ trades, funding: f })));
    return accounts.get(a)!;
  };
  const historyOf = (token: string) => {
    if (!histories.has(token)) histories.set(token, venue.pricesHistory(token, 'max', R.historyFidelityMinutes, signal));
    return histories.get(token)!;
  };
  const candidates = await inTurn(positions, 8, async (p) => {
    const [account, history] = await Promise.all([accountOf(p.account), historyOf(p.side.tokenId)]);
    return judge(p, account, history, now);
  });
  const alerts = candidates.filter((c) => c.flagged).sort((a, b) => b.score - a.score || b.position.usd - a.position.usd);
  return { asOf: now, query, markets, candidates, alerts, walletsScanned: accounts.size };
}

/** Words that name what these scans look for (insiders, whales, conviction), not which market: dropped before the query is matched. */
const SCAN_WORDS = /\b(insiders?|inside|informed|suspicious|unusual|trading|traders?|trades?|whales?|bettors?|wallets?|accounts?|positions?|positioning|conviction|holders?|holding|patient|large|big|concentrat\w*)\b/gi;

/** The Polymarket markets the query names (QUERY_RULE of markets.ts, after dropping the scan's own words); every one when it names none. */
export function polymarketsMatching(markets: readonly GammaMarket[], text: string | undefined) {
  const match = matchQuery(text?.replace(SCAN_WORDS, ' '), markets.map((m) => ({ question: m.question, polymarket: m, kalshi: null })));
  return { markets: match.matched.map((m) => m.polymarket), query: { text: text ?? null, terms: [...match.terms], rule: match.rule } };
}

/** Runs `work` over `items`, at most `width` at a time, keeping their order. */
export async function inTurn<T, U>(items: readonly T[], width: number, work: (item: T) => Promise<U>): Promise<U[]> {
  const out = new Array<U>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return out;
}

interface LargePosition {
  readonly market: GammaMarket;
  readonly account: string;
  readonly side: { outcome: string; outcomeIndex: number; tokenId: string };
  readonly trades: PositionTrade[];
  readonly signalTrade: PositionTrade;
  readonly usd: number;
  readonly shares: number;
  readonly sideShare: number;
}

/** Each account's positions in the market of at least the rule's size, from its trades. */
function largePositions(market: GammaMarket, trades: readonly DataTrade[]): LargePosition[] {
  const byAccount = new Map<string, PositionTrade[]>();
  for (const t of trades) {
    const a = t.proxyWallet.toLowerCase();
    byAccount.set(a, [...(byAccount.get(a) ?? []), positionTrade(t)]);
  }
  const out: LargePosition[] = [];
  for (const [account, own] of byAccount) {
    own.sort((a, b) => a.time - b.time);
    const boughtUsd = own.filter((r) => r.side === 'BUY').reduce((s, r) => s + r.usd, 0);
    for (const outcomeIndex of new Set(own.map((t) => t.outcomeIndex))) {
      const side = own.filter((r) => r.outcomeIndex === outcomeIndex);
      let usd = 0;
      let shares = 0;
      let signal: PositionTrade | undefined;
      for (const row of side) {
        const sign = row.side === 'BUY' ? 1 : -1;
        usd += sign * row.usd;
        shares += sign * row.shares;
        if (!signal && usd >= R.minPositionUsd) signal = row;
      }
      if (!signal || usd < R.minPositionUsd) continue;
      out.push({
        market, account, trades: own, signalTrade: signal, usd, shares,
        side: { outcome: market.outcomes[outcomeIndex] ?? signal.outcome, outcomeIndex, tokenId: market.clobTokenIds[outcomeIndex] ?? signal.asset },
        sideShare: boughtUsd ? side.filter((r) => r.side === 'BUY').reduce((s, r) => s + r.usd, 0) / boughtUsd : 0,
      });
    }
  }
  return out;
}

function positionTrade(t: DataTrade): PositionTrade {
  return {
    time: t.timestamp, side: t.side.toUpperCase() === 'SELL' ? 'SELL' : 'BUY', outcome: t.outcome, outcomeIndex: t.outcomeIndex, asset: t.asset,
    price: t.price, shares: t.size, usd: round(t.size * t.price, 2), tx: t.transactionHash,
  };
}

/** The side's price before and after the trade, from its history. */
export function priceImpact(history: readonly { t: number; p: number }[], trade: { time: number; price: number }, now: number, closed: boolean): PriceImpact | null {
  const points = [...history].sort((a, b) => a.t - b.t);
  if (!points.length) return null;
  const at = (t: number) => {
    let last = points[0]!;
    for (const x of points) {
      if (x.t > t) break;
      last = x;
    }
    return last.p;
  };
  const before = at(trade.time);
  const end = trade.time + R.moveHorizonSeconds;
  let maxRise = 0;
  let peakAt: number | null = null;
  let movedAt: number | null = null;
  let riseIn5m = 0;
  for (const x of points) {
    if (x.t <= trade.time || x.t > end) continue;
    const rise = x.p - before;
    if (rise > maxRise + 1e-9) {
      maxRise = rise;
      peakAt = x.t;
    }
    if (movedAt === null && rise >= R.minMove - 1e-9) movedAt = x.t;
    if (x.t <= trade.time + 300) riseIn5m = Math.max(riseIn5m, rise);
  }
  return {
    priceBefore: before, priceHourBefore: at(trade.time - R.followWindowSeconds), tradePrice: trade.price,
    maxRise: round(maxRise, 4), peakAt, minutesToMove: movedAt === null ? null : Math.round((movedAt - trade.time) / 60), riseIn5m: round(riseIn5m, 4),
    windowOpen: !closed && end > now,
  };
}

function judge(p: LargePosition, account: { trades: DataTrade[]; funding: FundingReading }, history: { t: number; p: number }[], now: number): InsiderCandidate {
  const signal = p.signalTrade;
  const times = account.trades.map((t) => t.timestamp);
  const firstVenueTradeAt = times.length ? Math.min(...times) : null;
  const priorTrades = account.trades.filter((t) => t.timestamp < signal.time).length;
  const funded: FirstFunding | null = account.funding.status === 'funded' ? account.funding.funding : null;
  const fundedAfterFirstTrade = funded !== null && firstVenueTradeAt !== null && funded.time > firstVenueTradeAt;
  const ageAtTradeSeconds = funded ? signal.time - funded.time : null;
  const ageKnown = funded !== null && !funded.censored && !fundedAfterFirstTrade;
  const impact = priceImpact(history, signal, now, p.market.closed);

  const fresh = ageKnown && ageAtTradeSeconds! < R.freshMaxAgeDays * DAY && priorTrades < R.freshMaxPriorTrades;
  const oneSided = p.sideShare >= R.oneSidedShare;
  const moved = impact !== null && impact.minutesToMove !== null;
  const pending = impact !== null && !moved && impact.windowOpen;
  const followedNews = impact !== null && impact.priceBefore - impact.priceHourBefore >= R.minMove;
  const flagged = fresh && oneSided && (moved || pending);
  const level: InsiderLevel | null = !flagged ? null : moved ? 'high' : 'watch';

  const clamp = (x: number) => Math.min(1, Math.max(0, x));
  const ageDays = ageKnown ? ageAtTradeSeconds! / DAY : null;
  const scoreParts = {
    size: round(W.size * clamp(Math.log10(p.usd / 1_000) / Math.log10(50)), 1),
    freshness: ageDays === null ? 0 : round(W.freshness * (0.6 * clamp(1 - ageDays / R.freshMaxAgeDays) + 0.4 * clamp(1 - priorTrades / R.freshMaxPriorTrades)), 1),
    timing: !impact || !moved ? 0 : round(W.timing * clamp(impact.maxRise / 0.2) * (impact.minutesToMove! <= 360 ? 1 : 0.5) * (1 - 0.5 * clamp((impact.priceBefore - impact.priceHourBefore) / 0.2)), 1),
    oneSided: round(W.oneSided * clamp((p.sideShare - 0.5) / 0.3), 1),
  };
  const settled = polymarketOutcome(p.market);
  const resolvedIndex = settled === null ? -1 : settled === 'yes' ? 0 : 1;
  const winner = resolvedIndex >= 0 ? (p.market.outcomes[resolvedIndex] ?? null) : null;
  return {
    market: { conditionId: p.market.conditionId, question: p.market.question, slug: p.market.slug, endDate: p.market.endDate, closed: p.market.closed, volumeUsd: p.market.volumeNum },
    account: { address: p.account, funding: account.funding, ageAtTradeSeconds, fundedAfterFirstTrade, ageKnown, priorTrades, venueTrades: account.trades.length, firstVenueTradeAt, marketsTraded: new Set(account.trades.map((t) => t.conditionId)).size },
    side: p.side,
    position: { usd: round(p.usd, 2), shares: round(p.shares, 4), avgPrice: p.shares ? round(p.usd / p.shares, 4) : 0, sideShare: round(p.sideShare, 4) },
    signalTrade: signal,
    trades: p.trades,
    impact,
    outcome: { resolved: resolvedIndex >= 0, winner, won: resolvedIndex >= 0 ? resolvedIndex === p.side.outcomeIndex : null },
    checks: { fresh, oneSided, timed: moved || pending, followedNews },
    flagged, level,
    score: round(scoreParts.size + scoreParts.freshness + scoreParts.timing + scoreParts.oneSided, 1),
    scoreParts,
    reasons: reasons(p, { fresh, oneSided, moved, pending, impact, account: account.funding, ageDays, priorTrades, fundedAfterFirstTrade }),
  };
}

function reasons(p: LargePosition, c: { fresh: boolean; oneSided: boolean; moved: boolean; pending: boolean; impact: PriceImpact | null; account: FundingReading; ageDays: number | null; priorTrades: number; fundedAfterFirstTrade: boolean }): string[] {
  const out: string[] = [`$${Math.round(p.usd).toLocaleString('en-US')} on ${p.side.outcome}`];
  if (c.account.status !== 'funded') out.push(`funding on chain ${c.account.status === 'none' ? 'not found' : 'unreadable'}: ${c.account.reason}; not scored as fresh`);
  else if (c.fundedAfterFirstTrade) out.push('first funding on chain comes after its first venue trade: its real first funding is not in the history read; not scored as fresh');
  else if (c.account.funding.censored) out.push('first funding on chain lies at the start of the history read: it may be older; not scored as fresh');
  else out.push(`funded ${round(c.ageDays!, 2)} days before, ${c.priorTrades} prior venue trades: ${c.fresh ? 'fresh' : 'not fresh'}`);
  out.push(`${round(p.sideShare * 100, 1)}% of its USD in the market on this side: ${c.oneSided ? 'one-sided' : 'not one-sided'}`);
  if (!c.impact) out.push('no price history for the side');
  else if (c.moved) out.push(`price rose ${round(c.impact.maxRise * 100, 1)} points after, ${R.minMove * 100} points within ${c.impact.minutesToMove} min`);
  else if (c.pending) out.push(`no rise of ${R.minMove * 100} points yet; the ${R.moveHorizonSeconds / HOUR} h window is still open`);
  else out.push(`no rise of ${R.minMove * 100} points within ${R.moveHorizonSeconds / HOUR} h (highest ${round(c.impact.maxRise * 100, 1)})`);
  return out;
}
