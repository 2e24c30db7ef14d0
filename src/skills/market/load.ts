/** Opens a chain's market from its index for a skill; a chain not yet indexed is unavailable. */
import type { ChainName } from '../../chain/chains.js';
import type { ConnectedChain } from '../../chain/runtime.js';
import { SibylError } from '../../errors.js';
import { IndexReader, type Checkpoint } from '../../indexer/reader.js';
import { Market } from '../../intel/market.js';
import { PERIODS, type Period } from '../../intel/periods.js';
import type { SkillContext } from '../context.js';

export async function loadMarket(ctx: SkillContext, chainName: ChainName): Promise<{ chain: ConnectedChain; market: Market; checkpoint: Checkpoint }> {
  const chain = ctx.chains.get(chainName);
  const reader = new IndexReader(ctx.store, chain.spec.chainId);
  const checkpoint = await reader.checkpoint();
  if (!checkpoint) throw new SibylError('upstream_unavailable', `${chainName} is not indexed yet; nothing was charged`);
  return { chain, market: await Market.load(chain, reader), checkpoint };
}

/** The first indexed block of the period ending at the checkpoint (past head when none). */
export async function periodStartBlock(market: Market, checkpoint: Checkpoint, period: Period): Promise<number> {
  return (await market.reader.firstBlockAtOrAfter(checkpoint.timestamp - PERIODS[period].seconds)) ?? checkpoint.block + 1;
}
