/**
 * ERC-4626 vaults and where to earn on an asset (vaults/v1): every vault of each chain's vault
 * factory (and any vault address given) with the APY its share price realised, TVL, underlying and
 * risk notes; and, for an asset, the vaults that take deposits ranked by realised APY, with the
 * DEX pools it can provide liquidity to beside them (lp-yield/v1).
 */
import { z } from 'zod';
import type { Address } from 'viem';
import type { ChainName } from '../../chain/chains.js';
import type { ConnectedChain } from '../../chain/runtime.js';
import { admitChain } from '../core/admission.js';
import { provenance } from '../data/provenance.js';
import { canonicalAsset } from '../data/resolve.js';
import { VAULTS_METHODOLOGY, bestVaults, listVaults, rankingApy, type VaultRow } from './engine.js';
import { YIELD_METHODOLOGY, poolYields } from '../yields/engine.js';
import { loadMarket, periodCoverage, periodStartBlock } from '../data/load.js';
import type { SkillContext } from '../core/context.js';
import { address, chainGap, multiChainProvenanceShape, provenanceShape } from '../core/outputs.js';
import { EVM_CHAINS, evmAddressParam, limitParam, tokenParam } from '../core/params.js';
import { defineSkill } from '../core/registry.js';
import { pct, usd } from '../core/summary.js';
import { multiChainProvenance, readEach, scanChains } from '../core/across-chains.js';

const apyShape = z.object({
  apyPct: z.number().describe('Realised: the share price\'s growth over the span, annualised (compounded).'),
  from: z.string().describe('ISO time of the price it starts from.'),
  days: z.number().describe('Span the APY is over.'),
  fullWindow: z.boolean().describe('False: the history is shorter than the window, and the APY is over what there is.'),
}).nullable();

const vaultRow = z.object({
  vault: address, name: z.string().nullable(), symbol: z.string().nullable(),
  asset: z.object({ address, symbol: z.string().nullable(), decimals: z.number().int() }).describe('The underlying.'),
  discoveredBy: z.enum(['factory', 'given']).describe('factory: announced by the chain\'s vault factory; given: an address in the request.'),
  totalAssets: z.string().describe('Underlying units.'), totalSupply: z.string().describe('Share units.'),
  sharePrice: z.number().describe('Underlying per share at the head (convertToAssets).'),
  priceUsd: z.number().nullable().describe('The underlying\'s market/v1 price; null when no pool prices it.'),
  tvlUsd: z.number().nullable().describe('totalAssets x priceUsd.'),
  apy: z.object({ '7d': apyShape, '30d': apyShape }).describe('From share-price history (Deposit/Withdraw events and the head), never an advertised rate; null under 6 h of history.'),
  history: z.object({ events: z.number().int(), firstEvent: z.string().nullable(), days: z.number() }),
  depositsOpen: z.boolean(), deprecated: z.boolean(),
  topHolderPct: z.number().nullable().describe('Largest holder\'s share of the supply (deposits less withdrawals).'),
  risks: z.array(z.object({ kind: z.enum(['deprecated', 'deposits-paused', 'no-income', 'concentration', 'young-history', 'low-idle']), note: z.string() })),
});

// No default (chainParam's would apply even when optional): absent means every connected chain.
const chainsParam = z.enum(EVM_CHAINS).optional().describe(`One of ${EVM_CHAINS.join(', ')}; every connected one when absent.`);

/** Whether a vault's underlying is the asset asked for: its address, or its symbol as a canonical asset (ETH matches WETH). */
export function assetMatches(asset: { address: string; symbol: string | null }, wanted: string): boolean {
  if (/^0x[0-9a-fA-F]{40}$/.test(wanted)) return asset.address.toLowerCase() === wanted.toLowerCase();
  return asset.symbol !== null && canonicalAsset(asset.symbol) === canonicalAsset(wanted);
}

/** One chain's vaults as of its head, priced from its index when it has one. */
export async function chainVaults(ctx: SkillContext, name: ChainName, given: readonly Address[] = []) {
  const chain = ctx.chains.get(name);
  const head = await chain.client.getBlock();
  const market = await loadMarket(ctx, name).then((m) => m.market, () => null);
  const scan = await listVaults(chain, market, head, given);
  return { chain, head, market, ...scan, provenance: provenance(chain, { number: head.number, timestamp: head.timestamp }, VAULTS_METHODOLOGY, { from: 0n, to: head.number }) };
}

const apyText = (v: Pick<VaultRow, 'apy'>) => {
  const a = rankingApy(v);
  return a ? `${pct(a.apyPct)} over ${a.days} d${a.fullWindow ? '' : ' (all the history there is)'}` : 'no APY yet';
};

export const vaultsListSkill = defineSkill({
  id: 'vaults-list',
  title: 'ERC-4626 vaults',
  description: 'ERC-4626 vaults per chain with the APY their share price really realised over 7 and 30 days (from Deposit/Withdraw history, not an advertised rate), TVL in USD, the underlying, and risk notes: deprecated, deposits paused, no income, concentration, young history, little held for withdrawals.',
  tags: ['vaults', 'erc4626', 'tvl', 'apy', 'yield', 'deprecated-vaults'],
  examples: ['List the ERC-4626 vaults on base with their real APY', 'Which vaults hold the most USDC?'],
  input: z.strictObject({
    chain: chainsParam,
    asset: tokenParam('Only vaults on this underlying (0x address or symbol; ETH matches WETH); all when absent.').optional(),
    vaults: z.array(evmAddressParam('An ERC-4626 vault address.')).max(20).optional().describe('Vault addresses to read besides those the chain\'s vault factory announced (any ERC-4626 vault), up to 20.'),
    limit: limitParam(1, 100, 20),
  }),
  price: '0.10',
  toolName: 'vaults_list',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...multiChainProvenanceShape,
    chains: z.array(z.object({ ...provenanceShape, vaultsFound: z.number().int(), vaults: z.array(vaultRow).describe('Most TVL first, up to limit.'), notVaults: z.array(address).describe('Addresses given that answer no asset(): not ERC-4626 vaults.') })),
    errors: z.array(chainGap).describe('Chains that could not be read.'),
  }),
  summarize: (r) => {
    const rows = (r.chains as { chain: string; vaults: VaultRow[] }[]).flatMap((c) => c.vaults.map((v) => ({ ...v, chain: c.chain })));
    if (!rows.length) return `No ERC-4626 vault found on ${r.chains.map((c: { chain: string }) => c.chain).join(', ')}.`;
    const flagged = rows.filter((v) => v.deprecated || !v.depositsOpen);
    return `${rows.length} vault${rows.length === 1 ? '' : 's'}; largest: ${rows.slice(0, 3).map((v) => `${v.name ?? v.vault} on ${v.chain} (${usd(v.tvlUsd)} of ${v.asset.symbol}, ${apyText(v)})`).join('; ')}` +
      `${flagged.length ? `; not taking deposits: ${flagged.map((v) => `${v.name ?? v.vault}${v.deprecated ? ' (deprecated)' : ''}`).join(', ')}` : ''}. APYs are realised from share prices, not advertised.`;
  },
  admit: async (input, ctx) => void (input.chain && admitChain(ctx, input.chain)),
  async handler(input, ctx) {
    const { done, errors } = await readEach(scanChains(ctx, input.chain, EVM_CHAINS), (name) => chainVaults(ctx, name, (input.vaults ?? []) as Address[]));
    const chains = done.map(({ value: v }) => {
      const rows = input.asset ? v.vaults.filter((row) => assetMatches(row.asset, input.asset!)) : v.vaults;
      return { ...v.provenance, vaultsFound: rows.length, vaults: rows.slice(0, input.limit), notVaults: v.notVaults };
    });
    return { ...multiChainProvenance(chains, VAULTS_METHODOLOGY), chains, errors };
  },
});

const opportunity = z.object({
  chain: z.string(), vault: address, name: z.string().nullable(), asset: z.object({ address, symbol: z.string().nullable() }),
  apy: apyShape.describe('The realised APY it is ranked by: 7 days, else the history there is.'),
  apy30d: apyShape, tvlUsd: z.number().nullable(), risks: vaultRow.shape.risks,
});

const lpPool = z.object({
  chain: z.string(), pool: z.string(), dex: z.string(), pair: z.string(), liquidityUsd: z.number(),
  feeAprPct: z.number().describe('Realised LP fees over the last 7 days, annualised (simple).'),
  impermanentLossPct: z.number().nullable(), netPeriodReturnPct: z.number().nullable(),
});

export const yieldDiscoverSkill = defineSkill({
  id: 'yield-discover',
  title: 'Yield discovery',
  description: 'The best places to earn on an asset, by realised APY: ERC-4626 vaults taking deposits ranked by the APY their share price realised (7 days, or the history there is), with TVL and risk notes; beside them, the DEX pools the asset can provide liquidity to, with their realised fee APR and impermanent loss. Deprecated and paused vaults are left out and counted.',
  tags: ['yield', 'apy', 'vaults', 'earn', 'erc4626', 'stablecoin', 'discover'],
  examples: ['Where can I earn yield on USDC on base?', 'Best realised APY for WETH across chains'],
  input: z.strictObject({
    asset: tokenParam('The asset to earn on (0x address or symbol; ETH matches WETH); every asset when absent.').optional(),
    chain: chainsParam,
    limit: limitParam(1, 100, 10),
  }),
  price: '0.10',
  toolName: 'yield_discover',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...multiChainProvenanceShape,
    asset: z.string().nullable(),
    chainsRead: z.array(z.object({ ...provenanceShape })).describe('Each chain read, with its own provenance.'),
    vaults: z.array(opportunity).describe('Vaults taking deposits, best realised APY first.'),
    leftOut: z.object({ deprecated: z.number().int(), depositsPaused: z.number().int() }).describe('Vaults on the asset that take no deposits.'),
    lpPools: z.array(lpPool).describe('Pools with the asset on one side, best fee APR first (lp-yield/v1; needs the other side too). Only when an asset is named.'),
    errors: z.array(chainGap),
  }),
  summarize: (r) => {
    const best = r.vaults[0] as z.infer<typeof opportunity> | undefined;
    const what = r.asset ?? 'any asset';
    if (!best) return `No vault takes deposits of ${what} on ${r.chainsRead.map((c: { chain: string }) => c.chain).join(', ')}${r.lpPools.length ? `; best LP pool: ${r.lpPools[0].pair} (${pct(r.lpPools[0].feeAprPct)} fee APR)` : ''}.`;
    return `Best realised yield on ${what}: ${best.name ?? best.vault} on ${best.chain}, ${best.apy ? apyText({ apy: { '7d': best.apy, '30d': null } }) : 'no APY yet'} on ${usd(best.tvlUsd)}; ` +
      `${r.vaults.length} vault${r.vaults.length === 1 ? '' : 's'} compared${r.leftOut.deprecated + r.leftOut.depositsPaused ? `, ${r.leftOut.deprecated + r.leftOut.depositsPaused} left out (deprecated or paused)` : ''}. Realised, not promised.`;
  },
  admit: async (input, ctx) => void (input.chain && admitChain(ctx, input.chain)),
  async handler(input, ctx) {
    const { done, errors } = await readEach(scanChains(ctx, input.chain, EVM_CHAINS), async (name) => {
      const v = await chainVaults(ctx, name);
      const mine = input.asset ? v.vaults.filter((row) => assetMatches(row.asset, input.asset!)) : v.vaults;
      return { ...v, mine, pools: input.asset ? await assetPools(ctx, v.chain, input.asset) : [] };
    });
    const all = done.flatMap(({ name, value }) => value.mine.map((row) => ({ chain: name, row })));
    const open = new Set(bestVaults(all.map((a) => a.row)));
    const vaults = all.filter((a) => open.has(a.row))
      .sort((a, b) => (rankingApy(b.row)?.apyPct ?? -Infinity) - (rankingApy(a.row)?.apyPct ?? -Infinity))
      .slice(0, input.limit)
      .map(({ chain, row }) => ({ chain, vault: row.vault, name: row.name, asset: { address: row.asset.address, symbol: row.asset.symbol }, apy: rankingApy(row), apy30d: row.apy['30d'], tvlUsd: row.tvlUsd, risks: row.risks }));
    const closed = all.filter((a) => !open.has(a.row)).map((a) => a.row);
    const chainsRead = done.map((d) => d.value.provenance);
    return {
      ...multiChainProvenance(chainsRead, `${VAULTS_METHODOLOGY}; pools: ${YIELD_METHODOLOGY}`),
      asset: input.asset ?? null, chainsRead, vaults,
      leftOut: { deprecated: closed.filter((v) => v.deprecated).length, depositsPaused: closed.filter((v) => !v.deprecated).length },
      lpPools: done.flatMap((d) => d.value.pools).sort((a, b) => b.feeAprPct - a.feeAprPct).slice(0, input.limit),
      errors,
    };
  },
});

/** The chain's DEX pools with the asset on one side, with their realised 7-day fee yields (none without an index). */
async function assetPools(ctx: SkillContext, chain: ConnectedChain, asset: string) {
  const loaded = await loadMarket(ctx, chain.name).catch(() => null);
  if (!loaded) return [];
  const { market, checkpoint } = loaded;
  const rows = await poolYields(market, await periodStartBlock(market, checkpoint, '7d'), periodCoverage(market, checkpoint, '7d'));
  const pools = new Map(market.pools.map((p) => [p.pair, p]));
  return rows.filter((r) => {
    const p = pools.get(r.pool);
    return p && [p.token0, p.token1].some((t) => assetMatches({ address: t, symbol: market.tokens.get(t)?.symbol ?? null }, asset));
  }).map((r) => ({ chain: chain.name, pool: r.pool, dex: r.dex, pair: r.pair, liquidityUsd: r.liquidityUsd, feeAprPct: r.feeAprPct, impermanentLossPct: r.impermanentLossPct, netPeriodReturnPct: r.netPeriodReturnPct }));
}
