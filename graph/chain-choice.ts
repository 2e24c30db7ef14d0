/**
 * Where a token named by symbol is answered when the question names no chain: on the indexed
 * chain where that symbol's token is most liquid (its deepest priced pool, in USD), said in the
 * answer. A chain the question named, or an address, is never second-guessed; the planner has
 * already sent a chain's own native asset home (BNB to bsc).
 */
import type { ChainName } from '../chain/chains.js';
import type { SkillContext } from '../skills/core/context.js';
import { resolveToken } from '../skills/data/resolve.js';
import { loadMarket } from '../skills/data/load.js';
import { within } from '../lib/time.js';
import { classifyFields } from './offline/args.js';
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
  // Every chain at once, each bounded: one slow or dead chain must not hold up the question.
  const depths = await Promise.all(chainField[1].values!.filter((c) => served.has(c)).map((chain) => depthOn(ctx, chain as ChainName, symbol)));
  const found = depths.filter((d): d is { chain: string; liquidityUsd: number } => d !== null && d.liquidityUsd > 0);
  if (found.length < 2) return found.length ? { args: { ...args, [chainField[0]]: found[0]!.chain } } : { args };
  found.sort((a, b) => b.liquidityUsd - a.liquidityUsd);
  const best = found[0]!;
  const others = found.slice(1).map((f) => `${f.chain} $${Math.round(f.liquidityUsd).toLocaleString('en-US')}`).join(', ');
  return {
    args: { ...args, [chainField[0]]: best.chain },
    note: `${symbol} trades on ${found.length} indexed chains; answered for ${best.chain}, where it is most liquid ($${Math.round(best.liquidityUsd).toLocaleString('en-US')} in its deepest pool; ${others}). Name a chain to ask about another.`,
  };
}

/** How long one chain may take to say how deep a symbol is there, before it is left out. */
const PROBE_MS = 3_000;

/** The USD liquidity of the symbol's deepest pool on `chain`, or null when it is not there or the chain does not answer in time. */
async function depthOn(ctx: SkillContext, chain: ChainName, symbol: string): Promise<{ chain: string; liquidityUsd: number } | null> {
  const probe = (async () => {
    const { market } = await loadMarket(ctx, chain);
    const main = market.mainPool(resolveToken(market, symbol));
    return { chain, liquidityUsd: main ? (market.liquidityUsd(main.pool) ?? 2 * main.quoteUsd) : 0 };
  })().catch(() => null); // not on this chain's index, or the chain is not indexed yet
  return within(PROBE_MS, probe, null);
}
