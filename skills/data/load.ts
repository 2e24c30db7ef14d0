/** Opens a chain's market from its index for a skill; a chain not yet indexed is unavailable. */
import type { ChainName } from '../../chain/chains.js';
import type { ConnectedChain } from '../../chain/runtime.js';
import { SibylError } from '../core/errors.js';
import { IndexReader, type Checkpoint } from '../../indexer/reader.js';
import { windowCoverage, type Coverage } from './coverage.js';
import { Market } from './market.js';
import type { Period } from './periods.js';
import { periodWindow } from './pricing.js';
import type { SkillContext } from '../core/context.js';

/**
 * A Market is fixed for one checkpoint: requests that arrive while the index stands still share
 * it (and the price timelines it has already built), per store and chain.
 */
const markets = new WeakMap<object, Map<number, { block: number; market: Promise<Market> }>>();

export async function loadMarket(ctx: SkillContext, chainName: ChainName): Promise<{ chain: ConnectedChain; market: Market; checkpoint: Checkpoint }> {
  const chain = ctx.chains.get(chainName);
  const reader = new IndexReader(ctx.store, chain.spec.chainId);
  const checkpoint = await reader.checkpoint();
  if (!checkpoint) throw new SibylError('upstream_unavailable', `${chainName} is not indexed yet; nothing was charged`);
  let perStore = markets.get(ctx.store);
  if (!perStore) markets.set(ctx.store, (perStore = new Map()));
  let cached = perStore.get(chain.spec.chainId);
  if (!cached || cached.block !== checkpoint.block) {
    cached = { block: checkpoint.block, market: Market.load(chain, reader) };
    perStore.set(chain.spec.chainId, cached);
    cached.market.catch(() => perStore!.delete(chain.spec.chainId));
  }
  const market = await cached.market;
  // The market was built at this checkpoint; answer with the same one.
  return { chain, market, checkpoint: { ...checkpoint, block: market.head.block, timestamp: market.head.timestamp } };
}

/** The first indexed block of the period ending at the checkpoint (past head when none): the window every engine reads (pricing.ts). */
export async function periodStartBlock(market: Market, checkpoint: Checkpoint, period: Period): Promise<number> {
  return (await market.reader.firstBlockAtOrAfter(periodWindow(checkpoint, period).start)) ?? checkpoint.block + 1;
}

/** How much of the period ending at the checkpoint the index's history covers. */
export function periodCoverage(market: Market, checkpoint: Checkpoint, period: Period): Coverage {
  const { start, end } = periodWindow(checkpoint, period);
  return windowCoverage(start, end, market.historyStart);
}

export type LoadedMarket = Awaited<ReturnType<typeof loadMarket>>;

/** Where a figure read from one chain's index comes from: `index:<chain>@<block>`. */
export const indexSource = (l: Pick<LoadedMarket, 'chain' | 'checkpoint'>) => `index:${l.chain.name}@${l.checkpoint.block}`;

/** Every connected chain's market (or those in `only`), and the chains that could not be read, with why. */
export async function loadAllMarkets(ctx: SkillContext, only?: readonly ChainName[]) {
  const loaded: LoadedMarket[] = [];
  const unavailable: { chain: string; reason: string }[] = [];
  for (const chain of ctx.chains.list().filter((c) => !only || only.includes(c.name))) {
    try {
      loaded.push(await loadMarket(ctx, chain.name));
    } catch (err) {
      unavailable.push({ chain: chain.name, reason: (err as Error).message });
    }
  }
  return { loaded, unavailable };
}
