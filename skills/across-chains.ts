/**
 * A wallet scan over several chains: each chain read on its own, those that fail listed under
 * `errors` (never guessed), and no answer at all (refused, uncharged) when none can be read.
 * The answer carries the multi-chain provenance at the top and each chain's own inside.
 */
import type { ChainName } from '../chain/chains.js';
import { SibylError } from './errors.js';
import type { SkillContext } from './context.js';

/** The chains a scan reads: the one named, else every connected chain among `allowed`. */
export function scanChains(ctx: SkillContext, named: ChainName | undefined, allowed: readonly ChainName[]): ChainName[] {
  return named ? [named] : ctx.chains.list().map((c) => c.name).filter((n) => allowed.includes(n));
}

export interface ChainRead {
  readonly chain: string;
  readonly source: string;
  readonly asOf: { readonly timestamp: string };
}

export async function acrossChains<R extends ChainRead>(names: readonly ChainName[], read: (name: ChainName) => Promise<R>, methodology: string) {
  const chains: R[] = [];
  const errors: { chain: string; reason: string }[] = [];
  await Promise.all(names.map(async (name) => {
    try {
      chains.push(await read(name));
    } catch (err) {
      errors.push({ chain: name, reason: err instanceof SibylError ? err.message : 'the chain could not be read' });
    }
  }));
  if (!chains.length) throw new SibylError('upstream_unavailable', `no chain could be read: ${errors.map((e) => `${e.chain}: ${e.reason}`).join('; ')}; nothing was charged`);
  chains.sort((a, b) => names.indexOf(a.chain as ChainName) - names.indexOf(b.chain as ChainName));
  return {
    source: [...new Set(chains.map((c) => c.source))].join(','),
    asOf: { timestamp: chains.map((c) => c.asOf.timestamp).sort().at(-1)! },
    methodology,
    chains,
    errors,
  };
}
