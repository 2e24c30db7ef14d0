/**
 * A read over several chains: each chain read on its own, those that fail listed under `errors`
 * (never guessed), and no answer at all (refused, uncharged) when none can be read. The answer
 * carries the multi-chain provenance at the top and each chain's own inside.
 */
import type { ChainName } from '../../chain/chains.js';
import { SibylError } from './errors.js';
import type { SkillContext } from './context.js';

/** The chains a read covers: the one named, else every connected chain among `allowed`. */
export function scanChains(ctx: SkillContext, named: ChainName | undefined, allowed: readonly ChainName[]): ChainName[] {
  return named ? [named] : ctx.chains.list().map((c) => c.name).filter((n) => allowed.includes(n));
}

/** Reads each chain; what it read in the order asked, what failed under `errors`; refused when nothing could be read. */
export async function readEach<T>(names: readonly ChainName[], read: (name: ChainName) => Promise<T>) {
  const done: { name: ChainName; value: T }[] = [];
  const errors: { chain: string; reason: string }[] = [];
  await Promise.all(names.map(async (name) => {
    try {
      done.push({ name, value: await read(name) });
    } catch (err) {
      errors.push({ chain: name, reason: err instanceof SibylError ? err.message : 'the chain could not be read' });
    }
  }));
  if (!done.length) throw new SibylError('upstream_unavailable', `no chain could be read: ${errors.map((e) => `${e.chain}: ${e.reason}`).join('; ')}; nothing was charged`);
  done.sort((a, b) => names.indexOf(a.name) - names.indexOf(b.name));
  return { done, errors };
}

export interface ChainRead {
  readonly chain: string;
  readonly source: string;
  readonly asOf: { readonly timestamp: string };
}

/** The top of a multi-chain answer: every source read and the latest moment any chain was read at. */
export function multiChainProvenance(chains: readonly ChainRead[], methodology: string) {
  return { source: [...new Set(chains.map((c) => c.source))].join(','), asOf: { timestamp: chains.map((c) => c.asOf.timestamp).sort().at(-1)! }, methodology };
}

/** A scan whose per-chain answers carry their own provenance: `chains` and `errors` under the multi-chain provenance. */
export async function acrossChains<R extends ChainRead>(names: readonly ChainName[], read: (name: ChainName) => Promise<R>, methodology: string) {
  const { done, errors } = await readEach(names, read);
  const chains = done.map((d) => d.value);
  return { ...multiChainProvenance(chains, methodology), chains, errors };
}
