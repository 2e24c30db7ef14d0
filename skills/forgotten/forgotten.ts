/**
 * Forgotten-assets scan: what an address still holds that it has likely forgotten, per chain
 * (forgotten/v1): LP tokens in dead pools with what they would redeem, tokens no pool prices any
 * more (flagged), and dust. Every indexed chain when none is named; a chain that cannot be read
 * is listed under `errors`, never guessed.
 */
import { z } from 'zod';
import type { Address } from 'viem';
import { FORGOTTEN_METHODOLOGY, forgottenAssets } from './engine.js';
import { indexProvenance } from '../data/provenance.js';
import { address, chainGap, multiChainProvenanceShape, provenanceShape } from '../core/outputs.js';
import { DEX_CHAINS, evmAddressParam } from '../core/params.js';
import { defineSkill } from '../core/registry.js';
import { admitChain } from '../core/admission.js';
import { usd } from '../core/summary.js';
import { loadMarket } from '../data/load.js';
import { AIRDROPS_METHODOLOGY, airdropAllocations } from '../airdrops/engine.js';
import { acrossChains, scanChains } from '../core/across-chains.js';

const item = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('dead-lp'), token: address, symbol: z.string().nullable(), balance: z.string(), sharePct: z.number(),
    pool: z.object({ token0: z.string().nullable(), token1: z.string().nullable(), liquidityUsd: z.number().nullable() }),
    redeemable: z.object({ token0: z.string(), token1: z.string() }).describe('What the LP share would still redeem, token units.'),
    valueUsd: z.number().nullable(),
  }),
  z.object({ kind: z.literal('no-liquidity'), token: address, symbol: z.string().nullable(), balance: z.string(), valueUsd: z.null(), reason: z.string() }),
  z.object({ kind: z.literal('dust'), token: address, symbol: z.string().nullable(), balance: z.string(), valueUsd: z.number() }),
  z.object({
    kind: z.literal('deprecated-vault'), token: address.describe('The vault (its shares are the token).'), symbol: z.string().nullable(), balance: z.string().describe('Shares held.'),
    vault: z.object({ name: z.string().nullable(), deprecated: z.boolean(), depositsOpen: z.boolean() }),
    asset: z.object({ address, symbol: z.string().nullable() }).describe('The underlying.'),
    redeemable: z.string().describe('What the shares redeem now (convertToAssets), underlying units.'),
    valueUsd: z.number().nullable(), reason: z.string(),
  }),
  z.object({
    kind: z.literal('unclaimed-airdrop'), token: address, symbol: z.string().nullable(), balance: z.string().describe('The allocation still to claim, token units.'),
    distributor: address, deadline: z.object({ unix: z.number().int(), iso: z.string() }),
    claim: z.object({ to: address, data: z.string(), proof: z.array(z.string()) }).describe('Unsigned claim (airdrops/v1), for anyone to send: the tokens go to the address.'),
    valueUsd: z.number().nullable(),
  }),
]);

const chainScan = z.object({ ...provenanceShape, holdingsRead: z.number().int(), valueUsd: z.number().describe('What the priced items are worth.'), items: z.array(item) });

export const forgottenAssetsSkill = defineSkill({
  id: 'forgotten-assets-scan',
  title: 'Forgotten assets scan',
  description: 'What an address has likely forgotten, per chain: LP tokens in pools whose liquidity is gone (with what they would still redeem), shares of deprecated ERC-4626 vaults (with what they redeem), tokens no pool prices any more (flagged, value unknown), and dust under a dollar, and rewards never claimed (airdrop allocations still claimable, with the unsigned claim). Every indexed chain unless one is named.',
  tags: ['forgotten', 'dust', 'dead-pools', 'lp-tokens', 'deprecated-vaults', 'wallet-safety'],
  examples: ['Find forgotten assets in my wallet 0x...', 'Do I have LP tokens in dead pools on base?'],
  input: z.strictObject({
    address: evmAddressParam('The wallet to scan (0x + 40 hex).'),
    // No default (chainParam's would apply even when optional): absent means every indexed chain.
    chain: z.enum(DEX_CHAINS).optional().describe(`One of ${DEX_CHAINS.join(', ')}; every indexed chain when absent.`),
  }),
  price: '0.50',
  toolName: 'forgotten_assets_scan',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...multiChainProvenanceShape,
    owner: address,
    chains: z.array(chainScan).describe('Each chain read, with its own provenance.'),
    errors: z.array(chainGap).describe('Chains that could not be read.'),
    valueUsd: z.number(),
  }),
  summarize: (r) => {
    const items = (r.chains as { chain: string; items: { kind: string; symbol: string | null; token: string; valueUsd: number | null }[] }[]).flatMap((c) => c.items.map((i) => ({ ...i, chain: c.chain })));
    if (!items.length) return `Nothing forgotten for ${r.owner} on ${r.chains.map((c: { chain: string }) => c.chain).join(', ') || 'no chain'}${r.errors.length ? ` (${r.errors.length} chain${r.errors.length === 1 ? '' : 's'} unread)` : ''}.`;
    const count = (kind: string) => items.filter((i) => i.kind === kind).length;
    return `${r.owner}: ${usd(r.valueUsd)} in forgotten assets: ${count('dead-lp')} LP position${count('dead-lp') === 1 ? '' : 's'} in dead pools, ${count('deprecated-vault')} in deprecated vaults, ${count('no-liquidity')} token${count('no-liquidity') === 1 ? '' : 's'} no pool prices (value unknown), ${count('dust')} dust, ${count('unclaimed-airdrop')} unclaimed airdrop${count('unclaimed-airdrop') === 1 ? '' : 's'}; ` +
      `largest: ${items.slice(0, 3).map((i) => `${i.symbol ?? i.token} on ${i.chain} (${i.kind}, ${usd(i.valueUsd)})`).join('; ')}.`;
  },
  admit: async (input, ctx) => void (input.chain && admitChain(ctx, input.chain)),
  async handler(input, ctx) {
    const scan = await acrossChains(scanChains(ctx, input.chain, DEX_CHAINS), async (name) => {
      const { chain, market, checkpoint } = await loadMarket(ctx, name);
      const found = await forgottenAssets(market, checkpoint, input.address as Address);
      // Unclaimed rewards: airdrop allocations still claimable (airdrops/v1), at the same block.
      const drops = await airdropAllocations(chain, input.address as Address, market, { number: BigInt(checkpoint.block), timestamp: BigInt(checkpoint.timestamp) });
      const unclaimed = drops.allocations.filter((a) => a.status === 'claimable' && a.claim).map((a) => ({
        kind: 'unclaimed-airdrop' as const, token: a.token, symbol: a.symbol, balance: a.amount, distributor: a.distributor, deadline: a.deadline, claim: a.claim!, valueUsd: a.valueUsd,
      }));
      const valueUsd = Math.round((found.valueUsd + unclaimed.reduce((sum, a) => sum + (a.valueUsd ?? 0), 0)) * 100) / 100;
      return { ...indexProvenance(chain, checkpoint, `${FORGOTTEN_METHODOLOGY}; unclaimed rewards: ${AIRDROPS_METHODOLOGY}`, 0), ...found, items: [...found.items, ...unclaimed], valueUsd };
    }, FORGOTTEN_METHODOLOGY);
    return { ...scan, owner: input.address.toLowerCase(), valueUsd: Math.round(scan.chains.reduce((s, c) => s + c.valueUsd, 0) * 100) / 100 };
  },
});
