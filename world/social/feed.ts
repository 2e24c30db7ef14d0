/**
 * The social feed `get_social_hype` reads: posts that mention a token (by its contract, as a
 * source resolves a cashtag), with their author and engagement. The embedded feed
 * (world/social/embedded.ts) serves the posts the world's social module writes on BSC; an
 * adapter for a real source (a social network's search API, a data vendor's mention stream)
 * implements the same interface and is chosen by SOCIAL_FEED. An adapter must:
 *  - return posts in time order, within [fromTime, toTime] inclusive (unix seconds);
 *  - resolve each post's token to one contract on `chain` (posts it cannot resolve are left out);
 *  - give each author's follower count and account creation time as the source reports them
 *    (the shill warning reads account age, KOL counting reads followers);
 *  - set `sentiment` only when the source itself labels posts (Sibyl scores the text otherwise).
 */
import type { Address } from 'viem';
import type { EvmChainName } from '../../chain/chains.js';

export interface SocialAuthor {
  /** Stable id of the account at the source. */
  readonly id: string;
  readonly handle: string;
  readonly followers: number;
  /** When the account was created (unix seconds). */
  readonly createdAt: number;
}

export interface SocialPost {
  readonly id: string;
  /** Unix seconds. */
  readonly time: number;
  readonly author: SocialAuthor;
  readonly token: { readonly contract: Address; readonly symbol: string };
  readonly text: string;
  /** The source's own label of the post, when it gives one. */
  readonly sentiment?: 'positive' | 'negative' | 'neutral';
  readonly engagement: { readonly likes: number; readonly reposts: number; readonly replies: number };
}

export interface SocialFeed {
  /** `embedded` for the world's feed, otherwise the adapter's name. */
  readonly source: string;
  /** The chain whose tokens the posts mention. */
  readonly chain: EvmChainName;
  /** Unix seconds of the earliest post the feed still holds. */
  historyStart(): Promise<number | null>;
  /** The time the feed has been written up to (unix seconds). */
  head(): Promise<number>;
  posts(fromTime: number, toTime: number): Promise<SocialPost[]>;
}
