/**
 * Social attention per token (`social/v1`), from the posts of a social feed (world/social/feed.ts)
 * over a window: mentions, distinct authors, KOLs, the tone of the posts scored from their text,
 * a 0-100 hype score, and a shill warning when the talk comes mostly from a few new accounts.
 * Pure: the feed's posts and, for the warning, when each token's liquidity was pulled (the
 * security engine's reading) come in as arguments.
 */
import { createRequire } from 'node:module';
import Sentiment from 'sentiment';
import type { SocialPost } from '../../world/social/feed.js';
import { round } from '../data/market.js';

export type Tone = 'positive' | 'negative' | 'neutral';
export type TokenSentiment = 'Positive' | 'Negative' | 'Neutral';

export const SOCIAL_RULES = {
  /** A KOL: an author with at least this many followers. */
  kolFollowers: 10_000,
  /** A new account: created less than this many days before its post. */
  newAccountDays: 30,
  /** A token's sentiment is Positive (Negative) when (positive - negative posts) / mentions is at least this (at most minus this). */
  sentimentNet: 0.15,
  /**
   * Shill warning: of at least `minMentions` posts, at least `ringShare` by a ring: new accounts
   * posting `minPostsPerAuthor` times or more each, `minRing`-`maxRing` of them (one new account
   * talking up a token is its project's own; a crowd of new accounts posting once is a crowd).
   */
  shill: { minMentions: 10, ringShare: 0.5, minPostsPerAuthor: 3, minRing: 2, maxRing: 8, beforePullSeconds: 24 * 3600 },
} as const;

/** A question asks rather than tells: up to this strength its words set no tone. */
const QUESTION_MAX_NEUTRAL = 2;

export const SOCIAL_HYPE_FORMULA = 'socialHype = round(100 * (1 - exp(-raw / 40))), raw = distinct authors + 0.25 * (mentions - distinct authors) + 3 * KOLs + log10(1 + likes + 2 * reposts + replies)';

export const SOCIAL_METHODOLOGY = `social/v1 (mentions, distinct authors and KOLs (>= ${SOCIAL_RULES.kolFollowers.toLocaleString('en-US')} followers) per token over the window; post tone from the text: AFINN-165 with crypto slang, market actions, idioms, negation and regret, positive above 0, negative below, neutral where the text cannot tell (no net score, or a question leaning at most ${QUESTION_MAX_NEUTRAL}); token sentiment from (positive - negative) / mentions at +-${SOCIAL_RULES.sentimentNet}; ${SOCIAL_HYPE_FORMULA}; shill warning when >= ${SOCIAL_RULES.shill.ringShare * 100}% of >= ${SOCIAL_RULES.shill.minMentions} mentions come from a ring of ${SOCIAL_RULES.shill.minRing}-${SOCIAL_RULES.shill.maxRing} accounts younger than ${SOCIAL_RULES.newAccountDays} days posting >= ${SOCIAL_RULES.shill.minPostsPerAuthor} times each, read over the ${SOCIAL_RULES.shill.beforePullSeconds / 3600} h before the liquidity was pulled when it was)`;

/**
 * Crypto slang AFINN-165 does not know, on its -5..+5 scale. General usage, not the feed's
 * wording: the engine is measured on posts it was not fitted to.
 */
const CRYPTO_SLANG: Record<string, number> = {
  moon: 3, mooning: 3, bullish: 3, bearish: -3, pump: 1, pumping: 2, dump: -2, dumping: -3, dumped: -2,
  rug: -4, rugged: -4, rugpull: -4, rekt: -3, hodl: 1, fud: -2, ngmi: -3, wagmi: 2, lfg: 2, gem: 3,
  '100x': 2, '1000x': 2, ath: 2, parabolic: 2, breakout: 2, bleeding: -3, honeypot: -4, dip: -1, crash: -3,
  green: 1, red: -1, aped: 1, outperforming: 2, rekted: -3, exit: -1, bagholder: -2, scammer: -3,
  // Emoji of market talk (spaced apart before scoring, so each counts).
  '🚀': 2, '📈': 2, '💎': 1, '🔥': 1, '📉': -2, '💀': -2, '🤡': -2, '🩸': -2,
};

/**
 * What a trader did or will do with a token, +1 for taking it on, -1 for letting it go: weak alone,
 * they carry the meaning under negation ("not selling" is holding) and after regret ("regret not
 * buying" is a call to buy, "regret buying" a loss).
 */
const MARKET_ACTIONS: Record<string, number> = {
  buy: 1, buying: 1, bought: 1, accumulate: 1, accumulating: 1, loading: 1, long: 1, ape: 1, aping: 1,
  sell: -1, selling: -1, sold: -1, short: -1, shorting: -1, exited: -1, exiting: -1,
};

/**
 * Idioms of crypto talk that say more than their words (general usage, as MARKET_ACTIONS and
 * CRYPTO_SLANG): each read as one scored word before scoring, so "the top" in "bought the top"
 * is not praise and "stop" in "next stop 10M" is not a halt.
 */
const CRYPTO_IDIOMS: readonly [RegExp, string, number][] = [
  [/\bstill (so |very )?early\b/g, 'xstillearly', 2],
  [/\b(buy|buying|bought) the dip\b/g, 'xbuythedip', 2],
  [/\b(buy|buying|bought|aped|aping) (in )?(at )?the (top|peak)\b/g, 'xboughtthetop', -3],
  [/\bnext (stop|target)\b/g, 'xpricetarget', 2],
  [/\b(pulled|removed|drained|pulling|removing) (the |all (the )?|their )?(liquidity|lp)\b/g, 'xliquiditypulled', -4],
  [/\b(liquidity|lp) (was |got |is )?(pulled|removed|drained|gone)\b/g, 'xliquiditypulled', -4],
  [/\bexit liquidity\b/g, 'xexitliquidity', -3],
  [/\bstay away\b/g, 'xstayaway', -3],
  [/\bdiamond hands?\b/g, 'xdiamondhands', 2],
  [/\bpaper hands?\b/g, 'xpaperhands', -1],
  [/\bup only\b/g, 'xuponly', 2],
  [/\bhigher (highs|lows)\b/g, 'xhigherlows', 2],
  [/\blower (highs|lows)\b/g, 'xlowerhighs', -2],
  [/\bdevs? (sold|dumped|left|vanished|disappeared)\b/g, 'xdevsold', -3],
  [/\b(whales|smart money) (are |is )?(loading|accumulating|buying)\b/g, 'xwhalesbuying', 2],
  // A move with its direction: "up 12%" is good news, "down 12%" bad.
  [/\bup \d+(\.\d+)?%/g, 'xmoveup', 1],
  [/\bdown \d+(\.\d+)?%/g, 'xmovedown', -1],
];
const EMOJI = Object.keys(CRYPTO_SLANG).filter((w) => !/^[a-z0-9]+$/.test(w));
const IDIOM_SCORES = Object.fromEntries(CRYPTO_IDIOMS.map(([, word, score]) => [word, score]));
const EXTRAS = { ...CRYPTO_SLANG, ...MARKET_ACTIONS, ...IDIOM_SCORES };

/**
 * English AFINN-165 with a wider negation: a negator flips a scored word up to three tokens
 * after it ("not looking good"), as VADER does; the package's own English looks one token back.
 * "can't believe" is surprise, not negation. Regret turns a market action around: "regret buying"
 * counts the buy as a loss, "regret not buying" counts it as a call; regret itself then adds nothing.
 */
const require = createRequire(import.meta.url);
/** The package's negators and the rest of VADER's common ones ("never selling"). */
const NEGATORS: Record<string, number> = {
  ...require('sentiment/languages/en/negators.json'),
  ...Object.fromEntries(['never', 'cannot', 'didnt', "didn't", 'wasnt', "wasn't", 'werent', "weren't", 'wouldnt', "wouldn't", 'shouldnt', "shouldn't",
    'couldnt', "couldn't", 'aint', "ain't", 'arent', "aren't", 'havent', "haven't", 'hasnt', "hasn't", 'nothing', 'nobody', 'without', 'nor', 'neither'].map((w) => [w, 1])),
};
const REGRET = new Set(['regret', 'regrets', 'regretting', 'regretted']);
const negates = (tokens: readonly string[], at: number) => NEGATORS[tokens[at]!] && tokens[at + 1] !== 'believe';
const scorer = new Sentiment();
scorer.registerLanguage('en-negation3', {
  labels: require('sentiment/languages/en/labels.json'),
  scoringStrategy: {
    apply: (tokens, cursor, score) => {
      const word = tokens[cursor]!;
      if (REGRET.has(word)) return tokens.slice(cursor + 1, cursor + 4).some((t) => MARKET_ACTIONS[t]) ? 0 : score;
      const before = Math.max(0, cursor - 3);
      const negator = [...tokens.keys()].slice(before, cursor).findLast((i) => negates(tokens, i));
      if (MARKET_ACTIONS[word]) {
        const regret = tokens.slice(Math.max(0, (negator ?? cursor) - 2), negator ?? cursor).some((t) => REGRET.has(t));
        if (regret) return (negator === undefined ? -2 : 2) * score;
      }
      return negator === undefined ? score : -score;
    },
  },
});

/**
 * A post's tone from its text: AFINN-165 plus CRYPTO_SLANG, MARKET_ACTIONS and CRYPTO_IDIOMS, a
 * negator flipping the next three tokens ("not bullish", "not looking good"). Cashtags and
 * addresses are names, not words: $MOON says nothing about the moon. `neutral` where the text
 * cannot tell: no scored word, words that cancel out, or a question that only mildly leans.
 */
export function postTone(text: string): { score: number; tone: Tone } {
  let plain = text.replace(/\$[A-Za-z0-9_]+|0x[0-9a-fA-F]+/g, ' ').replace(/\s+/g, ' ').toLowerCase();
  for (const [pattern, word] of CRYPTO_IDIOMS) plain = plain.replace(pattern, ` ${word} `);
  for (const emoji of EMOJI) plain = plain.replaceAll(emoji, ` ${emoji} `);
  const { score } = scorer.analyze(plain, { language: 'en-negation3', extras: EXTRAS });
  const question = /\?\s*$/.test(text.trim()) && Math.abs(score) <= QUESTION_MAX_NEUTRAL;
  return { score, tone: question || score === 0 ? 'neutral' : score > 0 ? 'positive' : 'negative' };
}

export interface ShillWarning {
  flagged: boolean;
  /** Posts the warning read: the window's, or those of the 24 h before the liquidity was pulled. */
  basis: 'window' | 'before-pull';
  postsRead: number;
  /** New accounts (younger than SOCIAL_RULES.newAccountDays at their post) among the authors read, and their posts. */
  newAccounts: number;
  newAccountPosts: number;
  /** The ring: new accounts with at least `minPostsPerAuthor` posts, their posts and share of the posts read. */
  ringAccounts: number;
  ringPosts: number;
  ringShare: number | null;
  /** When the token's liquidity was pulled (unix seconds), when the security engine saw it pulled. */
  liquidityPulledAt: number | null;
  reason: string;
}

export interface TokenSocial {
  /** Lower-case contract. */
  token: string;
  symbol: string;
  mentions: number;
  authors: number;
  kolCount: number;
  engagement: number;
  tones: Record<Tone, number>;
  sentiment: TokenSentiment;
  /** (positive - negative) / mentions. */
  netSentiment: number;
  socialHype: number;
  firstPostAt: number;
  lastPostAt: number;
  newAccountShare: number;
}

const isNew = (p: SocialPost) => p.time - p.author.createdAt < SOCIAL_RULES.newAccountDays * 86_400;

/** Per-token figures over the posts given (the caller picks the window), busiest first. */
export function tokenSocial(posts: readonly SocialPost[]): TokenSocial[] {
  const byToken = new Map<string, SocialPost[]>();
  for (const p of posts) {
    const key = p.token.contract.toLowerCase();
    const list = byToken.get(key);
    if (list) list.push(p);
    else byToken.set(key, [p]);
  }
  const rows: TokenSocial[] = [];
  for (const [token, list] of byToken) {
    const authors = new Map(list.map((p) => [p.author.id, p.author]));
    const tones: Record<Tone, number> = { positive: 0, negative: 0, neutral: 0 };
    // The source's own label when it gives one; the text's score otherwise.
    for (const p of list) tones[p.sentiment ?? postTone(p.text).tone]++;
    const net = (tones.positive - tones.negative) / list.length;
    const kolCount = [...authors.values()].filter((a) => a.followers >= SOCIAL_RULES.kolFollowers).length;
    const engagement = list.reduce((s, p) => s + p.engagement.likes + 2 * p.engagement.reposts + p.engagement.replies, 0);
    rows.push({
      token, symbol: list[list.length - 1]!.token.symbol, mentions: list.length, authors: authors.size, kolCount, engagement, tones,
      sentiment: net >= SOCIAL_RULES.sentimentNet ? 'Positive' : net <= -SOCIAL_RULES.sentimentNet ? 'Negative' : 'Neutral',
      netSentiment: round(net, 4),
      socialHype: socialHype(list.length, authors.size, kolCount, engagement),
      firstPostAt: Math.min(...list.map((p) => p.time)),
      lastPostAt: Math.max(...list.map((p) => p.time)),
      newAccountShare: round(list.filter(isNew).length / list.length, 4),
    });
  }
  return rows.sort((a, b) => b.socialHype - a.socialHype || b.mentions - a.mentions);
}

/** SOCIAL_HYPE_FORMULA: distinct voices count fully, a voice repeating itself a quarter, KOLs and engagement on top; 0-100. */
export function socialHype(mentions: number, authors: number, kols: number, engagement: number): number {
  const raw = authors + 0.25 * (mentions - authors) + 3 * kols + Math.log10(1 + engagement);
  return Math.round(100 * (1 - Math.exp(-raw / 40)));
}

/**
 * Whether a token's talk is a shill campaign: mostly a few new accounts posting again and
 * again. When the token's liquidity was pulled, the posts read are those of the day before the
 * pull (a campaign runs until the dump; the complaints after it are another crowd).
 */
export function shillWarning(posts: readonly SocialPost[], liquidityPulledAt: number | null): ShillWarning {
  const rules = SOCIAL_RULES.shill;
  const beforePull = liquidityPulledAt !== null && posts.some((p) => p.time < liquidityPulledAt && p.time >= liquidityPulledAt - rules.beforePullSeconds);
  const read = beforePull ? posts.filter((p) => p.time < liquidityPulledAt! && p.time >= liquidityPulledAt! - rules.beforePullSeconds) : posts;
  const fresh = read.filter(isNew);
  const perAccount = new Map<string, number>();
  for (const p of fresh) perAccount.set(p.author.id, (perAccount.get(p.author.id) ?? 0) + 1);
  const ring = [...perAccount.values()].filter((n) => n >= rules.minPostsPerAuthor);
  const ringPosts = ring.reduce((a, b) => a + b, 0);
  const share = read.length ? ringPosts / read.length : null;
  const checks: [boolean, string][] = [
    [read.length >= rules.minMentions, `${read.length} posts read (at least ${rules.minMentions} needed)`],
    [ring.length >= rules.minRing && ring.length <= rules.maxRing, `${ring.length} accounts younger than ${SOCIAL_RULES.newAccountDays} days posted ${rules.minPostsPerAuthor}+ times (a ring is ${rules.minRing}-${rules.maxRing})`],
    [share !== null && share >= rules.ringShare, `${share === null ? 0 : Math.round(share * 100)}% of the posts by them (at least ${rules.ringShare * 100}%)`],
  ];
  const flagged = checks.every(([ok]) => ok);
  const pulled = liquidityPulledAt !== null ? `; liquidity pulled at ${new Date(liquidityPulledAt * 1000).toISOString()}` : '';
  return {
    flagged,
    basis: beforePull ? 'before-pull' : 'window',
    postsRead: read.length,
    newAccounts: perAccount.size,
    newAccountPosts: fresh.length,
    ringAccounts: ring.length,
    ringPosts,
    ringShare: share === null ? null : round(share, 4),
    liquidityPulledAt,
    reason: flagged
      ? `${ringPosts} of ${read.length} posts ${beforePull ? 'in the day before the liquidity was pulled ' : ''}came from ${ring.length} accounts younger than ${SOCIAL_RULES.newAccountDays} days posting ${rules.minPostsPerAuthor}+ times each${pulled}`
      : `not flagged: ${checks.filter(([ok]) => !ok).map(([, why]) => why).join('; ')}${pulled}`,
  };
}

/** The row's two summaries, built from its figures only. */
export function summaries(t: TokenSocial, market: { priceChangePct: number | null; marketCapUsd: number | null }, warning: ShillWarning, windowHours: number): { brief: string; detail: string } {
  const pct = market.priceChangePct === null ? null : Math.round(market.priceChangePct * 10) / 10;
  const move = pct === null ? '' : `, price ${pct >= 0 ? '+' : ''}${Math.abs(pct) === 0 ? '0.0' : pct.toFixed(1)}%`;
  const brief = `$${t.symbol}: ${t.mentions} mentions by ${t.authors} accounts in ${windowHours} h, ${t.sentiment.toLowerCase()}${move}${warning.flagged ? '; shill warning' : ''}`;
  const cap = market.marketCapUsd === null ? 'market cap unknown' : `market cap $${Math.round(market.marketCapUsd).toLocaleString('en-US')}`;
  const detail = [
    `${t.mentions} posts mention $${t.symbol} over the last ${windowHours} h, from ${t.authors} distinct accounts (${t.kolCount} with ${SOCIAL_RULES.kolFollowers.toLocaleString('en-US')}+ followers), ${t.engagement.toLocaleString('en-US')} weighted engagements; hype ${t.socialHype}/100.`,
    `Tone: ${t.tones.positive} positive, ${t.tones.negative} negative, ${t.tones.neutral} neutral (net ${t.netSentiment >= 0 ? '+' : ''}${t.netSentiment.toFixed(2)}: ${t.sentiment}).`,
    `${Math.round(t.newAccountShare * 100)}% of the posts are by accounts younger than ${SOCIAL_RULES.newAccountDays} days; ${cap}${move ? `${move} over 24 h` : ', no price change known'}.`,
    warning.flagged ? `Shill warning: ${warning.reason}.` : '',
  ].filter(Boolean).join(' ');
  return { brief, detail };
}
