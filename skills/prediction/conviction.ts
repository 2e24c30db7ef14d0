/**
 * The conviction scanner: where large, patient positions concentrate in open Polymarket markets.
 * Per market and side: the largest holders (Data API /holders), each one's position (size, average
 * entry, value, from /positions), how long it has held (its first buy in the market, from its
 * trades), how much of its exposure in the market is on that side, and how much of the side the
 * top holders hold. A conviction holder puts at least 80% of its exposure in the market on one side,
 * holds at least $1,000 there and has held a day or more. Markets rank by CONVICTION_SCORE.
 */
import { round } from '../data/market.js';
import { inTurn, polymarketsMatching } from './insiders.js';
import { isOpen } from './markets.js';
import type { DataPosition, DataTrade, GammaMarket, PolymarketClient } from './source.js';

const HOUR = 3_600;

export const CONVICTION_RULES = {
  /** Holders read per outcome. */
  holdersPerOutcome: 20,
  /** A position counts when it cost at least this; a holder of fewer shares is not read (a share costs at most $1). */
  minPositionUsd: 1_000,
  /** Share of an account's cost in the market on one side for it to hold with conviction. */
  convictionShare: 0.8,
  /** Held at least this long since its first buy in the market. */
  patientHours: 24,
  /** The holders whose share of the side is given. */
  topHolders: 5,
  /** Open markets read, the busiest first. */
  maxMarkets: 60,
} as const;

const R = CONVICTION_RULES;

export const CONVICTION_SCORE =
  `score 0-100 on the side where conviction holders hold most: 50 x min(1, log10(their cost USD / 1,000) / 2) + 25 x the top ${R.topHolders} holders' share of the side's listed shares + 25 x min(1, their mean days held / 7)`;

export const CONVICTION_METHODOLOGY =
  `conviction-scanner/v1 (Polymarket): open markets (the ${R.maxMarkets} busiest, narrowed by the query), each side's ${R.holdersPerOutcome} largest holders (Data API /holders); a holder of ${R.minPositionUsd.toLocaleString('en-US')} shares or more (fewer, at $1 a share at most, cannot have cost $${R.minPositionUsd.toLocaleString('en-US')}) is read: its positions (/positions: size, average entry, value, PnL) and trades (/trades: its first buy in the market gives the time held). ` +
  `Conviction: at least ${R.convictionShare * 100}% of its cost in the market on the side, a cost of $${R.minPositionUsd.toLocaleString('en-US')} or more, held ${R.patientHours} h or more. Per side: listed holders and shares, the top ${R.topHolders}' share, conviction holders, their cost, share-weighted average entry and mean time held, and whether they hold half the side's listed shares or more (concentrates); ${CONVICTION_SCORE}`;

export interface ConvictionHolder {
  readonly wallet: string;
  readonly shares: number;
  readonly avgEntry: number | null;
  readonly costUsd: number | null;
  readonly valueUsd: number | null;
  readonly pnlUsd: number | null;
  readonly firstBuyAt: number | null;
  readonly heldHours: number | null;
  readonly buys: number;
  /** Share of its cost in this market on this side (0-1). */
  readonly marketShare: number | null;
  /** Share of its cost across all its positions on this side of this market (0-1). */
  readonly portfolioShare: number | null;
  readonly conviction: boolean;
  /** Why its position was not read: too few shares to have cost the rule's minimum. */
  readonly unread: string | null;
}

export interface ConvictionSide {
  readonly outcome: string;
  readonly outcomeIndex: number;
  readonly price: number | null;
  readonly holdersListed: number;
  readonly sharesListed: number;
  readonly topShare: number | null;
  readonly convictionHolders: number;
  readonly convictionUsd: number;
  readonly convictionShares: number;
  readonly avgEntry: number | null;
  readonly meanHeldHours: number | null;
  /** Conviction holders hold half the side's listed shares or more. */
  readonly concentrates: boolean;
  readonly holders: readonly ConvictionHolder[];
}

export interface ConvictionMarket {
  /** The Gamma market id. */
  readonly id: string;
  readonly question: string;
  readonly conditionId: string;
  readonly slug: string;
  readonly closesAt: string;
  readonly volumeUsd: number;
  /** The side where conviction holders hold most (null: none hold with conviction). */
  readonly side: string | null;
  readonly score: number;
  readonly scoreParts: { readonly conviction: number; readonly concentration: number; readonly patience: number };
  readonly sides: readonly ConvictionSide[];
}

export interface ConvictionScan {
  readonly asOf: number;
  readonly query: { text: string | null; terms: string[]; rule: string };
  readonly openMarkets: number;
  readonly markets: readonly ConvictionMarket[];
  readonly walletsRead: number;
}

export async function convictionScan(venue: PolymarketClient, options: { query?: string | undefined; now: number; signal?: AbortSignal | undefined }): Promise<ConvictionScan> {
  const { now, signal } = options;
  const open = (await venue.markets({}, signal)).filter((m) => isOpen(m, now)).sort((a, b) => b.volumeNum - a.volumeNum).slice(0, R.maxMarkets);
  const { markets, query } = polymarketsMatching(open, options.query);
  const accounts = new Map<string, Promise<{ positions: DataPosition[]; trades: DataTrade[] }>>();
  const accountOf = (a: string) => {
    if (!accounts.has(a)) accounts.set(a, Promise.all([venue.positions(a, signal), venue.tradesOf(a, 1_000, signal)]).then(([positions, trades]) => ({ positions, trades })));
    return accounts.get(a)!;
  };
  const rows = await inTurn(markets, 6, async (m) => {
    const holders = await venue.holders(m.conditionId, R.holdersPerOutcome, signal);
    const sides = await Promise.all(m.outcomes.map((outcome, i) => side(m, outcome, i, holders.filter((h) => h.outcomeIndex === i), accountOf, now)));
    return scoreMarket(m, sides);
  });
  rows.sort((a, b) => b.score - a.score || b.volumeUsd - a.volumeUsd);
  return { asOf: now, query, openMarkets: open.length, markets: rows, walletsRead: accounts.size };
}

async function side(
  m: GammaMarket, outcome: string, index: number, listed: readonly { proxyWallet: string; amount: number }[],
  accountOf: (a: string) => Promise<{ positions: DataPosition[]; trades: DataTrade[] }>, now: number,
): Promise<ConvictionSide> {
  const price = m.outcomePrices[index] ?? null;
  const sorted = [...listed].sort((a, b) => b.amount - a.amount);
  const holders = await Promise.all(sorted.map(async (h): Promise<ConvictionHolder> => {
    const wallet = h.proxyWallet.toLowerCase();
    const blank = { wallet, shares: h.amount, avgEntry: null, costUsd: null, valueUsd: null, pnlUsd: null, firstBuyAt: null, heldHours: null, buys: 0, marketShare: null, portfolioShare: null, conviction: false };
    if (h.amount < R.minPositionUsd) return { ...blank, unread: `${round(h.amount, 2)} shares cannot have cost $${R.minPositionUsd.toLocaleString('en-US')} (at most $1 a share)` };
    const { positions, trades } = await accountOf(wallet);
    const inMarket = positions.filter((p) => p.conditionId === m.conditionId);
    const own = inMarket.find((p) => p.outcomeIndex === index);
    const cost = (p: DataPosition) => p.size * p.avgPrice;
    const costHere = own ? cost(own) : 0;
    const marketCost = inMarket.reduce((s, p) => s + cost(p), 0);
    const allCost = positions.reduce((s, p) => s + cost(p), 0);
    const buys = trades.filter((t) => t.conditionId === m.conditionId && t.outcomeIndex === index && t.side.toUpperCase() !== 'SELL');
    const firstBuyAt = buys.length ? Math.min(...buys.map((t) => t.timestamp)) : null;
    const heldHours = firstBuyAt === null ? null : (now - firstBuyAt) / HOUR;
    const marketShare = marketCost ? costHere / marketCost : null;
    return {
      wallet, shares: own?.size ?? h.amount, avgEntry: own ? own.avgPrice : null, costUsd: own ? round(costHere, 2) : null,
      valueUsd: own ? own.currentValue : null, pnlUsd: own ? own.cashPnl : null,
      firstBuyAt, heldHours: heldHours === null ? null : round(heldHours, 1), buys: buys.length,
      marketShare: marketShare === null ? null : round(marketShare, 4), portfolioShare: allCost ? round(costHere / allCost, 4) : null,
      conviction: marketShare !== null && marketShare >= R.convictionShare && costHere >= R.minPositionUsd && heldHours !== null && heldHours >= R.patientHours,
      unread: null,
    };
  }));
  const sharesListed = sorted.reduce((s, h) => s + h.amount, 0);
  const top = sorted.slice(0, R.topHolders).reduce((s, h) => s + h.amount, 0);
  const strong = holders.filter((h) => h.conviction);
  const convictionShares = strong.reduce((s, h) => s + h.shares, 0);
  return {
    outcome, outcomeIndex: index, price,
    holdersListed: sorted.length, sharesListed: round(sharesListed, 4), topShare: sharesListed ? round(top / sharesListed, 4) : null,
    convictionHolders: strong.length,
    convictionUsd: round(strong.reduce((s, h) => s + h.costUsd!, 0), 2),
    convictionShares: round(convictionShares, 4),
    avgEntry: convictionShares ? round(strong.reduce((s, h) => s + h.avgEntry! * h.shares, 0) / convictionShares, 4) : null,
    meanHeldHours: strong.length ? round(strong.reduce((s, h) => s + h.heldHours!, 0) / strong.length, 1) : null,
    concentrates: sharesListed > 0 && convictionShares / sharesListed >= 0.5,
    holders,
  };
}

function scoreMarket(m: GammaMarket, sides: ConvictionSide[]): ConvictionMarket {
  const lead = [...sides].sort((a, b) => b.convictionUsd - a.convictionUsd)[0];
  const strong = lead && lead.convictionHolders > 0 ? lead : undefined;
  const clamp = (x: number) => Math.min(1, Math.max(0, x));
  const scoreParts = {
    conviction: strong ? round(50 * clamp(Math.log10(strong.convictionUsd / 1_000) / 2), 1) : 0,
    concentration: strong ? round(25 * (strong.topShare ?? 0), 1) : 0,
    patience: strong ? round(25 * clamp((strong.meanHeldHours ?? 0) / 24 / 7), 1) : 0,
  };
  return {
    id: m.id, question: m.question, conditionId: m.conditionId, slug: m.slug, closesAt: m.endDate, volumeUsd: m.volumeNum,
    side: strong?.outcome ?? null,
    score: round(scoreParts.conviction + scoreParts.concentration + scoreParts.patience, 1),
    scoreParts, sides,
  };
}
