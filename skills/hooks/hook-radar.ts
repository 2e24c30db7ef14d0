/**
 * v4 hook radar: the pools of a hook-enabled singleton pool manager (Uniswap v4's PoolManager,
 * or the embedded Base's own at the same address), grouped by hook: the permissions its address
 * carries, what its code can do (owner powers, upgradeability, self-destruct), and its pools'
 * volume and fees (hooks/v1). Chain ids as the published scan_hook_layer tool takes them (4663, 8453;
 * both when none is named); a chain id this deployment does not serve is `available: false`.
 */
import { z } from 'zod';
import type { Address } from 'viem';
import { CHAINS, V4_POOL_MANAGERS, type EvmChainName } from '../../chain/chains.js';
import type { ConnectedChain } from '../../chain/runtime.js';
import { HOOK_PERMISSIONS, HOOK_RISKS, HOOKS_METHODOLOGY, scanHookLayer } from './engine.js';
import { PERIOD_NAMES, PERIODS } from '../data/periods.js';
import { provenance } from '../data/provenance.js';
import { SibylError } from '../core/errors.js';
import { loadMarket, periodStartBlock } from '../data/load.js';
import { address, multiChainProvenanceShape, provenanceShape } from '../core/outputs.js';
import { limitParam, periodParam } from '../core/params.js';
import { defineSkill } from '../core/registry.js';
import { usd } from '../core/summary.js';
import type { SkillContext } from '../core/context.js';

/** The chain ids the published scan_hook_layer tool takes: those of the chains with a known pool manager (4663, 8453), ascending. */
export const HOOK_CHAIN_IDS = (Object.keys(V4_POOL_MANAGERS) as EvmChainName[]).map((name) => CHAINS[name].chainId).sort((a, b) => a - b) as [number, number, ...number[]];
/** "4663 (Robinhood Chain) or 8453 (Base)". */
const HOOK_CHAINS = (Object.keys(V4_POOL_MANAGERS) as EvmChainName[]).sort((a, b) => CHAINS[a].chainId - CHAINS[b].chainId).map((name) => `${CHAINS[name].chainId} (${CHAINS[name].title})`).join(' or ');

const poolRow = z.object({
  id: z.string().describe('PoolId: keccak256 of the ABI-encoded PoolKey.'),
  currency0: z.object({ address, symbol: z.string().nullable() }),
  currency1: z.object({ address, symbol: z.string().nullable() }),
  fee: z.union([z.number().int(), z.literal('dynamic')]).describe('LP fee in hundredths of a basis point (3000 = 0.3%), or dynamic (set by the hook).'),
  tickSpacing: z.number().int(),
  initializedBlock: z.number().int(),
  swaps: z.number().int().describe('Swap logs in the period.'),
  untradedSwaps: z.number().int().describe('Swaps in which the pool itself traded nothing: the hook served, or kept, the input.'),
  volume0: z.string().describe('Token units of currency0 moved by the pool\'s own trades in the period.'),
  volume1: z.string(),
  volumeUsd: z.number().nullable().describe('Each swap at its moment\'s price; null when a side has no price.'),
  fees0: z.string().describe('LP fees in currency0: each swap\'s input x its fee.'),
  fees1: z.string(),
  feesUsd: z.number().nullable(),
});

const hookRow = z.object({
  hook: address,
  flags: z.string().describe('The lowest 14 bits of the address, hex.'),
  permissions: z.array(z.enum(HOOK_PERMISSIONS)).describe('Callbacks the address enables (v4: bit 13 beforeInitialize ... bit 0 afterRemoveLiquidityReturnDelta).'),
  risks: z.array(z.object({ kind: z.enum(HOOK_RISKS), note: z.string(), evidence: z.string() })),
  riskLevel: z.enum(['high', 'medium', 'low']).describe('high: it can take funds or cannot run (returns-delta permissions, no code, SELFDESTRUCT); medium: owner powers, upgradeable, DELEGATECALL.'),
  code: z.object({ bytes: z.number().int(), opcodes: z.array(z.string()), functions: z.array(z.string()).describe('Owner-power functions its code (or its implementation\'s) dispatches on.') }),
  proxy: z.object({ implementation: address, admin: address.nullable() }).nullable().describe('EIP-1967 proxy: where its calls go.'),
  owner: address.nullable(),
  firstPoolBlock: z.number().int(),
  pools: z.array(poolRow),
  swaps: z.number().int(),
  volumeUsd: z.number().nullable(),
  feesUsd: z.number().nullable(),
});

const chainScan = z.object({
  available: z.literal(true),
  ...provenanceShape,
  manager: address,
  poolsRead: z.number().int().describe('Pools initialized on the manager (all history to asOf).'),
  hooklessPools: z.number().int(),
  hookCount: z.number().int(),
  initializeLogs: z.number().int(),
  swapLogs: z.number().int().describe('Swap logs read over blockRange (the period).'),
  hooks: z.array(hookRow).describe('Newest first (by the block of its first pool), up to limit.'),
});
const chainGap = z.object({ available: z.literal(false), chainId: z.number().int(), reason: z.string() });

/** The connected chain with this id, with the pool manager announced for it; or why there is none. */
function servedChain(ctx: SkillContext, chainId: number): { chain: ConnectedChain; manager: Address } | { reason: string } {
  const chain = ctx.chains.list().find((c) => c.spec.chainId === chainId);
  if (!chain) {
    const served = ctx.chains.list().map((c) => `${c.name} (${c.spec.chainId})`).join(', ') || 'none';
    return { reason: `no chain with id ${chainId} is served by this deployment (it serves ${served})` };
  }
  const manager = V4_POOL_MANAGERS[chain.name];
  return manager ? { chain, manager } : { reason: `no hook-enabled pool manager is known on ${chain.name}` };
}

/** The first block at or after unix time `ts` (head + 1 when none), by bisection over block headers. */
async function blockAtOrAfter(chain: ConnectedChain, ts: number, head: bigint): Promise<bigint> {
  let [lo, hi] = [0n, head + 1n];
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (Number((await chain.client.getBlock({ blockNumber: mid })).timestamp) >= ts) hi = mid;
    else lo = mid + 1n;
  }
  return lo;
}

export const hookRadarSkill = defineSkill({
  id: 'v4-hook-radar',
  title: 'Uniswap v4 hook radar',
  description: `Pools on a hook-enabled singleton pool manager (Uniswap v4's PoolManager), by hook, newest first: the permissions decoded from the hook's address bits, bytecode risks (owner fee and pause powers, upgradeable proxies, DELEGATECALL, SELFDESTRUCT, hooks that can take a swap's input), and each pool's swaps, volume and fees over the period. Chain id ${HOOK_CHAINS}; both when omitted.`,
  tags: ['uniswap-v4', 'hooks', 'pool-manager', 'defi', 'risk'],
  examples: ['New v4 hooks today', 'What hooks do the new Uniswap v4 pools use and are any of them risky?', 'Scan the v4 hook layer on Base'],
  input: z.strictObject({
    chainId: z.union(HOOK_CHAIN_IDS.map((id) => z.literal(id)) as [z.ZodLiteral<number>, z.ZodLiteral<number>, ...z.ZodLiteral<number>[]]).optional().describe(`Chain id: ${HOOK_CHAIN_IDS.join(' or ')}; omit for both.`),
    limit: limitParam(1, 100, 20).describe('Hooks to return per chain, 1-100; default 20.'),
    timeperiod: periodParam('7d'),
  }),
  price: '0.25',
  toolName: 'v4_hook_radar',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...multiChainProvenanceShape,
    timeperiod: z.enum(PERIOD_NAMES),
    chains: z.array(z.union([chainScan, chainGap])).describe('Each chain id asked for: its scan, or available: false with the reason.'),
  }),
  summarize: (r) => {
    const parts = (r.chains as any[]).map((c) => {
      if (!c.available) return `chain ${c.chainId}: not available (${c.reason})`;
      const hooks = c.hooks as { hook: string; riskLevel: string; risks: { kind: string }[]; volumeUsd: number | null; pools: unknown[] }[];
      const risky = hooks.filter((h) => h.riskLevel !== 'low');
      return `${c.chain}: ${c.hookCount} hook${c.hookCount === 1 ? '' : 's'} over ${c.poolsRead - c.hooklessPools} hooked pools (${c.hooklessPools} without a hook); ` +
        (risky.length ? `${risky.length} risky: ${risky.slice(0, 4).map((h) => `${h.hook} (${h.riskLevel}: ${h.risks.map((x) => x.kind).join(', ')}; ${usd(h.volumeUsd)} volume over ${r.timeperiod})`).join('; ')}` : 'none flagged');
    });
    return `v4 hook radar: ${parts.join(' | ')}.`;
  },
  admit: async (input, ctx) => {
    const ids: readonly number[] = input.chainId ? [input.chainId] : HOOK_CHAIN_IDS;
    const gaps = ids.map((id) => servedChain(ctx, id)).filter((s): s is { reason: string } => 'reason' in s);
    // Nothing to read at all is refused before payment; a gap beside a served chain is part of the answer.
    if (gaps.length === ids.length) throw new SibylError('chain_unavailable', `${gaps.map((g) => g.reason).join('; ')}; nothing was charged`, { reason: 'not_served' });
  },
  async handler(input, ctx) {
    const ids: readonly number[] = input.chainId ? [input.chainId] : HOOK_CHAIN_IDS;
    const chains = await Promise.all(ids.map(async (chainId) => {
      const served = servedChain(ctx, chainId);
      if ('reason' in served) return { available: false as const, chainId, reason: served.reason };
      const { chain, manager } = served;
      try {
        // Prices and the period's first block come from the chain's index when it has one; without it the figures stand unpriced.
        const loaded = await loadMarket(ctx, chain.name).catch(() => null);
        const head = loaded ? { number: BigInt(loaded.checkpoint.block), timestamp: BigInt(loaded.checkpoint.timestamp) } : await chain.client.getBlock();
        const start = Number(head.timestamp) - PERIODS[input.timeperiod].seconds;
        const volumeFrom = loaded ? BigInt(await periodStartBlock(loaded.market, loaded.checkpoint, input.timeperiod)) : await blockAtOrAfter(chain, start, head.number);
        const layer = await scanHookLayer(chain, manager, { head: head.number, volumeFrom, market: loaded?.market ?? null });
        return {
          available: true as const,
          ...provenance(chain, head, HOOKS_METHODOLOGY, { from: volumeFrom > head.number ? head.number : volumeFrom, to: head.number }),
          ...layer,
          hooks: layer.hooks.slice(0, input.limit),
        };
      } catch (err) {
        return { available: false as const, chainId, reason: err instanceof SibylError ? err.message : `${chain.name} could not be read` };
      }
    }));
    const read = chains.filter((c) => c.available);
    // Every chain failing is no answer at all: refused, uncharged.
    if (!read.length) throw new SibylError('upstream_unavailable', `no chain could be read: ${chains.map((c) => `${c.chainId}: ${(c as { reason: string }).reason}`).join('; ')}; nothing was charged`);
    return {
      source: [...new Set(read.map((c) => c.source))].join(','),
      asOf: { timestamp: read.map((c) => c.asOf.timestamp).sort().at(-1)! },
      methodology: HOOKS_METHODOLOGY,
      timeperiod: input.timeperiod,
      chains,
    };
  },
});
