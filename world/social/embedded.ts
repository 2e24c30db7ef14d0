/**
 * The embedded social feed (`source: "embedded"`): the posts the world's social module
 * (world/modules/social.ts) writes on BSC as the world's blocks are made, read where the module
 * keeps them. It exists only where this process runs the BSC world.
 */
import { getAddress } from 'viem';
import type { EvmChainName } from '../../chain/chains.js';
import { SOCIAL_MODULE, socialBoard, type SocialBoard } from '../modules/social.js';
import type { World } from '../world.js';
import type { SocialFeed, SocialPost } from './feed.js';

export class EmbeddedSocialFeed implements SocialFeed {
  readonly source = 'embedded';

  private constructor(readonly chain: EvmChainName, private readonly board: SocialBoard) {}

  /** The feed of the first of `worlds` with a social module (the BSC world), if any. */
  static of(worlds: readonly World[]): EmbeddedSocialFeed | undefined {
    for (const world of worlds) {
      const board = socialBoard(world.module(SOCIAL_MODULE));
      if (board) return new EmbeddedSocialFeed(world.labels.chain as EvmChainName, board);
    }
    return undefined;
  }

  async historyStart(): Promise<number | null> {
    return this.board.historyStart();
  }

  async head(): Promise<number> {
    return this.board.head();
  }

  async posts(fromTime: number, toTime: number): Promise<SocialPost[]> {
    return this.board.posts(fromTime, toTime).map((p) => ({ ...p, token: { ...p.token, contract: getAddress(p.token.contract) } }));
  }
}
