/**
 * Admission: what a request alone decides, answered before any payment is asked for (docs/protocols.md,
 * "Refusals before payment"), so no client signs for an answer that cannot be served.
 * Every surface runs `admit` after validating the body; skills declare what they need with the
 * helpers below. Admission only reads the index (checkpoint, pools, symbols, first prices), or one
 * cheap chain read where that alone decides the answer (code at an address): the work itself
 * stays in the handler, after payment.
 */
import type { Address } from 'viem';
import { CHAINS, type ChainName } from '../../chain/chains.js';
import type { ConnectedChain } from '../../chain/runtime.js';
import { SibylError } from './errors.js';
import { FORECAST_LIMITS } from '../forecast/slots.js';
import { IndexReader } from '../../indexer/reader.js';
import type { Market } from '../data/market.js';
import { PERIODS, type Period } from '../data/periods.js';
import { resolveToken } from '../data/resolve.js';
import type { SkillContext } from './context.js';
import { loadMarket } from '../data/load.js';
import { disabledRefusal, isWorking, type Skill } from './registry.js';

/** Refuses the call when the skill's engine is missing here or its own admission refuses it. */
export async function admit(skill: Pick<Skill, 'disabledReason' | 'disabledCode' | 'admit'>, input: unknown, ctx: SkillContext): Promise<void> {
  if (!isWorking(skill)) throw disabledRefusal(skill);
  await skill.admit?.(input as never, ctx);
}

/** An EVM chain this deployment is connected to (read over JSON-RPC); the chain itself is the work's input. */
export function admitChain(ctx: SkillContext, name: ChainName): ConnectedChain {
  const spec = CHAINS[name];
  if (spec.kind !== 'evm') {
    throw new SibylError('chain_unavailable', `${spec.title} is not an EVM chain and this operation reads an EVM index (the curve-* operations serve Solana); nothing was charged`, { reason: 'not_evm' });
  }
  const connected: ChainName[] = ctx.chains.list().map((c) => c.name);
  if (!connected.includes(name)) {
    throw new SibylError('chain_unavailable', `${name} is not indexed by this deployment (it indexes ${connected.join(', ') || 'no chain'}); nothing was charged`, { reason: 'not_indexed' });
  }
  return ctx.chains.get(name);
}

/**
 * A contract deployed at `address` on an EVM chain this deployment reads, by one `eth_getCode`:
 * an address with no code (an externally owned account, or nothing deployed there) has nothing to
 * review or audit, so it is refused before any payment instead of sold as `available: false`.
 */
export async function admitContract(ctx: SkillContext, name: ChainName, address: Address): Promise<void> {
  const chain = admitChain(ctx, name);
  const code = await chain.client.getCode({ address });
  if (!code || code === '0x') {
    throw new SibylError('contract_not_found', `no contract code at ${address} on ${name} (an externally owned account, or not deployed on this chain); nothing was charged`, { reason: 'no_code' });
  }
}

/**
 * A chain whose DEX index this deployment holds: EVM, with DEX factories to index, connected, and
 * indexed at least once. Market operations (pairs, prices, rankings, flows) need all four.
 */
export async function admitMarket(ctx: SkillContext, name: ChainName): Promise<void> {
  const spec = CHAINS[name];
  if (spec.kind === 'evm' && spec.dexes.length === 0) {
    throw new SibylError('chain_unavailable', `no DEX is indexed on ${spec.title}, and this operation reads DEX pools; nothing was charged`, { reason: 'no_dex' });
  }
  const chain = admitChain(ctx, name);
  if (!(await new IndexReader(ctx.store, chain.spec.chainId).checkpoint())) {
    throw new SibylError('upstream_unavailable', `${name} is not indexed yet; try again shortly. Nothing was charged`);
  }
}

/** At least one chain of a multi-chain request can be read; refused when none can (a report never sells only gaps). */
export async function admitAnyMarket(ctx: SkillContext, names: readonly ChainName[]): Promise<void> {
  const refusals: SibylError[] = [];
  for (const name of names) {
    try {
      return await admitMarket(ctx, name);
    } catch (err) {
      if (!(err instanceof SibylError)) throw err;
      refusals.push(err);
    }
  }
  // Chains that are only not indexed yet will be: that is a wait, not a chain this deployment lacks.
  const code = refusals.length && refusals.every((e) => e.code === 'upstream_unavailable') ? 'upstream_unavailable' : 'chain_unavailable';
  const why = refusals.map((e, i) => `${names[i]}: ${e.extra.reason ?? e.code}`).join('; ') || 'no chain is connected';
  throw new SibylError(code, `none of the chains asked for can be read here (${why}); nothing was charged`);
}

/**
 * A token of the chain's index, by address or symbol (`token_not_found` otherwise); with `priced`,
 * one a qualifying pool prices (`price_unavailable` otherwise: it would have no price or candles).
 */
export async function admitToken(ctx: SkillContext, name: ChainName, token: string, options: { priced?: boolean } = {}): Promise<void> {
  await indexedToken(ctx, name, token, options.priced ?? false);
}

async function indexedToken(ctx: SkillContext, name: ChainName, token: string, priced: boolean): Promise<{ market: Market; address: string }> {
  await admitMarket(ctx, name);
  const { market } = await loadMarket(ctx, name);
  const address = resolveToken(market, token);
  if (priced && market.priceNow(address) === null) {
    throw new SibylError('price_unavailable', `no pool with enough quote liquidity prices ${token} on ${name}; nothing was charged`);
  }
  return { market, address };
}

/**
 * A chart forecast the index can feed: forecasting on, the token priced, and at most the candles
 * its history can hold over the period reaching the models' minimum (an upper bound from where
 * the index and the token's pool begin, so a forecast that could run is never refused here).
 */
export async function admitChartForecast(ctx: SkillContext, name: ChainName, token: string, period: Period): Promise<void> {
  if (!ctx.forecast) throw new SibylError('forecast_unavailable', 'forecasting is switched off on this deployment; nothing was charged');
  const { market, address } = await indexedToken(ctx, name, token, true);
  const { seconds, candleSeconds } = PERIODS[period];
  const most = await market.candlesAtMost(address, seconds, candleSeconds);
  if (most < FORECAST_LIMITS.minInputs) {
    throw new SibylError('forecast_unavailable', `a forecast needs at least ${FORECAST_LIMITS.minInputs} candles; the index holds at most ${most} of ${token} over ${period} (its history is shorter than the period); nothing was charged`);
  }
}
