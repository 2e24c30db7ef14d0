/**
 * The social-hype snapshot (get_social_hype): the feed's posts of the last day on its chain
 * (BSC), per token, with the market's figures for the token (`market/v1`: one price per asset)
 * and the security engine's reading of its liquidity for the shill warning.
 */
import { formatUnits } from 'viem';
import type { SocialFeed, SocialPost } from '../../world/social/feed.js';
import type { SkillContext } from '../core/context.js';
import { loadAllMarkets, periodStartBlock, type LoadedMarket } from '../data/load.js';
import { indexProvenance } from '../data/provenance.js';
import { round, type Market } from '../data/market.js';
import { liquidityOf } from '../data/rankings.js';
import { periodChangePct } from '../data/pricing.js';
import { poolLiquidity } from '../security/liquidity.js';
import { SOCIAL_METHODOLOGY, SOCIAL_RULES, shillWarning, summaries, tokenSocial } from './engine.js';

export const SOCIAL_WINDOW_SECONDS = 24 * 3600;
/** Rows a snapshot keeps (the tool filters by sentiment, then cuts to the caller's limit). */
const SNAPSHOT_ROWS = 200;
/** The liquidity is read only for tokens whose window already shows this share of new-account posts. */
const LIQUIDITY_CHECK_SHARE = 0.25;

export const NO_SOCIAL_FEED = 'no social feed on this deployment: SOCIAL_FEED=off, or BSC is not a world this process runs (the embedded feed is the BSC world\'s posts)';

/** When the token's liquidity was pulled by its first provider (security/liquidity.ts `pulled`), unix seconds; null when it was not. */
export async function liquidityPulledAt(market: Market, token: string): Promise<number | null> {
  for (const pool of market.pools.filter((p) => p.token0 === token || p.token1 === token)) {
    const liq = await poolLiquidity(market, pool, token);
    if (!liq.pulled || liq.lastRemovalBlock === null) continue;
    const [row] = await market.reader.liquidity(liq.lastRemovalBlock, liq.lastRemovalBlock);
    if (row) return row.ts;
  }
  return null;
}

/** Per-token rows over the posts of [from, to] on the loaded chain. */
export async function socialRows(l: LoadedMarket, posts: readonly SocialPost[], to: number) {
  const { market } = l;
  const fromBlock = await periodStartBlock(market, l.checkpoint, '24h');
  const firstPair = new Map<string, number>();
  for (const p of await market.reader.pairs()) {
    for (const t of [p.token0.toLowerCase(), p.token1.toLowerCase()]) firstPair.set(t, Math.min(firstPair.get(t) ?? Infinity, p.ts));
  }
  const rows = [];
  for (const t of tokenSocial(posts)) {
    const own = posts.filter((p) => p.token.contract.toLowerCase() === t.token);
    const price = market.priceNow(t.token);
    const priceChangePct = price ? await periodChangePct(market, t.token, price.usd, fromBlock, to - SOCIAL_WINDOW_SECONDS) : null;
    const decimals = market.decimals(t.token);
    const supply = decimals === null ? null : Object.values(await market.reader.balances(t.token)).reduce((s, b) => s + BigInt(b), 0n);
    const marketCapUsd = price && supply !== null ? round(Number(formatUnits(supply, decimals!)) * price.usd, 2) : null;
    const pulledAt = t.mentions >= SOCIAL_RULES.shill.minMentions && t.newAccountShare >= LIQUIDITY_CHECK_SHARE ? await liquidityPulledAt(market, t.token) : null;
    const warning = shillWarning(own, pulledAt);
    const { brief, detail } = summaries(t, { priceChangePct, marketCapUsd }, warning, SOCIAL_WINDOW_SECONDS / 3600);
    const listed = firstPair.get(t.token);
    rows.push({
      chainId: l.chain.spec.chainId, contractAddress: own[0]!.token.contract, symbol: t.symbol,
      marketCapUsd, priceChangePct, priceUsd: price?.usd ?? null, liquidityUsd: round(liquidityOf(market, t.token), 2),
      socialHype: t.socialHype, sentiment: t.sentiment, summaryBrief: brief, summaryDetail: detail, kolCount: t.kolCount,
      tokenAgeMs: listed === undefined ? null : (to - listed) * 1000,
      mentions: t.mentions, authors: t.authors, engagement: t.engagement, posts: t.tones, netSentiment: t.netSentiment,
      newAccountShare: t.newAccountShare, firstPostAt: t.firstPostAt, lastPostAt: t.lastPostAt,
      shillWarning: warning,
    });
  }
  return rows;
}

/** The snapshot the free tool serves: every mentioned token of the last day, hottest first. */
export async function socialHypeSnapshot(ctx: SkillContext): Promise<Record<string, unknown>> {
  const feed = ctx.social;
  if (!feed) return { available: false, reason: 'domain_disabled', detail: NO_SOCIAL_FEED };
  const { loaded, unavailable } = await loadAllMarkets(ctx, [feed.chain]);
  const l = loaded[0];
  if (!l) return { available: false, reason: unavailable[0]?.reason ?? `${feed.chain} is not connected`, chain: feed.chain };
  // As of the index's checkpoint, so the posts and the prices describe the same moment.
  const to = l.checkpoint.timestamp;
  const from = to - SOCIAL_WINDOW_SECONDS;
  const posts = await feed.posts(from, to);
  const rows = await socialRows(l, posts, to);
  return {
    object: 'social-hype', chain: feed.chain, sentiment: 'All',
    window: { from, to, hours: SOCIAL_WINDOW_SECONDS / 3600 },
    feed: { source: feed.source, posts: posts.length, historyStart: await feed.historyStart() },
    methodology: SOCIAL_METHODOLOGY,
    provenance: { ...indexProvenance(l.chain, l.checkpoint, SOCIAL_METHODOLOGY, await periodStartBlock(l.market, l.checkpoint, '24h')), feed: feed.source },
    rows: rows.slice(0, SNAPSHOT_ROWS),
  };
}

/**
 * The tokens the shill warning flags in the snapshots taken every `everySeconds` over [from, to],
 * each reading the day before it and the liquidity as it stood then: what the tool would have
 * warned of, run on a history (scripts/eval-detectors.ts scores it against the world's shills).
 */
export async function shillFlagsOver(feed: SocialFeed, market: Market, from: number, to: number, everySeconds: number): Promise<Set<string>> {
  const flagged = new Set<string>();
  const pulled = new Map<string, number | null>();
  for (let at = from; ; at = Math.min(at + everySeconds, to)) {
    const posts = await feed.posts(at - SOCIAL_WINDOW_SECONDS, at);
    for (const t of tokenSocial(posts)) {
      if (t.mentions < SOCIAL_RULES.shill.minMentions) continue;
      let pulledAt: number | null = null;
      if (t.newAccountShare >= LIQUIDITY_CHECK_SHARE) {
        if (!pulled.has(t.token)) pulled.set(t.token, await liquidityPulledAt(market, t.token));
        const when = pulled.get(t.token)!;
        pulledAt = when !== null && when <= at ? when : null;
      }
      if (shillWarning(posts.filter((p) => p.token.contract.toLowerCase() === t.token), pulledAt).flagged) flagged.add(t.token);
    }
    if (at >= to) return flagged;
  }
}
