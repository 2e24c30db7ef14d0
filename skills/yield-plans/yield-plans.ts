/**
 * Vault deposit and rebalance plans (yield-plans/v1). Plans, never custody: each answer is the
 * unsigned transactions for the wallet to sign and send (approve + deposit, or redeem/withdraw +
 * approve + deposit), the shares it should receive, the slippage it allows for and the gas. A
 * plan the wallet cannot execute is refused before payment, naming the field.
 */
import { z } from 'zod';
import { erc20Abi, formatUnits, parseUnits, type Address } from 'viem';
import type { ChainName } from '../../chain/chains.js';
import type { ConnectedChain } from '../../chain/runtime.js';
import { admitChain } from '../core/admission.js';
import { SibylError } from '../core/errors.js';
import { provenance } from '../data/provenance.js';
import { PlanRefused, YIELD_PLANS_METHODOLOGY, planDeposit, planRebalance } from './engine.js';
import { VAULTS_METHODOLOGY, bestVaults, rankingApy, readVaultHead, vaultRows, type VaultHead, type VaultRow } from '../vaults/engine.js';
import { loadMarket } from '../data/load.js';
import type { SkillContext } from '../core/context.js';
import { address, provenanceShape } from '../core/outputs.js';
import { EVM_CHAINS, chainParam, evmAddressParam, tokenParam } from '../core/params.js';
import { defineSkill } from '../core/registry.js';
import { pct } from '../core/summary.js';
import { assetMatches, chainVaults } from '../vaults/vaults.js';

/** An amount in token units as a decimal string ("250", "0.5"), above zero. */
const amountParam = (what: string) => z.string()
  .regex(/^(?:0|[1-9]\d{0,29})(?:\.\d{1,30})?$/, 'must be a decimal number in token units, like "250" or "0.5"')
  .refine((s) => /[1-9]/.test(s), 'must be above 0')
  .describe(what);

const txShape = z.object({
  action: z.enum(['approve', 'deposit', 'redeem', 'withdraw']), to: address, data: z.string(), value: z.literal('0'), description: z.string(),
  gas: z.object({ units: z.string(), source: z.enum(['estimateGas', 'stated']), why: z.string().optional().describe('Why the figure is stated, not estimated.') }),
}).describe('Unsigned: for the wallet to sign and send, in order.');

const planCommon = {
  ...provenanceShape,
  custody: z.literal('none').describe('Sibyl signs and sends nothing: the wallet does.'),
  wallet: address,
  asset: z.object({ address, symbol: z.string().nullable(), decimals: z.number().int() }),
  amount: z.string().describe('Underlying moved, token units.'),
  expectedShares: z.string().describe('Shares the deposit should mint at the head (previewDeposit).'),
  minShares: z.string().describe('Expected less the slippage allowed.'),
  slippage: z.object({ bps: z.number().int(), note: z.string() }),
  transactions: z.array(txShape),
  gas: z.object({ totalGas: z.string(), gasPriceWei: z.string(), costNative: z.string().describe('totalGas x gas price now, native units.') }),
};

const vaultRef = z.object({ address, name: z.string().nullable(), symbol: z.string().nullable() });
const apyRef = z.object({ apyPct: z.number(), days: z.number(), fullWindow: z.boolean() }).nullable().describe('Realised APY (vaults/v1): 7 days, or the history there is.');

const depositOutput = z.object({
  ...planCommon,
  vault: vaultRef.extend({ realisedApy: apyRef, tvlUsd: z.number().nullable() }),
  balance: z.string().describe('The wallet\'s underlying balance now.'),
  allowance: z.string().describe('What the vault may take from the wallet now.'),
  sharePrice: z.number(),
});

const refuse = (field: string, message: string): never => {
  throw new SibylError('invalid_body', `${field}: ${message}; nothing was charged`, { fields: [{ field, rule: message }] });
};

/** Plan refusals as 400s naming the field (before payment in admission; uncharged from the handler). */
async function refusing<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof PlanRefused) return refuse(err.field, err.message);
    throw err;
  }
}

/** Raw units of `amount` for a token of `decimals`; more decimals than the token has is refused. */
function rawAmount(amount: string, decimals: number, field = 'amount'): bigint {
  const fraction = amount.split('.')[1] ?? '';
  if (fraction.length > decimals) refuse(field, `has ${fraction.length} decimals; the token has ${decimals}`);
  return parseUnits(amount, decimals);
}

async function head(chain: ConnectedChain) {
  const b = await chain.client.getBlock();
  return { number: b.number, timestamp: b.timestamp };
}

/** The vault at `address`, or a 400 naming `field` when it is no ERC-4626 vault. */
async function vaultAt(chain: ConnectedChain, vault: string, block: bigint, field: string): Promise<VaultHead> {
  return (await readVaultHead(chain, vault as Address, block)) ?? refuse(field, `${vault} is not an ERC-4626 vault on ${chain.name} (it answers no asset())`);
}

/** The row (realised APY, TVL) of one vault. */
async function rowOf(ctx: SkillContext, chain: ConnectedChain, at: { number: bigint; timestamp: bigint }, vault: Address): Promise<VaultRow | undefined> {
  const market = await loadMarket(ctx, chain.name).then((m) => m.market, () => null);
  return (await vaultRows(chain, market, at, [vault])).vaults[0];
}

const apyOf = (row: VaultRow | undefined) => {
  const a = row && rankingApy(row);
  return a ? { apyPct: a.apyPct, days: a.days, fullWindow: a.fullWindow } : null;
};

/** The wallet holds at least `amount` of the vault's underlying (checked before payment). */
async function admitBalance(chain: ConnectedChain, token: { address: Address; decimals: number; symbol: string | null }, wallet: Address, amount: string): Promise<void> {
  const raw = rawAmount(amount, token.decimals);
  const balance = await chain.client.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] });
  if (balance < raw) refuse('amount', `the wallet holds ${formatUnits(balance, token.decimals)} ${token.symbol ?? token.address}, less than ${amount}`);
}

/** The open vault with the best realised APY on the asset, or a 400 naming `asset`. */
async function bestVaultFor(ctx: SkillContext, name: ChainName, asset: string): Promise<VaultRow> {
  const { vaults } = await chainVaults(ctx, name);
  return bestVaults(vaults.filter((v) => assetMatches(v.asset, asset)))[0] ?? refuse('asset', `no vault on ${name} takes deposits of ${asset}`);
}

async function depositAnswer(ctx: SkillContext, chain: ConnectedChain, vault: VaultHead, wallet: Address, amount: string, at: { number: bigint; timestamp: bigint }, row?: VaultRow) {
  const plan = await refusing(() => planDeposit(chain, vault, wallet, rawAmount(amount, vault.assetDecimals), at.number));
  row ??= await rowOf(ctx, chain, at, vault.vault);
  return {
    ...provenance(chain, at, `${YIELD_PLANS_METHODOLOGY}; APY: ${VAULTS_METHODOLOGY}`),
    custody: 'none' as const,
    ...plan,
    vault: { ...plan.vault, realisedApy: apyOf(row), tvlUsd: row?.tvlUsd ?? null },
  };
}

const depositSummary = (r: z.infer<typeof depositOutput>) =>
  `Plan (unsigned, for ${r.wallet} to send): ${r.transactions.map((t) => t.action).join(' + ')} of ${r.amount} ${r.asset.symbol ?? ''} into ${r.vault.name ?? r.vault.address}` +
  `${r.vault.realisedApy ? ` (realised ${pct(r.vault.realisedApy.apyPct)} over ${r.vault.realisedApy.days} d)` : ''}, about ${r.expectedShares} shares (at least ${r.minShares}); gas ${r.gas.totalGas} units. Sibyl signs nothing.`;

export const yieldDepositSkill = defineSkill({
  id: 'yield-deposit',
  title: 'Yield deposit plan',
  description: 'A plan, never custody: the unsigned approve + deposit that puts an amount of an asset into the vault with the best realised APY for it on a chain, for a wallet: expected shares (previewDeposit), slippage, gas (estimated where the wallet\'s state allows). Refused before payment when the wallet holds too little or no vault takes the asset.',
  tags: ['yield', 'deposit', 'vaults', 'erc4626', 'plan', 'unsigned-transactions'],
  examples: ['Plan a deposit of 1000 USDC into the best vault on base for 0x...', 'How do I put my WETH to work?'],
  input: z.strictObject({
    chain: chainParam('base', EVM_CHAINS),
    asset: tokenParam('The asset to deposit (0x address or symbol; ETH means WETH).'),
    amount: amountParam('How much, in token units (a decimal string, e.g. "1000.5").'),
    wallet: evmAddressParam('The wallet that will sign and send (0x + 40 hex).'),
  }),
  price: '0.50',
  toolName: 'yield_deposit',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: depositOutput,
  summarize: depositSummary,
  admit: async (input, ctx) => {
    const chain = admitChain(ctx, input.chain);
    const best = await bestVaultFor(ctx, input.chain, input.asset);
    await admitBalance(chain, best.asset, input.wallet as Address, input.amount);
  },
  async handler(input, ctx) {
    const chain = ctx.chains.get(input.chain);
    const best = await bestVaultFor(ctx, input.chain, input.asset);
    const at = await head(chain);
    return depositAnswer(ctx, chain, await vaultAt(chain, best.vault, at.number, 'asset'), input.wallet as Address, input.amount, at, best);
  },
});

export const vaultDepositPlanSkill = defineSkill({
  id: 'yield-vault-deposit-plan',
  title: 'Vault deposit plan',
  description: 'A plan, never custody: the unsigned approve + deposit of an amount into a named ERC-4626 vault (any vault, read from the chain) for a wallet: expected shares (previewDeposit), the vault\'s realised APY, slippage and gas. Refused before payment when the vault takes no deposits or the wallet holds too little.',
  tags: ['yield', 'deposit', 'vaults', 'erc4626', 'plan', 'unsigned-transactions'],
  examples: ['Plan a deposit of 500 USDC into vault 0x... for my wallet 0x...'],
  input: z.strictObject({
    chain: chainParam('base', EVM_CHAINS),
    vault: evmAddressParam('The ERC-4626 vault (0x + 40 hex).'),
    amount: amountParam('How much underlying, in token units (a decimal string, e.g. "500").'),
    wallet: evmAddressParam('The wallet that will sign and send (0x + 40 hex).'),
  }),
  price: '0.50',
  toolName: 'yield_vault_deposit_plan',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: depositOutput,
  summarize: depositSummary,
  admit: async (input, ctx) => {
    const chain = admitChain(ctx, input.chain);
    const vault = await vaultAt(chain, input.vault, (await head(chain)).number, 'vault');
    if (vault.deprecated || !vault.depositsOpen) refuse('vault', `${vault.name ?? vault.vault} takes no deposits now${vault.deprecated ? ' (deprecated)' : ''}`);
    await admitBalance(chain, { address: vault.asset, decimals: vault.assetDecimals, symbol: vault.assetSymbol }, input.wallet as Address, input.amount);
  },
  async handler(input, ctx) {
    const chain = ctx.chains.get(input.chain);
    const at = await head(chain);
    return depositAnswer(ctx, chain, await vaultAt(chain, input.vault, at.number, 'vault'), input.wallet as Address, input.amount, at);
  },
});

export const yieldRebalanceSkill = defineSkill({
  id: 'yield-rebalance',
  title: 'Vault rebalance plan',
  description: 'A plan, never custody: the unsigned transactions that move a wallet\'s position from one ERC-4626 vault to another on the same asset (redeem, or withdraw an amount; approve; deposit), into the named vault or the one with the best realised APY: expected shares (previewRedeem / previewDeposit), APY before and after, slippage and gas. Refused before payment when the wallet holds no shares or the target takes no deposits.',
  tags: ['yield', 'rebalance', 'vaults', 'erc4626', 'plan', 'unsigned-transactions', 'migrate'],
  examples: ['Move my USDC from vault 0x... to a better one', 'Rebalance 0x...\'s position out of a deprecated vault'],
  input: z.strictObject({
    chain: chainParam('base', EVM_CHAINS),
    wallet: evmAddressParam('The wallet holding the shares, which will sign and send (0x + 40 hex).'),
    fromVault: evmAddressParam('The ERC-4626 vault to leave (0x + 40 hex).'),
    toVault: evmAddressParam('The vault to move into; the open vault with the best realised APY on the same asset when absent.').optional(),
    amount: amountParam('Underlying to move, token units; everything the shares redeem when absent.').optional(),
  }),
  price: '0.25',
  toolName: 'yield_rebalance',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...planCommon,
    from: vaultRef.extend({ sharesHeld: z.string(), redeemable: z.string().describe('What all the wallet\'s shares redeem now.'), realisedApy: apyRef }),
    to: vaultRef.extend({ realisedApy: apyRef, tvlUsd: z.number().nullable() }),
    sharesBurned: z.string(),
    apyGainPct: z.number().nullable().describe('Target realised APY less the source\'s, percentage points.'),
  }),
  summarize: (r) => `Plan (unsigned, for ${r.wallet} to send): ${r.transactions.map((t: { action: string }) => t.action).join(' + ')}: ${r.amount} ${r.asset.symbol ?? ''} from ${r.from.name ?? r.from.address} to ${r.to.name ?? r.to.address}` +
    `${r.apyGainPct !== null ? ` (${r.apyGainPct >= 0 ? '+' : ''}${r.apyGainPct} pp realised APY)` : ''}, about ${r.expectedShares} new shares; gas ${r.gas.totalGas} units. Sibyl signs nothing.`,
  admit: async (input, ctx) => {
    const chain = admitChain(ctx, input.chain);
    const at = await head(chain);
    const from = await vaultAt(chain, input.fromVault, at.number, 'fromVault');
    const shares = await chain.client.readContract({ address: from.vault, abi: erc20Abi, functionName: 'balanceOf', args: [input.wallet as Address] });
    if (shares === 0n) refuse('fromVault', `the wallet holds no shares of ${from.name ?? from.vault}`);
    if (input.amount) rawAmount(input.amount, from.assetDecimals);
    if (input.toVault) {
      const to = await vaultAt(chain, input.toVault, at.number, 'toVault');
      if (to.asset.toLowerCase() !== from.asset.toLowerCase()) refuse('toVault', `holds ${to.assetSymbol ?? to.asset}, not ${from.assetSymbol ?? from.asset}`);
      if (to.deprecated || !to.depositsOpen) refuse('toVault', `${to.name ?? to.vault} takes no deposits now`);
    } else await bestOtherVault(ctx, input.chain, from);
  },
  async handler(input, ctx) {
    const chain = ctx.chains.get(input.chain);
    const at = await head(chain);
    const from = await vaultAt(chain, input.fromVault, at.number, 'fromVault');
    const toRow = input.toVault ? undefined : await bestOtherVault(ctx, input.chain, from);
    const to = await vaultAt(chain, input.toVault ?? toRow!.vault, at.number, 'toVault');
    const plan = await refusing(() => planRebalance(chain, from, to, input.wallet as Address, input.amount === undefined ? undefined : rawAmount(input.amount, from.assetDecimals), at.number));
    const market = await loadMarket(ctx, chain.name).then((m) => m.market, () => null);
    const rows = (await vaultRows(chain, market, at, [from.vault, to.vault])).vaults;
    const [fromApy, toApy] = [apyOf(rows.find((r) => r.vault === from.vault)), apyOf(rows.find((r) => r.vault === to.vault))];
    return {
      ...provenance(chain, at, `${YIELD_PLANS_METHODOLOGY}; APY: ${VAULTS_METHODOLOGY}`),
      custody: 'none' as const,
      ...plan,
      from: { ...plan.from, realisedApy: fromApy },
      to: { ...plan.to, realisedApy: toApy, tvlUsd: rows.find((r) => r.vault === to.vault)?.tvlUsd ?? null },
      apyGainPct: fromApy && toApy ? Math.round((toApy.apyPct - fromApy.apyPct) * 10_000) / 10_000 : null,
    };
  },
});

/** The open vault with the best realised APY on `from`'s asset, other than `from`; a 400 naming toVault when none. */
async function bestOtherVault(ctx: SkillContext, name: ChainName, from: VaultHead): Promise<VaultRow> {
  const { vaults } = await chainVaults(ctx, name);
  return bestVaults(vaults.filter((v) => v.vault.toLowerCase() !== from.vault.toLowerCase()), from.asset)[0]
    ?? refuse('toVault', `no other vault on ${name} takes deposits of ${from.assetSymbol ?? from.asset}: name one`);
}
