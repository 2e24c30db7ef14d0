/**
 * Post-quantum readiness (pqc-readiness/v1): a score per chain with its rule written down, for a
 * wallet (from its exposure scan) or, with no wallet, for the chain itself — on Bitcoin the share
 * of supply behind keys on chain (P2PK, P2TR, reused addresses) from the index's exposure plug-in;
 * on an EVM chain the share of recently active accounts that have sent (their keys are on chain).
 */
import type { Address } from 'viem';
import type { ChainName } from '../../../chain/chains.js';
import type { SkillContext } from '../../core/context.js';
import { IndexReader } from '../../../indexer/reader.js';
import type { ChainExposure } from '../exposure/engine.js';
import { EXPOSURE_OBSERVER, type ExposureObserver, type SupplyExposure } from './observer.js';

export const READINESS_RULE =
  'score 0-100 = 100 x the share of value held behind keys that are not on chain (USD; satoshis on Bitcoin when unpriced). A chain where nothing is held scores 100, or 50 if its key is already revealed (anything sent there is exposed at once); ' +
  'a contract wallet scores 100 less 50 x the share of its owners whose keys are revealed. Overall: value-weighted over the chains (the lowest chain score when nothing is held). ' +
  'Chain-wide: 100 x (1 - exposed share) of the Bitcoin supply, or of the sampled active EVM accounts. Grades: 90+ ready, 50-89 partial, under 50 at-risk.';
export const READINESS_METHODOLOGY = `pqc-readiness/v1 (${READINESS_RULE})`;

export type Grade = 'ready' | 'partial' | 'at-risk';
export const gradeOf = (score: number): Grade => (score >= 90 ? 'ready' : score >= 50 ? 'partial' : 'at-risk');
const round1 = (n: number) => Math.round(n * 10) / 10;

export interface ChainScore {
  readonly chain: string;
  readonly score: number;
  readonly grade: Grade;
  readonly basis: string;
}

/** A chain's score for the wallet, and the value the overall score weighs it by. */
export function walletChainScore(c: ChainExposure): ChainScore & { weight: number } {
  const weight = c.valueUsd > 0 ? c.valueUsd : c.sats ?? 0;
  let score: number;
  let basis: string;
  if (c.status === 'contract-wallet') {
    const owners = c.owners ?? [];
    const revealed = owners.filter((o) => o.keyRevealed).length;
    score = owners.length ? 100 - (50 * revealed) / owners.length : 100;
    basis = owners.length ? `contract wallet: ${revealed} of ${owners.length} owner keys revealed` : 'contract wallet: no owner readable';
  } else if (weight <= 0) {
    score = c.keyRevealed ? 50 : 100;
    basis = c.keyRevealed ? 'nothing held, key revealed' : 'nothing held, key hidden';
  } else {
    score = c.exposed ? 0 : 100;
    basis = c.exposed ? `all ${c.valueUsd > 0 ? `$${c.valueUsd}` : `${c.sats} sats`} behind a revealed key (${c.why})` : 'everything held behind a hidden key';
  }
  score = round1(score);
  return { chain: c.chain, score, grade: gradeOf(score), basis, weight };
}

export function walletScore(chains: readonly ChainExposure[]): { score: number | null; grade: Grade | null; chains: ChainScore[] } {
  const scored = chains.map(walletChainScore);
  if (!scored.length) return { score: null, grade: null, chains: [] };
  // Weigh USD and satoshis alike only when they are not mixed: unpriced BTC weighs by USD 0 beside priced chains.
  const usdWeighted = chains.some((c) => c.valueUsd > 0);
  const weights = scored.map((s, i) => (usdWeighted ? chains[i]!.valueUsd : s.weight));
  const total = weights.reduce((a, b) => a + b, 0);
  const score = round1(total > 0 ? scored.reduce((s, c, i) => s + c.score * weights[i]!, 0) / total : Math.min(...scored.map((s) => s.score)));
  return { score, grade: gradeOf(score), chains: scored.map(({ weight: _w, ...s }) => s) };
}

export interface BitcoinPicture {
  readonly available: boolean;
  readonly reason: string | null;
  readonly basis: 'index-observer' | 'index-utxos' | null;
  readonly asOfHeight: number | null;
  readonly supplyBtc: number | null;
  readonly shares: { p2pkPct: number; p2trPct: number; reusedPct: number | null; exposedPct: number } | null;
  readonly byTypeBtc: Record<string, number> | null;
  readonly note: string;
}

const pct = (part: number, whole: number) => (whole > 0 ? round1((100 * part) / whole) : 0);

/** The Bitcoin supply by who can read its key: from the index's exposure plug-in, else its UTXO set by address kind. */
export function bitcoinPicture(ctx: SkillContext): BitcoinPicture {
  const none = (reason: string): BitcoinPicture => ({ available: false, reason, basis: null, asOfHeight: null, supplyBtc: null, shares: null, byTypeBtc: null, note: reason });
  const index = ctx.bitcoin?.index;
  if (!ctx.bitcoin) return none('this deployment has no Bitcoin chain');
  if (!index) return none('no Bitcoin index runs here: the supply by output type needs the whole UTXO set, which is not walked per request');
  const partial = index.utxoSetComplete ? '' : ` The index began at height ${index.fromHeight}: older coins are not in these figures (the UTXO set is partial).`;
  const observer = index.observer<ExposureObserver>(EXPOSURE_OBSERVER);
  if (observer) {
    const s: SupplyExposure = observer.supply();
    if (!s.consistent) return none('a reorg went deeper than the exposure plug-in can undo; figures return after the index is rebuilt');
    return {
      available: true, reason: null, basis: 'index-observer', asOfHeight: s.toHeight, supplyBtc: s.supplySats / 1e8,
      shares: { p2pkPct: pct(s.p2pkSats, s.supplySats), p2trPct: pct(s.p2trSats, s.supplySats), reusedPct: pct(s.reusedSats, s.supplySats), exposedPct: pct(s.exposedSats, s.supplySats) },
      byTypeBtc: Object.fromEntries(Object.entries(s.byType).map(([t, v]) => [t, v / 1e8])),
      note: `Every block read by the index: ${s.holders} holders with a balance, ${s.exposedHolders} of them behind a key on chain.${partial}`,
    };
  }
  // Without the plug-in: the UTXO set says the address kind, not whether an address has spent before.
  let supply = 0, noAddress = 0, taproot = 0;
  for (const u of index.utxos()) {
    supply += u.value;
    if (u.address === null) noAddress += u.value;
    else if (/^bc1p/i.test(u.address)) taproot += u.value;
  }
  return {
    available: true, reason: null, basis: 'index-utxos', asOfHeight: index.indexedHeight(), supplyBtc: supply / 1e8,
    shares: { p2pkPct: pct(noAddress, supply), p2trPct: pct(taproot, supply), reusedPct: null, exposedPct: pct(noAddress + taproot, supply) },
    byTypeBtc: null,
    note: `From the index's UTXO set: outputs without an address are counted as P2PK (bare scripts included), bc1p as P2TR; reused addresses are not known without the exposure plug-in, so the exposed share is a floor.${partial}`,
  };
}

export interface EvmPicture {
  readonly chain: string;
  readonly available: boolean;
  readonly reason: string | null;
  readonly window: { fromBlock: number; toBlock: number; hours: number } | null;
  readonly sampled: number;
  readonly contracts: number;
  readonly accounts: number;
  readonly sent: number;
  readonly sentPct: number | null;
  readonly note: string;
}

/** Accounts checked per chain (the most recently active first). */
export const EVM_SAMPLE = 200;

/** Of the accounts active in the index's last day of transfers, the share that have sent (key on chain). */
export async function evmPicture(ctx: SkillContext, name: ChainName, hours = 24): Promise<EvmPicture> {
  const chain = ctx.chains.get(name);
  const reader = new IndexReader(ctx.store, chain.spec.chainId);
  const checkpoint = await reader.checkpoint();
  const empty = (reason: string): EvmPicture => ({ chain: name, available: false, reason, window: null, sampled: 0, contracts: 0, accounts: 0, sent: 0, sentPct: null, note: reason });
  if (!checkpoint) return empty(`${name} is not indexed yet`);
  const fromBlock = (await reader.firstBlockAtOrAfter(checkpoint.timestamp - hours * 3600)) ?? checkpoint.block;
  const rows = await reader.transfers(fromBlock, checkpoint.block);
  const seen = new Set<string>();
  for (let i = rows.length - 1; i >= 0 && seen.size < EVM_SAMPLE; i--) {
    for (const a of [rows[i]!.from, rows[i]!.to]) if (BigInt(a) !== 0n && seen.size < EVM_SAMPLE) seen.add(a.toLowerCase());
  }
  const block = BigInt(checkpoint.block);
  const read = await Promise.all([...seen].map(async (a) => {
    const [code, nonce] = await Promise.all([chain.client.getCode({ address: a as Address, blockNumber: block }), chain.client.getTransactionCount({ address: a as Address, blockNumber: block })]);
    return { contract: !!code && code !== '0x' && !code.toLowerCase().startsWith('0xef0100'), sent: nonce > 0 };
  }));
  const accounts = read.filter((r) => !r.contract);
  const sent = accounts.filter((r) => r.sent).length;
  return {
    chain: name, available: true, reason: null, window: { fromBlock, toBlock: checkpoint.block, hours },
    sampled: read.length, contracts: read.length - accounts.length, accounts: accounts.length, sent,
    sentPct: accounts.length ? pct(sent, accounts.length) : null,
    note: `The ${read.length} addresses most recently in indexed transfers over ${hours} h (up to ${EVM_SAMPLE}); contracts have no key of their own and are left out of the share. Every EVM account that has sent is exposed: the lasting fix is account abstraction with an upgradeable signature check.`,
  };
}
