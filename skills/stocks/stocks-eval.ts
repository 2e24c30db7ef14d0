/**
 * The tokenized-equity engines judged against the world's labels and its true prices (only the
 * evaluation reads them): fair value (feed x multiplier, as the boards compute it) against the true
 * fair value (the underlying's path x the multiplier that should be in effect) at a block of the
 * feeds' chain in every in-session hour of the history, each wrapper read at the multiplier its chain carried then; the impostors,
 * the under-reserved issuer and the lagging wrappers the trust board finds; the early buyers the
 * board lists for each new listing. Wrappers whose multiplier lagged an action are left out of the
 * fair-value error while they lag: the lag is scored as its own detection.
 */
import type { StockLabels } from '../../world/modules/stocks.js';
import { fairValueUsd } from '../../world/stocks/plan.js';
import type { StockPaths } from '../../world/stocks/underlyings.js';
import { inSession } from '../../lib/market-hours.js';
import type { SkillContext } from '../core/context.js';
import { multiplierAt } from './event-risk.js';
import { feedRounds, priceAt } from './history.js';
import { loadStockMarkets } from './stock-market.js';
import { readBoard } from './boards.js';
import { MULTIPLIER_LAG_HOURS } from './trust.js';

type Section = NonNullable<StockLabels['stocks']>;

export interface StockEvaluation {
  /** Predicted and labelled members per detector (keys lower-case). */
  readonly detections: Record<'stockImpostors' | 'stockUnderReserved' | 'stockLagging' | 'stockEarlyBuyers', { predicted: Set<string>; actual: Set<string> }>;
  /** How the early buyers fared: the board's realised result against the labelled one, for each labelled buyer that sold. */
  readonly earlyBuyerPnl: { compared: number; meanAbsDiffUsd: number | null; maxAbsDiffUsd: number | null };
  /** Fair value's error against the truth, percent of the truth, over in-session hours. */
  readonly fairValueError: { samples: number; meanPct: number | null; maxPct: number | null; p99Pct: number | null };
}

const HOUR = 3_600;

/** Scores the boards on a world whose chains `ctx` reads, with each chain's `stocks` label section. */
export async function evaluateStocks(ctx: SkillContext, sections: readonly { chain: string; stocks: Section }[], paths: StockPaths): Promise<StockEvaluation> {
  const markets = await loadStockMarkets(ctx);
  const labelled = sections.flatMap((s) => s.stocks.tokens.map((t) => ({ ...t, chain: s.chain })));
  const key = (chain: string, address: string) => `${chain}:${address.toLowerCase()}`;

  const impostors = { predicted: new Set(markets.impostors.map((i) => key(i.chain, i.address))), actual: new Set(sections.flatMap((s) => s.stocks.impostors.map((i) => key(s.chain, i.token)))) };

  const trust = await readBoard({ board: 'wrapper-trust' }, markets);
  const short = (flags: readonly string[]) => flags.includes('under-reserved') || flags.includes('stale-attestation') || flags.includes('no-attestation');
  const underReserved = {
    predicted: new Set((trust.issuers ?? []).filter((i) => i.tokens.some((t) => short(t.flags))).map((i) => key(i.chain, i.issuer))),
    actual: new Set(sections.flatMap((s) => s.stocks.issuers.filter((i) => i.status === 'under-reserved').map((i) => key(s.chain, i.address)))),
  };

  // Lagging: every wrapper the labels show applying an action later than the allowance, or not yet.
  const lagging = { predicted: new Set(markets.stocks.filter((s) => s.lag).map((s) => key(s.chain, s.address))), actual: new Set<string>() };
  for (const { chain, stocks } of sections) {
    for (const e of stocks.events) {
      if (e.at > markets.at) continue;
      for (const a of e.applied) if (a.effectiveAt - e.at > MULTIPLIER_LAG_HOURS * HOUR) lagging.actual.add(key(chain, a.token));
    }
  }

  // Early buyers, per labelled listing with buyers: the board's wallets against the labelled ones.
  // Retail buying in a listing's first hours is among its first buyers too, and is not labelled:
  // recall is the measure, precision only reported; how each labelled buyer fared is compared.
  const earlyBuyers = { predicted: new Set<string>(), actual: new Set<string>() };
  const pnlDiffs: number[] = [];
  const listings = new Set(sections.flatMap((s) => s.stocks.earlyBuyers.map((b) => b.token.toLowerCase())));
  for (const token of listings) {
    const board = await readBoard({ board: 'early-buyers', token }, markets);
    const rows = new Map((board.earlyBuyers ?? []).map((b) => [b.wallet.toLowerCase(), b]));
    for (const wallet of rows.keys()) earlyBuyers.predicted.add(`${token}:${wallet}`);
    for (const s of sections) {
      // The labels live on with the world; the boards read each chain at its index's checkpoint.
      const read = markets.chains.find((c) => c.loaded.chain.name === s.chain)?.loaded.checkpoint.block ?? -1;
      for (const b of s.stocks.earlyBuyers) {
        if (b.token.toLowerCase() !== token || b.buyBlock > read) continue;
        earlyBuyers.actual.add(`${token}:${b.buyer.toLowerCase()}`);
        const row = rows.get(b.buyer.toLowerCase());
        // A sale after the checkpoint is not in what the board read: nothing realised yet there.
        const realised = b.realisedPnlUsd === null ? null : b.sellBlock !== null && b.sellBlock <= read ? b.realisedPnlUsd : 0;
        if (row && realised !== null) pnlDiffs.push(Math.abs(row.realizedUsd - realised));
      }
    }
  }

  // Fair value at every in-session hour, as the boards compute it, against the truth.
  const feedChain = markets.chains.find((c) => c.loaded.chain.name === markets.feedChain?.chain)!.loaded;
  const rounds = await feedRounds(feedChain.chain, markets.feeds, feedChain.checkpoint.block);
  // A wrapper that applies an action late (or has not yet) is valued by the boards at the multiplier
  // it owes, not the one it carries: its own-multiplier value is not sampled in that window.
  const lagWindows = sections.flatMap((s) => s.stocks.events.filter((e) => e.ratio !== null || e.usdPerShare !== null).flatMap((e) => [
    ...e.applied.filter((a) => a.effectiveAt - e.at > 0).map((a) => ({ token: a.token.toLowerCase(), from: e.at, until: a.effectiveAt })),
    ...s.stocks.tokens
      .filter((t) => !t.impostor && t.underlying === e.underlying && t.listedAt < e.at && !e.applied.some((a) => a.token.toLowerCase() === t.address.toLowerCase()))
      .map((t) => ({ token: t.address.toLowerCase(), from: e.at, until: Infinity })),
  ]));
  // Sampled at blocks of the feeds' chain (the first each hour), the moments a reader reads at: the
  // world posts a round in the block it sees the move, and a board reads the feed at a block.
  const moments: number[] = [];
  for (let h = Math.ceil((markets.at - 40 * 86_400) / HOUR) * HOUR; h <= markets.at; h += HOUR) {
    const [first] = await ctx.store.sortedRange(feedChain.market.reader.keys.times, h, h + HOUR - 1, 1);
    if (first && inSession(first.score)) moments.push(first.score);
  }
  const errors: number[] = [];
  for (const s of markets.stocks) {
    const label = labelled.find((t) => t.chain === s.chain && t.address.toLowerCase() === s.address.toLowerCase());
    const own = markets.chains.find((c) => c.loaded.chain.name === s.chain)!.multipliers.filter((c) => c.token.toLowerCase() === s.address.toLowerCase());
    const feed = rounds.get(s.underlying) ?? [];
    if (!label || !feed.length) continue;
    for (const t of moments) {
      if (t < label.listedAt || lagWindows.some((w) => w.token === s.address.toLowerCase() && t >= w.from && t < w.until)) continue;
      const underlying = priceAt(feed, t);
      if (underlying === null) continue;
      const engine = underlying * multiplierAt(own, s.multiplier, t);
      const truth = fairValueUsd(paths, s.underlying, label.listedAt, t);
      errors.push(Math.abs(engine / truth - 1) * 100);
    }
  }
  errors.sort((a, b) => a - b);
  return {
    detections: { stockImpostors: impostors, stockUnderReserved: underReserved, stockLagging: lagging, stockEarlyBuyers: earlyBuyers },
    earlyBuyerPnl: { compared: pnlDiffs.length, meanAbsDiffUsd: pnlDiffs.length ? pnlDiffs.reduce((a, b) => a + b, 0) / pnlDiffs.length : null, maxAbsDiffUsd: pnlDiffs.length ? Math.max(...pnlDiffs) : null },
    fairValueError: {
      samples: errors.length,
      meanPct: errors.length ? errors.reduce((a, b) => a + b, 0) / errors.length : null,
      maxPct: errors.at(-1) ?? null,
      p99Pct: errors.length ? errors[Math.min(errors.length - 1, Math.floor(errors.length * 0.99))]! : null,
    },
  };
}
