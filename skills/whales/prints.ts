/** Whale prints: swaps above a size on one chain's venues over a window, with what was scanned and rejected. */
import type { ChainName } from '../../chain/chains.js';
import { round } from '../data/market.js';
import { linkTrades } from '../data/trades.js';
import type { SkillContext } from '../core/context.js';
import { FREE_ROWS } from '../core/params.js';
import { indexSource, loadAllMarkets } from '../data/load.js';

/** The row cap a snapshot keeps per list (free tools cut to the caller's limit, at most this). */
const SNAPSHOT_ROWS = FREE_ROWS.max;

/** What a whale print is: a swap this big, on this chain's venues, in this window. */
export const WHALE_PRINTS = { chain: 'base' as ChainName, windowMinutes: 1_440, minUsd: 50_000 } as const;

/** Big swaps on the payment chain's venues over the last day. */
export async function whalePrints(ctx: SkillContext, { chain: chainName, windowMinutes, minUsd } = WHALE_PRINTS) {
  const { loaded, unavailable } = await loadAllMarkets(ctx, [chainName]);
  const l = loaded[0];
  if (!l) return { prints: { available: false, reason: unavailable[0]?.reason ?? `${chainName} is not connected`, chain: chainName } };
  const fromBlock = (await l.market.reader.firstBlockAtOrAfter(l.checkpoint.timestamp - windowMinutes * 60)) ?? l.checkpoint.block + 1;
  const swaps = await l.market.reader.swaps(fromBlock, l.checkpoint.block);
  const quotes = new Set([l.chain.spec.usdc.toLowerCase(), l.chain.spec.wrappedNative.toLowerCase()]);
  const eth = l.market.priceNow(l.chain.spec.wrappedNative)?.usd ?? null;
  const prints: Record<string, unknown>[] = [];
  let rejected = 0;
  let quoteSwaps = 0;
  let quoteSwapUsd = 0;
  // One print per trade (skills/data/trades.ts): a multi-hop route is one swap, from its first token in to its last out.
  const trades = linkTrades(swaps, l.market.pools);
  rejected += swaps.length - trades.reduce((n, t) => n + t.hops.length, 0);
  for (const s of trades) {
    // The side that is not the quote is what was bought or sold; a swap of two quotes is counted apart.
    const base = quotes.has(s.tokenIn) && !quotes.has(s.tokenOut) ? s.tokenOut : s.tokenIn;
    const bought = base === s.tokenOut;
    const price = l.market.priceNow(base)?.usd;
    const decimals = l.market.decimals(base);
    if (price === undefined || decimals === null) {
      rejected++;
      continue;
    }
    const raw = bought ? s.amountOut : s.amountIn;
    const usd = (Number(raw) / 10 ** decimals) * price;
    if (quotes.has(s.tokenIn) && quotes.has(s.tokenOut)) {
      quoteSwaps++;
      quoteSwapUsd += usd;
      continue;
    }
    if (usd >= minUsd) prints.push({ token: base, symbol: l.market.tokens.get(base)?.symbol ?? null, side: bought ? 'buy' : 'sell', venue: l.market.pools.find((p) => p.pair === s.hops[0]!.pool)!.dex, usd: round(usd, 2), tx: s.tx, block: s.block });
  }
  return {
    prints: {
      available: true, chain: chainName, chainId: l.chain.spec.chainId, source: indexSource(l),
      prints: prints.sort((a, b) => (b.usd as number) - (a.usd as number)).slice(0, SNAPSHOT_ROWS),
      minUsd, ethUsd: eth === null ? null : round(eth, 2), ethSource: `${l.chain.spec.wrappedNativeSymbol} deepest pool, ${indexSource(l)}`,
      windowMinutes, rowsScanned: swaps.length, rowsRejected: rejected, quoteSwaps, quoteSwapUsd: round(quoteSwapUsd, 2),
      note: 'prices are current pool prices (market/v1), not the price at each swap',
    },
  };
}
