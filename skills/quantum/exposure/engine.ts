/**
 * A wallet's quantum exposure across chains (quantum-exposure/v1): for an EVM address every indexed
 * EVM chain (or the one named), for a Bitcoin address the Bitcoin chain, each read on its own with
 * its provenance: whether the key guarding the funds is on chain, why, the evidence, what the
 * address holds and the USD at risk. A chain that cannot be read is listed with why, never guessed.
 */
import { formatUnits, type Address } from 'viem';
import type { ChainName } from '../../../chain/chains.js';
import { scanChains } from '../../core/across-chains.js';
import type { SkillContext } from '../../core/context.js';
import { EVM_CHAINS } from '../../core/params.js';
import { loadMarket } from '../../data/load.js';
import { HOLDINGS_METHODOLOGY, walletHoldings } from '../../holdings/engine.js';
import { SibylError } from '../../core/errors.js';
import type { ParsedAddress } from './address.js';
import { bitcoinExposure, SATS_PER_BTC, type BitcoinTip, type ExposureEvidence, type ExposureStatus } from './bitcoin.js';
import { evmAccountExposure, type EvmOwner } from './evm.js';

export const EXPOSURE_METHODOLOGY =
  'quantum-exposure/v1 (a public key on chain is what Shor\'s algorithm needs. EVM: an account with nonce > 0 has signed, and a signature recovers its key; EIP-7702 delegations are signed too; contract wallets have no key, their owners\' are checked. ' +
  'Bitcoin via Esplora: P2TR outputs carry their output key; P2PKH/P2WPKH/P2SH/P2WSH show a hash until they spend, and the spend reveals the key for every coin left at the address. ' +
  `Exposed = key revealed and value held behind it; evidence = the first revealing transaction. EVM values: ${HOLDINGS_METHODOLOGY}; BTC/USD from the Bitcoin source's price feed at the tip)`;

export interface Holding {
  readonly asset: string;
  /** The token contract, or null for the chain's native coin (and BTC). */
  readonly token: string | null;
  readonly amount: string;
  readonly decimals: number;
  readonly valueUsd: number | null;
}

export interface ChainExposure {
  readonly chain: string;
  readonly provenance: {
    readonly source: string;
    readonly chainId: number | null;
    readonly asOf: { readonly block: string; readonly timestamp: string };
    readonly methodology: string;
  };
  readonly accountType: string;
  readonly keyRevealed: boolean;
  readonly exposed: boolean;
  readonly why: string | null;
  readonly status: ExposureStatus;
  readonly explanation: string;
  readonly evidence: ExposureEvidence | null;
  readonly owners: EvmOwner[] | null;
  readonly holdings: Holding[];
  /** Bitcoin: confirmed satoshis at the address and unconfirmed ones; null on EVM chains. */
  readonly sats: number | null;
  readonly pendingSats: number | null;
  /** What the priced holdings are worth, and how many are unpriced. */
  readonly valueUsd: number;
  readonly unpriced: number;
  readonly atRiskUsd: number;
}

export interface ChainGap {
  readonly chain: string;
  readonly reason: string;
}

export interface WalletExposure {
  readonly address: string;
  readonly kind: 'evm' | 'bitcoin';
  readonly chains: ChainExposure[];
  readonly unavailable: ChainGap[];
  readonly totals: { readonly chainsRead: number; readonly exposedChains: number; readonly valueUsd: number; readonly atRiskUsd: number; readonly unpriced: number };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Why a deployment without a Bitcoin chain answers nothing for Bitcoin. */
export const NO_BITCOIN = 'this deployment has no Bitcoin chain (embedded or BITCOIN_ESPLORA_URL)';

/** The chains a scan of this address covers: the one named, else every chain of its kind this deployment reads. */
export function exposureChains(ctx: SkillContext, parsed: ParsedAddress, named?: string): string[] {
  if (parsed.kind === 'bitcoin') return ['bitcoin'];
  return scanChains(ctx, named as ChainName | undefined, EVM_CHAINS);
}

export async function walletExposure(ctx: SkillContext, parsed: ParsedAddress, named?: string, options: { evidence?: boolean; tip?: BitcoinTip } = {}): Promise<WalletExposure> {
  const names = exposureChains(ctx, parsed, named);
  const chains: ChainExposure[] = [];
  const unavailable: ChainGap[] = [];
  await Promise.all(names.map(async (name) => {
    try {
      chains.push(parsed.kind === 'bitcoin' ? await bitcoinRow(ctx, parsed, options) : await evmRow(ctx, name as ChainName, parsed.address, options));
    } catch (err) {
      unavailable.push({ chain: name, reason: err instanceof SibylError || err instanceof Error ? err.message.split('\n')[0]! : 'the chain could not be read' });
    }
  }));
  chains.sort((a, b) => names.indexOf(a.chain) - names.indexOf(b.chain));
  return { address: parsed.address, kind: parsed.kind, chains, unavailable, totals: totalsOf(chains) };
}

export function totalsOf(chains: readonly ChainExposure[]): WalletExposure['totals'] {
  return {
    chainsRead: chains.length,
    exposedChains: chains.filter((c) => c.exposed).length,
    valueUsd: round2(chains.reduce((s, c) => s + c.valueUsd, 0)),
    atRiskUsd: round2(chains.reduce((s, c) => s + c.atRiskUsd, 0)),
    unpriced: chains.reduce((s, c) => s + c.unpriced, 0),
  };
}

async function bitcoinRow(ctx: SkillContext, parsed: Extract<ParsedAddress, { kind: 'bitcoin' }>, options: { evidence?: boolean; tip?: BitcoinTip }): Promise<ChainExposure> {
  if (!ctx.bitcoin) throw new Error(NO_BITCOIN);
  const r = await bitcoinExposure(ctx.bitcoin.esplora, ctx.bitcoin.prices, parsed, options);
  return {
    chain: 'bitcoin',
    provenance: {
      source: `${ctx.bitcoin.kind}:${ctx.bitcoin.esplora.baseUrl}`, chainId: null,
      asOf: { block: String(r.tip.height), timestamp: new Date(r.tip.time * 1000).toISOString() },
      methodology: `${EXPOSURE_METHODOLOGY}; BTC/USD: ${ctx.bitcoin.prices.source}`,
    },
    accountType: r.type, keyRevealed: r.keyRevealed, exposed: r.exposed, why: r.why, status: r.status, explanation: r.explanation,
    evidence: r.evidence, owners: null,
    holdings: r.sats > 0 ? [{ asset: 'BTC', token: null, amount: (r.sats / SATS_PER_BTC).toFixed(8), decimals: 8, valueUsd: r.valueUsd }] : [],
    sats: r.sats, pendingSats: r.pendingSats,
    valueUsd: r.valueUsd ?? 0, unpriced: r.sats > 0 && r.valueUsd === null ? 1 : 0, atRiskUsd: r.atRiskUsd ?? 0,
  };
}

async function evmRow(ctx: SkillContext, name: ChainName, address: Address, options: { evidence?: boolean }): Promise<ChainExposure> {
  const chain = ctx.chains.get(name);
  const { holdings, at, source } = await evmHoldings(ctx, name, address);
  const r = await evmAccountExposure(chain.client, address, BigInt(at.block), options);
  const valueUsd = round2(holdings.reduce((s, h) => s + (h.valueUsd ?? 0), 0));
  const holds = holdings.length > 0;
  const exposed = r.keyRevealed && holds;
  const status: ExposureStatus = r.accountType === 'contract' ? 'contract-wallet' : exposed ? 'exposed' : r.keyRevealed ? 'revealed-empty' : holds ? 'hidden' : 'unused';
  return {
    chain: name,
    provenance: {
      source, chainId: chain.spec.chainId,
      asOf: { block: String(at.block), timestamp: new Date(at.timestamp * 1000).toISOString() },
      methodology: EXPOSURE_METHODOLOGY,
    },
    accountType: r.accountType, keyRevealed: r.keyRevealed, exposed, why: r.why, status,
    explanation: explainEvm(r, status, chain.spec.nativeSymbol),
    evidence: r.evidence, owners: r.owners,
    holdings, sats: null, pendingSats: null,
    valueUsd, unpriced: holdings.filter((h) => h.valueUsd === null).length, atRiskUsd: exposed ? valueUsd : 0,
  };
}

function explainEvm(r: Awaited<ReturnType<typeof evmAccountExposure>>, status: ExposureStatus, native: string): string {
  if (r.accountType === 'contract') {
    const revealed = r.owners?.filter((o) => o.keyRevealed).length ?? 0;
    return r.owners
      ? `A contract wallet has no key of its own; ${revealed} of its ${r.owners.length} owner key${r.owners.length === 1 ? '' : 's'} read ${revealed === 1 ? 'is' : 'are'} revealed on chain. Its safety is its owners' keys and threshold, and whether its signature check can be upgraded.`
      : 'A contract wallet has no key of its own; it names no owner this scan can read (getOwners() / owner()).';
  }
  const sent = `The account has sent ${r.nonce} transaction${r.nonce === 1 ? '' : 's'}; every signature recovers its public key`;
  switch (status) {
    case 'exposed': return r.why === 'delegation-signed' ? 'The account signed an EIP-7702 delegation, which recovers its public key; its funds sit behind that key.' : `${sent}, which guards everything it holds (${native} and tokens).`;
    case 'revealed-empty': return `${sent}, but it holds nothing here now.`;
    case 'hidden': return 'The account has never sent a transaction: only its address (a hash of the key) is on chain. Its first transaction will reveal the key.';
    default: return 'The account has neither sent nor holds anything here.';
  }
}

/** The address's holdings on a chain, at the index checkpoint with prices; the native balance alone, unpriced, where the chain has no index. */
async function evmHoldings(ctx: SkillContext, name: ChainName, address: Address): Promise<{ holdings: Holding[]; at: { block: number; timestamp: number }; source: string }> {
  const chain = ctx.chains.get(name);
  const loaded = await loadMarket(ctx, name).catch(() => null);
  if (loaded) {
    const h = await walletHoldings(loaded.market, loaded.checkpoint, address);
    const rows: Holding[] = [];
    if (Number(h.native.balance) > 0) rows.push({ asset: h.native.symbol, token: null, amount: h.native.balance, decimals: 18, valueUsd: h.native.valueUsd });
    for (const t of h.holdings) rows.push({ asset: t.symbol ?? t.token, token: t.token, amount: t.balance, decimals: t.decimals, valueUsd: t.valueUsd });
    return { holdings: rows, at: { block: loaded.checkpoint.block, timestamp: loaded.checkpoint.timestamp }, source: chain.source };
  }
  const head = await chain.client.getBlock();
  const balance = await chain.client.getBalance({ address, blockNumber: head.number });
  return {
    holdings: balance > 0n ? [{ asset: chain.spec.nativeSymbol, token: null, amount: formatUnits(balance, 18), decimals: 18, valueUsd: null }] : [],
    at: { block: Number(head.number), timestamp: Number(head.timestamp) },
    source: chain.source,
  };
}
