/**
 * Where a token named by symbol is answered when the question names no chain: on the indexed
 * chain where that symbol's token is most liquid (its deepest priced pool, in USD), said in the
 * answer. A chain the question named, or an address, is never second-guessed; the planner has
 * already sent a chain's own native asset home (BNB to bsc).
 */
import type { ChainName } from '../chain/chains.js';
import type { SkillContext } from '../skills/context.js';
import { resolveToken } from '../skills/intel/resolve.js';
import { loadMarket } from '../skills/market/load.js';
import { classifyFields } from './args.js';
import type { AgentTool } from './tools.js';

export interface ChainChoice {
  readonly args: Record<string, unknown>;
  /** What was chosen and why, for the answer; absent when nothing was chosen. */
  readonly note?: string;
}

export async function chooseChain(tool: AgentTool, args: Record<string, unknown>, ctx: SkillContext): Promise<ChainChoice> {
  const roles = [...classifyFields(tool)];
  const chainField = roles.find(([, r]) => r.kind === 'chain');
  const symbolField = roles.find(([, r]) => (r.kind === 'address' && r.acceptsSymbol) || r.kind === 'symbol');
  if (!chainField || !symbolField || args[chainField[0]] !== undefined) return { args };
  const symbol = args[symbolField[0]];
  if (typeof symbol !== 'string' || /^0x/i.test(symbol)) return { args };
  const served = new Set(ctx.chains.list().map((c) => c.name as string));
  const found: { chain: string; liquidityUsd: number }[] = [];
  for (const chain of chainField[1].values!.filter((c) => served.has(c))) {
    try {
      const { market } = await loadMarket(ctx, chain as ChainName);
      const main = market.mainPool(resolveToken(market, symbol));
      const liquidityUsd = main ? (market.liquidityUsd(main.pool) ?? 2 * main.quoteUsd) : 0;
      if (liquidityUsd > 0) found.push({ chain, liquidityUsd });
    } catch {
      // Not on this chain's index (or the chain is not indexed yet): not a candidate.
    }
  }
  if (found.length < 2) return found.length ? { args: { ...args, [chainField[0]]: found[0]!.chain } } : { args };
  found.sort((a, b) => b.liquidityUsd - a.liquidityUsd);
  const best = found[0]!;
  const others = found.slice(1).map((f) => `${f.chain} $${Math.round(f.liquidityUsd).toLocaleString('en-US')}`).join(', ');
  return {
    args: { ...args, [chainField[0]]: best.chain },
    note: `${symbol} trades on ${found.length} indexed chains; answered for ${best.chain}, where it is most liquid ($${Math.round(best.liquidityUsd).toLocaleString('en-US')} in its deepest pool; ${others}). Name a chain to ask about another.`,
  };
}
