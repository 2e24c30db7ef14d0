import { describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import type { SocialAuthor, SocialPost } from '../../world/social/feed.js';
import { postTone, shillWarning, socialHype, SOCIAL_RULES, summaries, tokenSocial } from './engine.js';

const NOW = 1_800_000_000;
const DAY = 86_400;
const GEM = '0x00000000000000000000000000000000000000a1' as Address;
const BIG = '0x00000000000000000000000000000000000000b2' as Address;

const author = (id: string, followers: number, ageDays: number): SocialAuthor => ({ id, handle: id, followers, createdAt: NOW - ageDays * DAY });
let n = 0;
const post = (a: SocialAuthor, token: Address, symbol: string, text: string, time = NOW - 3600, likes = 1, sentiment?: SocialPost['sentiment']): SocialPost =>
  ({ id: `p${++n}`, time, author: a, token: { contract: token, symbol }, text, engagement: { likes, reposts: 0, replies: 0 }, ...(sentiment && { sentiment }) });

/** A ring of `k` accounts a few days old posting `each` hype posts about GEM, and `organic` old accounts posting once each. */
function campaign(k: number, each: number, organic: number): SocialPost[] {
  const ring = Array.from({ length: k }, (_, i) => author(`s${i}`, 200, 3));
  const posts = ring.flatMap((a) => Array.from({ length: each }, (_, j) => post(a, GEM, 'GEM', '🚀 $GEM next 100x gem, LFG', NOW - 3 * 3600 - j * 600)));
  for (let i = 0; i < organic; i++) posts.push(post(author(`o${i}`, 300, 400), GEM, 'GEM', 'anyone watching $GEM?', NOW - 2 * 3600));
  return posts;
}

describe('social/v1', () => {
  it('scores a post\'s tone from its text: plain words, crypto slang, negation, emoji', () => {
    expect(postTone('$CAKE looking strong today').tone).toBe('positive');
    expect(postTone('bullish on $CAKE').tone).toBe('positive');
    expect(postTone('not bullish on $CAKE').tone).toBe('negative');
    expect(postTone('$X rugged, LP pulled, total scam').tone).toBe('negative');
    expect(postTone('dumping hard, careful').tone).toBe('negative');
    expect(postTone('anyone watching $CAKE?').tone).toBe('neutral');
    expect(postTone('to the moon 🚀').score).toBeGreaterThan(0);
  });

  // Phrasings written for this test, not taken from the world's feed (world/modules/social-text.ts).
  const tones = (texts: readonly string[]) => texts.map((t) => postTone(t).tone);

  it('a negated market action says the opposite: never selling is holding, not buying is staying out', () => {
    expect(tones(['never selling my $PEPE, see you at 1B', 'I am not buying $PEPE here'])).toEqual(['positive', 'negative']);
  });

  it('regret turns a market action around: regret not accumulating is a call, regret aping a loss, regret selling early a missed gain', () => {
    expect(tones(['gonna regret not accumulating $PEPE below 5c', 'I regret aping into $PEPE', 'I regret selling my $PEPE last week'])).toEqual(['positive', 'negative', 'positive']);
  });

  it('idioms read as a whole: bought the top is no praise, a next target is no halt, drained LP is a rug even after "can\'t believe"', () => {
    expect(tones([
      'bought the top on $PEPE again',
      '$PEPE next target 50M mcap',
      'I can\'t believe the team drained the LP on $PEPE',
      'we are still so early on $PEPE',
      'smart money is accumulating $PEPE quietly',
      '$PEPE down 40% this week',
    ])).toEqual(['negative', 'positive', 'negative', 'positive', 'positive', 'negative']);
  });

  it('neutral where the text cannot tell: no scored word, words that cancel, a question that only mildly leans', () => {
    expect(tones(['$PEPE listed on a new exchange today', 'is $PEPE about to pump?', 'good entry, bad timing on $PEPE', 'is $PEPE a total disaster now? 💀💀'])).toEqual(['neutral', 'neutral', 'neutral', 'negative']);
  });

  it('counts mentions, distinct authors and KOLs per token, its tone from the text unless the source labels it, hottest first', () => {
    const kol = author('kol', 50_000, 900);
    const small = author('small', 120, 900);
    const posts = [
      post(kol, BIG, 'BIG', 'bullish on $BIG, great breakout', NOW - 100, 800),
      post(small, BIG, 'BIG', '$BIG looking strong', NOW - 200, 3),
      post(small, BIG, 'BIG', 'sold my $BIG, chart looks weak', NOW - 300, 2),
      post(author('x', 50, 900), BIG, 'BIG', 'what a day', NOW - 400, 0, 'negative'), // the source's own label wins
      post(small, GEM, 'GEM', 'thoughts on $GEM?', NOW - 500, 0),
    ];
    const [big, gem] = tokenSocial(posts);
    expect(big).toMatchObject({ token: BIG.toLowerCase(), symbol: 'BIG', mentions: 4, authors: 3, kolCount: 1, engagement: 805, tones: { positive: 2, negative: 2, neutral: 0 }, sentiment: 'Neutral', netSentiment: 0 });
    expect(big!.socialHype).toBe(socialHype(4, 3, 1, 805));
    expect(gem).toMatchObject({ mentions: 1, authors: 1, kolCount: 0, tones: { positive: 0, negative: 0, neutral: 1 }, sentiment: 'Neutral' });
    const bullish = tokenSocial([post(small, BIG, 'BIG', 'bullish'), post(kol, BIG, 'BIG', 'love it'), post(small, BIG, 'BIG', 'thoughts?')]);
    expect(bullish[0]!.sentiment).toBe('Positive');
    const bearish = tokenSocial([post(small, BIG, 'BIG', 'dumping'), post(kol, BIG, 'BIG', 'bearish'), post(small, BIG, 'BIG', 'thoughts?')]);
    expect(bearish[0]!.sentiment).toBe('Negative');
  });

  it('hype grows with distinct voices more than with one voice repeating itself, and stays within 0-100', () => {
    expect(socialHype(40, 40, 0, 0)).toBeGreaterThan(socialHype(40, 4, 0, 0));
    expect(socialHype(10, 10, 2, 0)).toBeGreaterThan(socialHype(10, 10, 0, 0));
    expect(socialHype(0, 0, 0, 0)).toBe(0);
    expect(socialHype(100_000, 100_000, 500, 1e9)).toBe(100);
  });

  it('warns of a shill campaign: most posts by a ring of a few new accounts posting again and again', () => {
    const shilled = shillWarning(campaign(4, 8, 10), null);
    expect(shilled).toMatchObject({ flagged: true, basis: 'window', postsRead: 42, newAccounts: 4, newAccountPosts: 32, ringAccounts: 4, ringPosts: 32, ringShare: 0.7619 });
    expect(shilled.reason).toBe('32 of 42 posts came from 4 accounts younger than 30 days posting 3+ times each');
    // Many new accounts posting once each is a crowd arriving, not a ring.
    const crowd = Array.from({ length: 30 }, (_, i) => post(author(`n${i}`, 80, 5), GEM, 'GEM', 'bought some $GEM'));
    expect(shillWarning(crowd, null)).toMatchObject({ flagged: false, newAccounts: 30, ringAccounts: 0 });
    // One new account doing most of the talking is the project's own, not a ring; nor is it with a newcomer posting twice.
    expect(shillWarning(campaign(1, 12, 4), null)).toMatchObject({ flagged: false, ringAccounts: 1 });
    const newcomer = author('newcomer', 40, 2);
    expect(shillWarning([...campaign(1, 8, 4), post(newcomer, GEM, 'GEM', 'gm'), post(newcomer, GEM, 'GEM', 'gm')], null)).toMatchObject({ flagged: false, newAccounts: 2, ringAccounts: 1 });
    // Old accounts outnumbering the ring: no warning.
    expect(shillWarning(campaign(3, 4, 20), null)).toMatchObject({ flagged: false, ringAccounts: 3, ringShare: 0.375 });
    // More accounts than a ring.
    expect(shillWarning(campaign(9, 3, 0), null)).toMatchObject({ flagged: false, ringAccounts: 9 });
    // Too few posts to judge.
    expect(shillWarning(campaign(2, 3, 0), null)).toMatchObject({ flagged: false, postsRead: 6 });
    expect(shillWarning(campaign(2, 3, 0), null).reason).toMatch(/at least 10 needed/);
  });

  it('reads the day before the liquidity was pulled, not the complaints after it', () => {
    const before = campaign(3, 6, 4); // 18 ring posts and 4 organic, 2-4 h ago
    const pulledAt = NOW - 90 * 60;
    const after = Array.from({ length: 30 }, (_, i) => post(author(`v${i}`, 300, 700), GEM, 'GEM', '$GEM rugged, scam', NOW - 60 * 60 + i));
    expect(shillWarning([...before, ...after], null).flagged).toBe(false); // over the whole window the victims drown it out
    const w = shillWarning([...before, ...after], pulledAt);
    expect(w).toMatchObject({ flagged: true, basis: 'before-pull', postsRead: 22, liquidityPulledAt: pulledAt });
    expect(w.reason).toMatch(/before the liquidity was pulled/);
  });

  it('a new account is one younger than the rule\'s days at the time of its post', () => {
    const justOld = author('a', 10, SOCIAL_RULES.newAccountDays);
    const ring = Array.from({ length: 12 }, () => post(justOld, GEM, 'GEM', 'gem', NOW));
    expect(shillWarning(ring, null)).toMatchObject({ newAccountPosts: 0, flagged: false });
  });

  it('summarises the row from its figures', () => {
    const [t] = tokenSocial(campaign(4, 8, 10));
    const warning = shillWarning(campaign(4, 8, 10), null);
    const { brief, detail } = summaries(t!, { priceChangePct: 12.345, marketCapUsd: 1_234_567 }, warning, 24);
    expect(brief).toBe(`$GEM: 42 mentions by 14 accounts in 24 h, ${t!.sentiment.toLowerCase()}, price +12.3%; shill warning`);
    expect(detail).toContain('market cap $1,234,567');
    expect(detail).toContain(`hype ${t!.socialHype}/100`);
    expect(detail).toContain('Shill warning: 32 of 42 posts came from 4 accounts younger than 30 days posting 3+ times each.');
    expect(summaries(t!, { priceChangePct: null, marketCapUsd: null }, shillWarning([], null), 24).detail).toContain('market cap unknown, no price change known');
    expect(summaries(t!, { priceChangePct: -0.01, marketCapUsd: null }, shillWarning([], null), 24).brief).toContain('price +0.0%');
    expect(summaries(t!, { priceChangePct: -2.26, marketCapUsd: null }, shillWarning([], null), 24).brief).toContain('price -2.3%');
  });
});
