/**
 * quantum-portfolio-monitor: a watch list's quantum exposure (EVM and Bitcoin addresses mixed),
 * answered with the changes since the last call for the same list: newly exposed, no longer
 * exposed, value moves. A first call says so. Without a Bitcoin chain the Bitcoin addresses are
 * listed as unavailable and the EVM ones still answer.
 */
import { z } from 'zod';
import { SibylError } from '../../core/errors.js';
import { parsedAddress } from '../exposure/address.js';
import { NO_BITCOIN, totalsOf, walletExposure, type ChainExposure, type ChainGap } from '../exposure/engine.js';
import { MONITOR_METHODOLOGY, MONITOR_TTL_MS, diffWatch, watchKey, watchList, type WatchChange, type WatchRow, type WatchSnapshot } from './engine.js';
import { multiChainProvenanceShape } from '../../core/outputs.js';
import { defineSkill } from '../../core/registry.js';
import { usd } from '../../core/summary.js';
import { chainExposureShape, exposureProvenance, totalsShape, walletAddressParam } from '../exposure/exposure.js';

/** Addresses scanned at once. */
const PARALLEL = 5;

const watchRow = z.object({ address: z.string(), chain: z.string(), exposed: z.boolean(), why: z.string().nullable(), valueUsd: z.number(), atRiskUsd: z.number(), sats: z.number().int().nullable() });
const change = z.object({ address: z.string(), chain: z.string(), before: watchRow.nullable(), after: watchRow.nullable(), deltaUsd: z.number(), deltaSats: z.number().int().nullable() });

export const quantumPortfolioMonitorSkill = defineSkill({
  id: 'quantum-portfolio-monitor',
  title: 'Quantum portfolio monitor',
  description: 'Quantum exposure of a watch list of 1-50 addresses (EVM and Bitcoin mixed): per address and chain whether its funds sit behind a revealed public key and the USD at risk, and what changed since the last call for the same list (newly exposed, no longer exposed, value changes). The first call for a list says so.',
  tags: ['quantum', 'portfolio', 'exposure', 'monitor', 'watchlist', 'post-quantum', 'bitcoin'],
  examples: ['Monitor my addresses for quantum exposure', 'What changed in the quantum exposure of my wallets?'],
  input: z.strictObject({
    addresses: z.array(walletAddressParam('An EVM or Bitcoin mainnet address.')).min(1).max(50).describe('The watch list: 1-50 EVM (0x…) or Bitcoin mainnet addresses; order and case do not matter.'),
  }),
  price: '0.50',
  toolName: 'quantum_portfolio_monitor',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...multiChainProvenanceShape,
    watchList: z.array(z.string()).describe('The list as remembered: canonical addresses, sorted, without repeats.'),
    firstCall: z.boolean().describe('No earlier answer for this list: nothing to compare.'),
    previousAt: z.string().nullable().describe('When the answer compared against was given.'),
    addresses: z.array(z.object({ address: z.string(), kind: z.enum(['evm', 'bitcoin']), chains: z.array(chainExposureShape), unavailable: z.array(z.object({ chain: z.string(), reason: z.string() })) })),
    changes: z.object({ newlyExposed: z.array(change), noLongerExposed: z.array(change), valueChanges: z.array(change) }),
    totals: totalsShape,
    monitorMethodology: z.string(),
  }),
  summarize: (r) => {
    const base = `${r.watchList.length} address${r.watchList.length === 1 ? '' : 'es'}: ${usd(r.totals.atRiskUsd)} of ${usd(r.totals.valueUsd)} behind revealed keys on ${r.totals.exposedChains} address-chain${r.totals.exposedChains === 1 ? '' : 's'}`;
    if (r.firstCall) return `${base}; first call for this watch list, so no changes yet.`;
    const c = r.changes;
    return `${base}; since ${r.previousAt}: ${c.newlyExposed.length} newly exposed${c.newlyExposed.length ? ` (${c.newlyExposed.map((x: WatchChange) => `${x.address.slice(0, 10)}… on ${x.chain}`).join(', ')})` : ''}, ${c.noLongerExposed.length} no longer exposed, ${c.valueChanges.length} value change${c.valueChanges.length === 1 ? '' : 's'}.`;
  },
  admit: async (input, ctx) => {
    const parsed = input.addresses.map(parsedAddress);
    if (!ctx.bitcoin && parsed.every((p) => p.kind === 'bitcoin')) throw new SibylError('chain_unavailable', `every address is a Bitcoin address and ${NO_BITCOIN}; nothing was charged`, { reason: 'no_bitcoin' });
    if (parsed.some((p) => p.kind === 'evm') && !ctx.chains.list().length && parsed.every((p) => p.kind === 'evm' || !ctx.bitcoin)) {
      throw new SibylError('chain_unavailable', 'this deployment reads no EVM chain; nothing was charged', { reason: 'not_indexed' });
    }
  },
  async handler(input, ctx) {
    const list = watchList(input.addresses);
    const scans: { address: string; kind: 'evm' | 'bitcoin'; chains: ChainExposure[]; unavailable: ChainGap[] }[] = [];
    for (let i = 0; i < list.length; i += PARALLEL) {
      scans.push(...(await Promise.all(list.slice(i, i + PARALLEL).map(async (a) => {
        const s = await walletExposure(ctx, parsedAddress(a), undefined, { evidence: false });
        return { address: a, kind: s.kind, chains: s.chains, unavailable: s.unavailable };
      }))));
    }
    const allChains = scans.flatMap((s) => s.chains);
    if (!allChains.length) throw new SibylError('upstream_unavailable', `no address could be read on any chain (${scans.flatMap((s) => s.unavailable.map((u) => `${s.address} ${u.chain}: ${u.reason}`)).slice(0, 3).join('; ')}); nothing was charged`);
    const now: WatchSnapshot = {
      at: new Date().toISOString(),
      rows: scans.flatMap((s) => s.chains.map((c): WatchRow => ({ address: s.address, chain: c.chain, exposed: c.exposed, why: c.why, valueUsd: c.valueUsd, atRiskUsd: c.atRiskUsd, sats: c.sats }))),
    };
    const key = watchKey(list);
    const raw = await ctx.store.get(key);
    const previous = raw ? (JSON.parse(raw) as WatchSnapshot) : null;
    await ctx.store.set(key, JSON.stringify(now), MONITOR_TTL_MS);
    return {
      ...exposureProvenance(allChains),
      watchList: list, firstCall: previous === null, previousAt: previous?.at ?? null,
      addresses: scans,
      changes: previous ? diffWatch(previous, now) : { newlyExposed: [], noLongerExposed: [], valueChanges: [] },
      totals: totalsOf(allChains),
      monitorMethodology: MONITOR_METHODOLOGY,
    };
  },
});
