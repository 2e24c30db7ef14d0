/**
 * The records engines' prices in a deployment: each listed company's stock token on the stock
 * chain, valued as the rwa boards value it (its underlying's feed x the token's ERC-8056
 * multiplier, both as they stood at the time asked), so a return spans a split or a dividend the
 * way a holder of the token lived it. Read with getLogs up to the chain's head (feed rounds and
 * multiplier changes, cached per block); a time before the feed's first round has no price.
 */
import { STOCK_DIRECTORIES, STOCK_FEED_CHAIN } from '../../chain/stocks.js';
import type { SkillContext } from '../core/context.js';
import { feedRounds, priceAt, tokenHistory } from '../stocks/history.js';
import { readStockFeeds, readStockUniverse } from '../stocks/universe.js';
import type { PriceReader } from './prices.js';

export async function stockTokenPrices(ctx: Pick<SkillContext, 'chains'>): Promise<PriceReader> {
  const chain = ctx.chains.list().find((c) => c.name === STOCK_FEED_CHAIN);
  if (!chain) return { source: `no prices: this deployment does not read ${STOCK_FEED_CHAIN}`, priceUsd: async () => null };
  const block = Number(await chain.client.getBlockNumber());
  // A stock chain without the feeds' directory has no stock to price.
  const code = await chain.client.getCode({ address: STOCK_DIRECTORIES[STOCK_FEED_CHAIN]!.feeds! });
  if (!code || code === '0x') return { source: `no prices: ${STOCK_FEED_CHAIN} carries no directory of the underlyings' feeds`, priceUsd: async () => null };
  const [feeds, universe] = await Promise.all([readStockFeeds(chain, block), readStockUniverse(chain, block)]);
  const rounds = await feedRounds(chain, feeds, block);
  // One token per underlying on the stock chain: its multiplier now, walked back through its changes.
  const tokens = new Map<string, (typeof universe.tokens)[number]>();
  for (const t of universe.tokens) if (!tokens.has(t.underlying)) tokens.set(t.underlying, t);
  const { multipliers } = await tokenHistory(chain, [...tokens.values()].map((t) => t.address), block);
  const multiplierAt = (ticker: string, time: number): number => {
    const token = tokens.get(ticker);
    if (!token) return 1;
    // The multiplier before the first change that took effect after `time` (the one in effect now when none did).
    const later = multipliers.filter((c) => c.token.toLowerCase() === token.address.toLowerCase() && c.effectiveAt > time).sort((a, b) => a.effectiveAt - b.effectiveAt);
    return later.length ? later[0]!.from : token.multiplier;
  };
  return {
    source: `${STOCK_FEED_CHAIN} stock tokens: underlying feed x uiMultiplier, read to block ${block}`,
    async priceUsd(ticker, time) {
      const series = rounds.get(ticker);
      const price = series ? priceAt(series, time) : null;
      return price === null ? null : price * multiplierAt(ticker, time);
    },
  };
}
