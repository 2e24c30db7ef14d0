/**
 * The social feed of the world (BSC): posts about its tokens by its own accounts, written as
 * the market moves. It sends no transaction, so the market does exactly what it did without it.
 *
 * - Shill campaigns: before a rug-puller pulls its liquidity (the world's plan, learnt through
 *   `host.listingSchedule`), a ring of 3-6 fresh, small accounts posts hype about the token at a
 *   rising pace until just before the pull; some honeypots get the same. One rug in five is
 *   quiet (no campaign), so a rug is not a shill by definition.
 * - Organic posts: many ordinary accounts (Zipf-active, a few with KOL-sized followings, some
 *   recently created) post about a token at a pace that follows its traded volume in the world's
 *   pools; their tone follows its price over the last hours. Holders of a rugged token complain.
 * - A project's own account announces some honest listings; neutral chatter about any token.
 *
 * Ground truth goes to labels.social: the shill accounts, the shilled tokens with the campaign's
 * window, and every post's author kind and intended tone. Posts older than POST_RETENTION_S are
 * dropped from the feed (the labels keep them).
 */
import { createHash } from 'node:crypto';
import { formatUnits, type Address } from 'viem';
import type { Rng } from '../../lib/random.js';
import type { SocialAuthor, SocialPost } from '../social/feed.js';
import type { TokenInfo } from '../world.js';
import type { WorldHost, WorldModule, WorldModuleFactory } from './module.js';
import { handleFor, organicText, projectText, shillText, victimText, type Tone } from './social-text.js';

export interface SocialLabels {
  /**
   * The shill accounts (feed author ids), each shilled token with its campaign's window (unix
   * seconds) and ring, and every post's author kind and intended tone.
   */
  social: {
    shillAccounts: string[];
    shilled: { token: Address; symbol: string; reason: 'rug' | 'honeypot'; from: number; until: number; accounts: string[] }[];
    posts: { id: string; kind: SocialPostKind; sentiment: 'positive' | 'negative' | 'neutral' }[];
  };
}

export function emptySocialLabels(): SocialLabels {
  return { social: { shillAccounts: [], shilled: [], posts: [] } };
}

export const SOCIAL_MODULE = 'social';
export type SocialPostKind = 'shill' | 'organic' | 'chatter' | 'project';

/** How long the feed keeps posts. */
export const POST_RETENTION_S = 7 * 86_400;
const ORGANIC_ACCOUNTS = 1_500;
/** Share of organic accounts created during the history (new accounts that are not shills). */
const NEWCOMER_SHARE = 0.1;
/** Organic posts an hour about a token: ORGANIC_RATE * log2(1 + attention / ATTENTION_USD), at most ORGANIC_MAX. */
const ORGANIC_RATE = 0.6;
const ORGANIC_MAX = 6;
const ATTENTION_USD = 5_000;
/** Attention is traded USD, fading with this half-life. */
const ATTENTION_HALF_LIFE_S = 3 * 3600;
const CHATTER_PER_HOUR = 2;
const SHILLED_RUGS = 0.8;
const SHILLED_HONEYPOTS = 0.5;
const PROJECT_ACCOUNTS = 0.4;
/** A token's price is sampled this often; tone reads the move over MOVE_WINDOW_S. */
const PRICE_SAMPLE_S = 1800;
const MOVE_WINDOW_S = 6 * 3600;

/** The posts as the feed serves them. */
export interface SocialBoard {
  posts(fromTime: number, toTime: number): SocialPost[];
  /** Time of the last block the module has written posts for. */
  head(): number;
  historyStart(): number | null;
}

interface Campaign {
  token: Address;
  symbol: string;
  kind: 'shill' | 'project' | 'victims';
  from: number;
  until: number;
  /** Posts an hour (shills ramp up towards `until`). */
  rate: number;
  /** Author ids (shills and project accounts are their own; victims are organic accounts). */
  authors: string[];
  /** Shills: why the token is shilled; labelled with its first post. */
  reason?: 'rug' | 'honeypot';
  started?: boolean;
}

/** [id, time, author id, token, symbol, text, likes, reposts, replies] */
type StoredPost = [string, number, string, Address, string, string, number, number, number];

interface State {
  counter: number;
  now: number;
  posts: StoredPost[];
  own: SocialAuthor[];
  seen: string[];
  campaigns: Campaign[];
  attention: [string, number][];
  prices: [string, [number, number][]][];
  reserves: [string, string, string][];
}

/** A number in [0, 1) from the seed and a label: organic accounts are derived, never stored. */
function unit(label: string): number {
  return createHash('sha256').update(label).digest().readUInt32LE(0) / 4294967296;
}

export const socialModule: WorldModuleFactory = (chain, rng) => {
  if (chain !== 'bsc') return undefined;
  let s: State = { counter: 0, now: 0, posts: [], own: [], seen: [], campaigns: [], attention: [], prices: [], reserves: [] };
  let organic: SocialAuthor[] = [];
  /** Cumulative Zipf weights over `organic`: a few accounts post most. */
  let cumulative: number[] = [];
  const authors = new Map<string, SocialAuthor>();
  const attention = new Map<string, number>();
  const prices = new Map<string, [number, number][]>();
  const reserves = new Map<string, [bigint, bigint]>();
  const seen = new Set<string>();
  let host: WorldHost;

  function deriveAccounts(h: WorldHost): void {
    const origin = h.reference.origin;
    organic = Array.from({ length: ORGANIC_ACCOUNTS }, (_, i) => {
      const label = `${h.seed}:${h.chain}:social:${i}`;
      const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((k) => unit(`${label}:${k}`)) as [number, number, number, number];
      // Followers: Pareto-tailed (about 1% above 10,000: the KOLs).
      const followers = Math.min(2_000_000, Math.round(30 * Math.pow(1 - a, -1.2)));
      const createdAt = d < NEWCOMER_SHARE ? origin - 10 * 86_400 + Math.round(c * 40 * 86_400) : origin - Math.round((30 + c * 2_500) * 86_400);
      return { id: `o${i}`, handle: handleFor(b, c, i), followers, createdAt };
    });
    let sum = 0;
    cumulative = organic.map((_, i) => (sum += 1 / Math.pow(i + 1, 0.8)));
    for (const a of organic) authors.set(a.id, a);
  }

  function organicAuthor(t: number): SocialAuthor {
    for (;;) {
      const x = rng.next() * cumulative[cumulative.length - 1]!;
      let lo = 0;
      let hi = cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (cumulative[mid]! < x) lo = mid + 1;
        else hi = mid;
      }
      if (organic[lo]!.createdAt <= t) return organic[lo]!;
    }
  }

  function ownAccount(prefix: string, createdAt: number, followers: number): SocialAuthor {
    const n = s.own.length;
    const account = { id: `${prefix}${n}`, handle: handleFor(rng.next(), rng.next(), 1000 + n), followers: Math.round(followers), createdAt: Math.round(createdAt) };
    s.own.push(account);
    authors.set(account.id, account);
    return account;
  }

  function post(time: number, author: SocialAuthor, token: TokenInfo | { address: Address; symbol: string }, text: string, kind: SocialPostKind, tone: Tone): StoredPost {
    const id = `${chain}-${(++s.counter).toString(36)}`;
    const reach = kind === 'shill' ? rng.int(0, 12) : Math.round(author.followers * rng.logUniform(0.002, 0.03));
    const likes = reach + rng.poisson(1);
    host.labels.social.posts.push({ id, kind, sentiment: tone });
    return [id, Math.round(time), author.id, token.address, token.symbol, text, likes, Math.round(likes * rng.next() * 0.3), Math.round(likes * rng.next() * 0.15)];
  }

  /** The token's move over the last MOVE_WINDOW_S in %, from the module's own samples of the world's pool price. */
  function movePct(token: Address, t: number): number | null {
    const line = prices.get(token.toLowerCase());
    if (!line?.length) return null;
    const then = line.find(([at]) => at >= t - MOVE_WINDOW_S) ?? line[0]!;
    const now = line[line.length - 1]![1];
    return then[1] > 0 ? (now / then[1] - 1) * 100 : null;
  }

  function organicTone(move: number | null): Tone {
    const [pos, neg] = move === null ? [0.3, 0.2] : move > 3 ? [0.65, 0.1] : move < -3 ? [0.1, 0.6] : [0.275, 0.275];
    const x = rng.next();
    return x < pos ? 'positive' : x < pos + neg ? 'negative' : 'neutral';
  }

  const isQuote = (a: Address) => a.toLowerCase() === host.usdc.address.toLowerCase() || a.toLowerCase() === host.native.address.toLowerCase();

  /** Traded USD per token this block, from how the pools' quote reserves moved since the last block. */
  function tradedUsd(): Map<string, number> {
    const traded = new Map<string, number>();
    const quoteUsd = new Map<string, number>();
    for (const pool of host.pools()) {
      const before = reserves.get(pool.pair);
      reserves.set(pool.pair, [pool.r0, pool.r1]);
      if (!before) continue;
      // Liquidity added or pulled moves both reserves the same way; trades move them apart.
      if ((pool.r0 > before[0]) === (pool.r1 > before[1])) continue;
      // The token is the non-quote side; the wrapped native against USDC is the native's pool.
      const [q0, q1] = [isQuote(pool.token0), isQuote(pool.token1)];
      const native0 = pool.token0.toLowerCase() === host.native.address.toLowerCase();
      const [tokenSide, quoteSide] = q0 && !q1 ? [1, 0] : q1 && !q0 ? [0, 1] : q0 && q1 ? (native0 ? [0, 1] : [1, 0]) : [-1, -1];
      if (tokenSide < 0) continue;
      const quote = host.token(quoteSide === 0 ? pool.token0 : pool.token1);
      const token = quoteSide === 0 ? pool.token1 : pool.token0;
      if (!quote) continue;
      const delta = (quoteSide === 0 ? pool.r0 : pool.r1) - before[quoteSide]!;
      if (!quoteUsd.has(quote.address)) quoteUsd.set(quote.address, host.usdOf(quote));
      const usd = Number(formatUnits(delta < 0n ? -delta : delta, quote.decimals)) * quoteUsd.get(quote.address)!;
      if (usd > 0) traded.set(token.toLowerCase(), (traded.get(token.toLowerCase()) ?? 0) + usd);
    }
    return traded;
  }

  /** Plans what a new listing will see: a shill ring before its rug (or honeypot trap), a project account, or nothing. */
  function onListing(token: TokenInfo, t: number): void {
    const schedule = host.listingSchedule(token.address);
    const listedAt = schedule?.listedAt ?? t;
    const shill = schedule?.rugAt !== undefined ? rng.chance(SHILLED_RUGS) : token.kind === 'honeypot' && rng.chance(SHILLED_HONEYPOTS);
    if (shill) {
      const from = listedAt + rng.int(10, 40) * 60;
      const until = schedule?.rugAt !== undefined ? schedule.rugAt - rng.int(0, 20) * 60 : from + rng.int(8, 24) * 3600;
      const ring = Array.from({ length: rng.int(3, 6) }, () => ownAccount('s', from - rng.logUniform(0.5, 8) * 86_400, rng.logUniform(15, 1_500)));
      s.campaigns.push({ token: token.address, symbol: token.symbol, kind: 'shill', from, until, rate: rng.logUniform(3, 7), authors: ring.map((a) => a.id), reason: schedule?.rugAt !== undefined ? 'rug' : 'honeypot' });
    } else if (rng.chance(PROJECT_ACCOUNTS)) {
      const account = ownAccount('p', listedAt - rng.logUniform(1, 10) * 86_400, rng.logUniform(100, 5_000));
      s.campaigns.push({ token: token.address, symbol: token.symbol, kind: 'project', from: listedAt + 300, until: listedAt + 86_400, rate: rng.int(3, 8) / 24, authors: [account.id] });
    }
  }

  function step(h: WorldHost, t: number, dt: number): void {
    host = h;
    const out: [number, StoredPost][] = [];
    const when = () => t - rng.next() * dt;
    const tokens = h.tokens().filter((x) => x.address.toLowerCase() !== h.usdc.address.toLowerCase());

    for (const token of tokens) {
      const key = token.address.toLowerCase();
      if (token.kind !== 'genesis' && !seen.has(key)) {
        seen.add(key);
        if (token.listedAt !== undefined) onListing(token, t);
      }
      // Holders of a rugged token complain for a few hours.
      if (token.kind !== 'genesis' && !token.tradeable && !seen.has(`rug:${key}`)) {
        seen.add(`rug:${key}`);
        const victims = Array.from({ length: rng.int(4, 10) }, () => organicAuthor(t).id);
        s.campaigns.push({ token: token.address, symbol: token.symbol, kind: 'victims', from: t, until: t + 6 * 3600, rate: victims.length / 6, authors: victims });
      }
      const line = prices.get(key) ?? [];
      const usd = !line.length || t - line[line.length - 1]![0] >= PRICE_SAMPLE_S ? h.usdOf(token) : 0;
      if (usd > 0) {
        line.push([t, usd]);
        if (line.length > (2 * MOVE_WINDOW_S) / PRICE_SAMPLE_S) line.shift();
        prices.set(key, line);
      }
    }

    const traded = tradedUsd();
    const fade = Math.pow(0.5, dt / ATTENTION_HALF_LIFE_S);
    for (const token of tokens) {
      const key = token.address.toLowerCase();
      const a = (attention.get(key) ?? 0) * fade + (traded.get(key) ?? 0);
      if (a < 1) {
        attention.delete(key);
        continue;
      }
      attention.set(key, a);
      const rate = Math.min(ORGANIC_MAX, ORGANIC_RATE * Math.log2(1 + a / ATTENTION_USD));
      for (let n = rng.poisson((rate * dt) / 3600); n > 0; n--) {
        const time = when();
        const move = movePct(token.address, t);
        const tone = organicTone(move);
        out.push([time, post(time, organicAuthor(time), token, organicText(rng, tone, { symbol: token.symbol, contract: token.address, movePct: Math.abs(move ?? 0) }), 'organic', tone)]);
      }
    }

    // Neutral chatter, about the tokens people are trading (or any, when none is).
    const talked = [...attention.keys()];
    for (let n = rng.poisson((CHATTER_PER_HOUR * dt) / 3600); n > 0; n--) {
      const token = h.token((talked.length ? rng.pick(talked) : rng.pick(tokens).address) as Address);
      if (!token) continue;
      const time = when();
      out.push([time, post(time, organicAuthor(time), token, organicText(rng, 'neutral', { symbol: token.symbol, contract: token.address, movePct: Math.abs(movePct(token.address, t) ?? 0) }), 'chatter', 'neutral')]);
    }

    for (const c of s.campaigns) {
      const from = Math.max(c.from, t - dt);
      const until = Math.min(c.until, t);
      if (until <= from) continue;
      // Shills post faster as the pull approaches: 0.6x the base pace at the start, 1.4x at the end.
      const progress = (until - c.from) / Math.max(1, c.until - c.from);
      const rate = c.kind === 'shill' ? c.rate * (0.6 + 0.8 * progress) : c.rate;
      for (let n = rng.poisson((rate * (until - from)) / 3600); n > 0; n--) {
        const time = from + rng.next() * (until - from);
        const author = authors.get(rng.pick(c.authors))!;
        const fill = { symbol: c.symbol, contract: c.token, movePct: 0 };
        const token = { address: c.token, symbol: c.symbol };
        if (c.kind === 'shill' && !c.started) {
          // A token is shilled (and its ring labelled) from the campaign's first post.
          c.started = true;
          host.labels.social.shillAccounts.push(...c.authors);
          host.labels.social.shilled.push({ token: c.token, symbol: c.symbol, reason: c.reason!, from: c.from, until: c.until, accounts: c.authors });
        }
        if (c.kind === 'shill') out.push([time, post(time, author, token, shillText(rng, fill), 'shill', 'positive')]);
        else if (c.kind === 'project') out.push([time, post(time, author, token, projectText(rng, fill), 'project', 'neutral')]);
        else out.push([time, post(time, author, token, victimText(rng, fill), 'organic', 'negative')]);
      }
    }
    s.campaigns = s.campaigns.filter((c) => c.until > t);

    out.sort((a, b) => a[0] - b[0]);
    for (const [, p] of out) s.posts.push(p);
    s.now = t;
    if (s.posts.length && s.posts[0]![1] < t - POST_RETENTION_S - 3600) {
      const kept = s.posts.findIndex((p) => p[1] >= t - POST_RETENTION_S);
      s.posts.splice(0, kept < 0 ? s.posts.length : kept);
    }
  }

  const board: SocialBoard = {
    posts(fromTime, toTime) {
      return s.posts.filter((p) => p[1] >= fromTime && p[1] <= toTime).map(([id, time, author, contract, symbol, text, likes, reposts, replies]) => ({
        id, time, author: authors.get(author)!, token: { contract, symbol }, text, engagement: { likes, reposts, replies },
      }));
    },
    head: () => s.now,
    historyStart: () => s.posts[0]?.[1] ?? null,
  };

  const module: WorldModule & SocialBoard = {
    name: SOCIAL_MODULE,
    ...board,
    setup(h) {
      host = h;
      deriveAccounts(h);
    },
    step,
    toState: (): State => ({
      ...s,
      seen: [...seen],
      attention: [...attention],
      prices: [...prices],
      reserves: [...reserves].map(([pair, [r0, r1]]) => [pair, r0.toString(), r1.toString()]),
    }),
    restore(state, h) {
      host = h;
      s = state as State;
      deriveAccounts(h);
      for (const a of s.own) authors.set(a.id, a);
      for (const k of s.seen) seen.add(k);
      for (const [k, v] of s.attention) attention.set(k, v);
      for (const [k, v] of s.prices) prices.set(k, v);
      for (const [pair, r0, r1] of s.reserves) reserves.set(pair as Address, [BigInt(r0), BigInt(r1)]);
    },
  };
  return module;
};

/** The posts of a world's social module, when the world has one. */
export function socialBoard(module: WorldModule | undefined): SocialBoard | undefined {
  return module && module.name === SOCIAL_MODULE ? (module as WorldModule & SocialBoard) : undefined;
}
