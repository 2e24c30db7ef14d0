/**
 * Investment ideas for one chain, methodology `investment-report/v2`: every token with at least
 * MIN_LIQUIDITY_USD of priced liquidity that passes the screen (`screen/v1`: no honeypot, no
 * high tax, no live mint/blacklist/pause owner) is scored on three signals over the period, each
 * as its percentile rank among the candidates: price momentum (change %), turnover (volume /
 * liquidity) and smart-money net buying (`smart-money/v2` wallets). The score is their weighted
 * mean; every idea states the figures behind it and its risks (the screen's findings first, then
 * what the index shows). Tokens that fail the screen are listed apart with theirs. The overview's
 * top gainer and loser are the gainers' and losers' rankings' first among the liquid tokens
 * (data/rankings.ts), through the screen as those rankings apply it; none qualifying is said.
 */
import type { Checkpoint } from '../../indexer/reader.js';
import type { Store } from '../../store/store.js';
import { dexCapital } from '../dex-capital/engine.js';
import { round, type Market } from '../data/market.js';
import type { Period } from '../data/periods.js';
import { RANKING_RULES, changeSpan, qualifying, tokenRows, type TokenRow } from '../data/rankings.js';
import { SCREEN_VERSION, screenTokens, type RowScreen, type Screen } from '../data/screening.js';
import { SMART_MONEY_METHODOLOGY, isSmartMoney, walletRecords } from '../smart-money/engine.js';

export const MIN_LIQUIDITY_USD = 100_000;
export const THIN_LIQUIDITY_USD = 250_000;
export const WEIGHTS = { momentum: 0.4, smartMoney: 0.35, turnover: 0.25 } as const;
export const INVESTMENT_METHODOLOGY = `investment-report/v2 (tokens with >= $${MIN_LIQUIDITY_USD.toLocaleString('en-US')} priced liquidity that pass ${SCREEN_VERSION}; percentile ranks of momentum ${WEIGHTS.momentum}, smart-money net buying ${WEIGHTS.smartMoney}, turnover ${WEIGHTS.turnover}; market/v1 figures; ${SMART_MONEY_METHODOLOGY.split(' ')[0]})`;

export interface Idea {
  token: string;
  symbol: string | null;
  score: number;
  signals: { changePct: number | null; changeSince: string | null; turnover: number; smartMoneyNetUsd: number; smartWallets: number; liquidityUsd: number; volumeUsd: number; priceUsd: number };
  thesis: string[];
  /** False when the screen could not determine the token (its risks say what is unknown). */
  screened: boolean;
  risks: string[];
}

/** The overview's top mover: what leads a ranking, or why nothing does; `qualified` counts before the screen. */
export type Mover =
  | ({ available: true; criterion: string; qualified: number; token: string; symbol: string | null; changePct: number; changeSince: string | null } & RowScreen)
  | { available: false; criterion: string; qualified: number; reason: string };

/**
 * The first of `rows` that is a gainer (or loser) by the rankings' own rule. Gainers leave out
 * tokens failing the screen (a gain that cannot be taken); losers keep them, flagged.
 */
function topMover(rows: readonly TokenRow[], side: 'gainers' | 'losers', screen: Screen, chain: string, period: Period): Mover {
  const ranked = qualifying(rows, side);
  const listed = side === 'gainers' ? ranked.filter((r) => screen.passes(chain, r.token)) : ranked;
  const liquid = `with at least $${MIN_LIQUIDITY_USD.toLocaleString('en-US')} of priced liquidity`;
  const criterion = `${RANKING_RULES[side].criterion}, ${liquid}`;
  const top = listed[0];
  if (!top) {
    const reason = ranked.length
      ? `every token on ${chain} ${liquid} that ${RANKING_RULES[side].criterion} over ${period} fails the screen`
      : `no token on ${chain} ${liquid} ${RANKING_RULES[side].criterion} over ${period}`;
    return { available: false, criterion, qualified: ranked.length, reason };
  }
  return { available: true, criterion, qualified: ranked.length, token: top.token, symbol: top.symbol, changePct: top.changePct!, changeSince: top.changeSince, ...screen.row(chain, top.token) };
}

export async function investmentIdeas(market: Market, checkpoint: Checkpoint, period: Period, fromBlock: number, store: Store) {
  const [rows, records, capital] = await Promise.all([tokenRows(market, checkpoint, period, fromBlock), walletRecords(market, fromBlock), dexCapital(market, fromBlock)]);
  // Only tokens that pass the screen are ranked: a failing one must not shift the others' percentiles either.
  const liquid = rows.filter((r) => r.liquidityUsd >= MIN_LIQUIDITY_USD);
  const chain = market.chain.name;
  const screen = await screenTokens(market, liquid.map((r) => r.token), store);
  const candidates = liquid.filter((r) => screen.passes(chain, r.token));
  const excluded = liquid.filter((r) => !screen.passes(chain, r.token));
  const smart = [...records.values()].filter(isSmartMoney);
  const flows = new Map<string, { net: number; wallets: number }>();
  for (const r of smart) {
    for (const [token, f] of r.recent) {
      const agg = flows.get(token) ?? { net: 0, wallets: 0 };
      agg.net += f.boughtUsd - f.soldUsd;
      agg.wallets++;
      flows.set(token, agg);
    }
  }
  const signal = (r: TokenRow) => ({
    momentum: r.changePct ?? 0,
    turnover: r.liquidityUsd > 0 ? r.volumeUsd / r.liquidityUsd : 0,
    smartMoney: flows.get(r.token.toLowerCase())?.net ?? 0,
  });
  const values = candidates.map(signal);
  const rank = (key: keyof typeof WEIGHTS, v: number) => {
    const all = values.map((x) => x[key]);
    return all.length <= 1 ? 0.5 : all.filter((x) => x < v).length / (all.length - 1);
  };
  const ideas: Idea[] = candidates.map((r, i) => {
    const s = values[i]!;
    const flow = flows.get(r.token.toLowerCase());
    const score = WEIGHTS.momentum * rank('momentum', s.momentum) + WEIGHTS.smartMoney * rank('smartMoney', s.smartMoney) + WEIGHTS.turnover * rank('turnover', s.turnover);
    const thesis: string[] = [];
    if (r.changePct !== null) thesis.push(`price ${r.changePct >= 0 ? 'up' : 'down'} ${Math.abs(round(r.changePct, 2))}% ${changeSpan(r, checkpoint, period)}`);
    if (flow && flow.net !== 0) thesis.push(`smart money net ${flow.net > 0 ? 'bought' : 'sold'} $${Math.abs(round(flow.net, 0)).toLocaleString('en-US')} (${flow.wallets} wallet${flow.wallets === 1 ? '' : 's'})`);
    thesis.push(`traded ${round(s.turnover, 2)}x its liquidity`);
    const risks: string[] = [...screen.of(chain, r.token).risks];
    if (r.liquidityUsd < THIN_LIQUIDITY_USD) risks.push(`thin liquidity: $${round(r.liquidityUsd, 0).toLocaleString('en-US')}`);
    if (flow && flow.net < 0) risks.push('smart money is selling');
    if (r.changePct !== null && r.changePct < -20) risks.push(`fell ${Math.abs(round(r.changePct, 1))}% ${changeSpan(r, checkpoint, period)}`);
    if (r.trades === 0) risks.push('no trades in the period');
    return {
      token: r.token,
      symbol: r.symbol,
      score: round(score, 4),
      signals: { changePct: r.changePct, changeSince: r.changeSince, turnover: round(s.turnover, 4), smartMoneyNetUsd: round(s.smartMoney, 2), smartWallets: flow?.wallets ?? 0, liquidityUsd: r.liquidityUsd, volumeUsd: r.volumeUsd, priceUsd: r.priceUsd },
      thesis,
      screened: screen.of(chain, r.token).screened,
      risks,
    };
  });
  ideas.sort((a, b) => b.score - a.score);
  return {
    overview: {
      tokensPriced: rows.length,
      candidates: candidates.length,
      liquidityUsd: round(capital.dexes.reduce((s, d) => s + d.tvlUsd, 0), 2),
      volumeUsd: round(capital.dexes.reduce((s, d) => s + d.volumeUsd, 0), 2),
      smartWallets: smart.length,
      topGainer: topMover(liquid, 'gainers', screen, chain, period),
      topLoser: topMover(liquid, 'losers', screen, chain, period),
    },
    ideas,
    excluded: excluded.map((r) => ({ token: r.token, symbol: r.symbol, liquidityUsd: r.liquidityUsd, changePct: r.changePct, ...screen.row(chain, r.token) })),
    screen: screen.summary('excluded', excluded.length),
  };
}
