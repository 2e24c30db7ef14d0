/**
 * The market board of the free tools: 24 h gainers and losers of tradeable tokens across every
 * indexed chain and per chain (only tokens that rose, or fell, and traded; gainers leave out
 * tokens failing the screen), with how many qualified; and sentiment as the
 * breadth of those tokens with the altcoin season reading. A chain that cannot be read is listed.
 */
import { altcoinSeason, altseasonSources } from '../altseason/engine.js';
import { round, TRADEABLE_LIQUIDITY_USD } from '../data/market.js';
import { PERIODS } from '../data/periods.js';
import { qualifying, tokenRows, type TokenRow } from '../data/rankings.js';
import { screenList } from '../data/screening.js';
import type { SkillContext } from '../core/context.js';
import { FREE_ROWS } from '../core/params.js';
import { indexSource, loadAllMarkets, periodStartBlock } from '../data/load.js';

/** Movers need tradeable size: thinner tokens swing on noise. */
export const MOVER_MIN_LIQUIDITY_USD = TRADEABLE_LIQUIDITY_USD;
/** The row cap a snapshot keeps per list (free tools cut to the caller's limit, at most this). */
const SNAPSHOT_ROWS = FREE_ROWS.max;

export async function topMovers(ctx: SkillContext) {
  const { loaded, unavailable } = await loadAllMarkets(ctx);
  const perChain: Record<string, unknown> = {};
  const all: (TokenRow & { chain: string })[] = [];
  let universe = 0;
  const markets = new Map(loaded.map((l) => [l.chain.name as string, l.market]));
  const locate = (r: { chain: string; token: string }) => ({ market: markets.get(r.chain)!, token: r.token });
  // Only what the list's name says (data/rankings.ts): gainers rose and traded, losers fell and traded.
  // Gainers leave out tokens that fail the screen (their gain cannot be taken); losers keep and flag them.
  const board = async (rows: (TokenRow & { chain: string })[]) => {
    const [up, down] = [qualifying(rows, 'gainers'), qualifying(rows, 'losers')];
    const [gainers, losers] = await Promise.all([screenList(ctx.store, up, locate, SNAPSHOT_ROWS, 'excluded'), screenList(ctx.store, down, locate, SNAPSHOT_ROWS, 'flagged')]);
    return { gainers: gainers.listed, losers: losers.listed, qualified: { gainers: up.length, losers: down.length }, excludedByScreen: gainers.excluded, screen: { gainers: gainers.screen, losers: losers.screen } };
  };
  for (const l of loaded) {
    const fromBlock = await periodStartBlock(l.market, l.checkpoint, '24h');
    const rows = await tokenRows(l.market, l.checkpoint, '24h', fromBlock);
    universe += rows.length;
    const cohort = rows.filter((r) => r.changePct !== null && r.liquidityUsd >= MOVER_MIN_LIQUIDITY_USD).map((r) => ({ chain: l.chain.name as string, ...r }));
    all.push(...cohort);
    const { gainers, losers, qualified } = await board(cohort);
    perChain[l.chain.name] = { source: indexSource(l), cohortSize: cohort.length, qualified, gainers, losers };
  }
  const cross = await board(all);
  return {
    window: '24h',
    minLiquidityUsd: MOVER_MIN_LIQUIDITY_USD,
    source: loaded.map(indexSource).join(', '),
    idSource: 'token contract addresses of the index',
    screen: cross.screen,
    excludedByScreen: cross.excludedByScreen,
    perChainUnavailable: unavailable,
    crossAsset: { gainers: cross.gainers, losers: cross.losers, qualified: cross.qualified, cohortSize: all.length, universeSize: universe },
    perChain,
    errors: unavailable.map((u) => ({ leg: u.chain, reason: u.reason })),
  };
}

/** Sentiment derived from the markets Sibyl indexes; sources it does not have are said unavailable. */
export async function marketSentiment(ctx: SkillContext) {
  const { loaded } = await loadAllMarkets(ctx);
  const now = new Date().toISOString();
  let up = 0;
  let counted = 0;
  let sum = 0;
  for (const l of loaded) {
    const fromBlock = await periodStartBlock(l.market, l.checkpoint, '24h');
    for (const r of await tokenRows(l.market, l.checkpoint, '24h', fromBlock)) {
      if (r.changePct === null || r.liquidityUsd < MOVER_MIN_LIQUIDITY_USD) continue;
      counted++;
      sum += r.changePct;
      if (r.changePct > 0) up++;
    }
  }
  const base = loaded.find((l) => l.chain.name === 'base') ?? loaded[0];
  const season = base ? await altcoinSeason(base.market, await periodStartBlock(base.market, base.checkpoint, '30d'), base.checkpoint.timestamp - PERIODS['30d'].seconds, altseasonSources(base.market, ctx.store)) : null;
  const index = counted ? Math.round((up / counted) * 100) : null;
  return {
    crypto: counted
      ? { available: true, index, label: index! >= 75 ? 'extreme greed' : index! >= 55 ? 'greed' : index! > 45 ? 'neutral' : index! > 25 ? 'fear' : 'extreme fear', breadthUp: up, tokens: counted, averageChangePct: round(sum / counted, 4), window: '24h', method: `share of liquid tokens (>= $${MOVER_MIN_LIQUIDITY_USD.toLocaleString('en-US')}) up over 24 h across the indexed chains`, source: loaded.map(indexSource).join(', ') }
      : { available: false, reason: 'no liquid token has a 24 h price change yet' },
    cmc: { available: false, reason: 'no CoinMarketCap feed on this deployment' },
    tradfi: { available: false, reason: 'no traditional-markets feed on this deployment' },
    altcoinSeason: season ?? { available: false, reason: 'no chain is indexed yet' },
    fetchedAt: { crypto: now, cmc: null, tradfi: null, altcoinSeason: now },
  };
}
