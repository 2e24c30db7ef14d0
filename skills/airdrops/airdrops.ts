/**
 * Claimable airdrops: an address's merkle-distributor allocations per chain (airdrops/v1), read
 * from the chain: amount, USD value, deadline, status, and for those it can still claim the
 * unsigned claim transaction with its proof. Every connected chain unless one is named; a chain
 * that cannot be read is listed under `errors`, never guessed. Nothing is signed or sent by Sibyl.
 */
import { z } from 'zod';
import type { Address } from 'viem';
import { AIRDROPS_METHODOLOGY, airdropAllocations } from './engine.js';
import { provenance } from '../data/provenance.js';
import { admitChain } from '../core/admission.js';
import { loadMarket } from '../data/load.js';
import { acrossChains, scanChains } from '../core/across-chains.js';
import { address, chainGap, multiChainProvenanceShape, provenanceShape } from '../core/outputs.js';
import { EVM_CHAINS, evmAddressParam } from '../core/params.js';
import { defineSkill } from '../core/registry.js';
import { usd } from '../core/summary.js';

const allocation = z.object({
  distributor: address,
  token: address,
  symbol: z.string().nullable(),
  index: z.number().int().describe('The leaf\'s index in the distributor\'s tree.'),
  amount: z.string().describe('Token units (decimal).'),
  amountRaw: z.string().describe('Raw integer units, as the leaf holds them.'),
  status: z.enum(['claimable', 'claimed', 'expired', 'unfunded']).describe('claimed: isClaimed(index) on chain; expired: the deadline is before the block read; unfunded: the distributor holds less than the amount; else claimable.'),
  valueUsd: z.number().nullable().describe('The amount at the token\'s indexed price now; null when unpriced.'),
  unpricedReason: z.string().nullable(),
  deadline: z.object({ unix: z.number().int(), iso: z.string() }).describe('The distributor\'s endTime(): claims after it revert.'),
  createdAt: z.object({ block: z.number().int(), tx: z.string() }),
  claim: z.object({ to: address, data: z.string(), proof: z.array(z.string()) }).nullable()
    .describe('Unsigned claim(index, account, amount, proof) on the distributor, for anyone to send (the tokens go to the address); only when claimable.'),
});

const chainScan = z.object({
  ...provenanceShape,
  factory: address.nullable().describe('The airdrop factory read; null when the chain has none.'),
  distributors: z.number().int().describe('Distributors the factory created up to the block read.'),
  factoryLogs: z.number().int(),
  claimableUsd: z.number().describe('What the priced claimable allocations are worth.'),
  allocations: z.array(allocation).describe('Claimable first, then unfunded, claimed and expired; most value first.'),
  unreadable: z.array(z.object({ distributor: address, reason: z.string() })).describe('Distributors whose published leaves do not rebuild the root on chain (or could not be read): not trusted, not guessed.'),
});

export const claimableAirdropsSkill = defineSkill({
  id: 'claimable-airdrops',
  title: 'Claimable airdrops',
  description: 'Merkle-distributor airdrop allocations of an address, per chain: amount, USD value, deadline and status (claimable, claimed, expired, unfunded), and for each it can still claim the unsigned claim transaction with its proof. Every chain unless one is named.',
  tags: ['airdrop', 'claim', 'merkle', 'distributor', 'unclaimed', 'wallet-safety'],
  examples: ['Do I have airdrops to claim on 0x...?', 'Unclaimed airdrops for 0x... on base'],
  input: z.strictObject({
    address: evmAddressParam('The wallet whose allocations to find (0x + 40 hex).'),
    // No default (chainParam's would apply even when optional): absent means every chain.
    chain: z.enum(EVM_CHAINS).optional().describe(`One of ${EVM_CHAINS.join(', ')}; every connected chain when absent.`),
  }),
  price: '0.25',
  toolName: 'claimable_airdrops',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...multiChainProvenanceShape,
    owner: address,
    chains: z.array(chainScan).describe('Each chain read, with its own provenance.'),
    errors: z.array(chainGap).describe('Chains that could not be read.'),
    claimableUsd: z.number(),
  }),
  summarize: (r) => {
    const rows = (r.chains as { chain: string; allocations: { status: string; symbol: string | null; token: string; amount: string; valueUsd: number | null; deadline: { iso: string } }[] }[])
      .flatMap((c) => c.allocations.map((a) => ({ ...a, chain: c.chain })));
    const read = `${r.chains.map((c: { chain: string }) => c.chain).join(', ') || 'no chain'}${r.errors.length ? ` (${r.errors.length} chain${r.errors.length === 1 ? '' : 's'} unread)` : ''}`;
    const open = rows.filter((a) => a.status === 'claimable');
    if (!rows.length) return `No airdrop allocation for ${r.owner} on ${read}.`;
    const others = rows.length - open.length;
    return `${r.owner} can claim ${open.length} airdrop${open.length === 1 ? '' : 's'} worth ${usd(r.claimableUsd)} on ${read}` +
      `${open.length ? `: ${open.slice(0, 3).map((a) => `${a.amount} ${a.symbol ?? a.token} on ${a.chain} (${usd(a.valueUsd)}, by ${a.deadline.iso.slice(0, 10)})`).join('; ')}` : ''}` +
      `${others ? `; ${others} more already claimed, expired or unfunded` : ''}.`;
  },
  admit: async (input, ctx) => void (input.chain && admitChain(ctx, input.chain)),
  async handler(input, ctx) {
    const scan = await acrossChains(scanChains(ctx, input.chain, EVM_CHAINS), async (name) => {
      const chain = ctx.chains.get(name);
      const head = await chain.client.getBlock();
      // Prices come from the chain's index when it has one; without it the amounts stand unpriced.
      const market = await loadMarket(ctx, name).then((m) => m.market, () => null);
      const found = await airdropAllocations(chain, input.address as Address, market, head);
      return {
        ...provenance(chain, { number: head.number, timestamp: head.timestamp }, AIRDROPS_METHODOLOGY, { from: 0n, to: head.number }),
        factory: found.factory, distributors: found.distributors, factoryLogs: found.logs,
        claimableUsd: round2(found.allocations.reduce((s, a) => s + (a.status === 'claimable' ? (a.valueUsd ?? 0) : 0), 0)),
        allocations: found.allocations, unreadable: found.unreadable,
      };
    }, AIRDROPS_METHODOLOGY);
    return { ...scan, owner: input.address.toLowerCase(), claimableUsd: round2(scan.chains.reduce((s, c) => s + c.claimableUsd, 0)) };
  },
});

const round2 = (n: number) => Math.round(n * 100) / 100;
