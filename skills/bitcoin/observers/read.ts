/**
 * How the token and staking skills read their observer: admission (before payment) checks that a
 * Bitcoin chain, its index and the observer are there and that the index has reached the tip once;
 * the answer then says which blocks it covers (provenance). An index that began after the
 * protocol's first block is refused before payment: supplies and balances would be partial.
 */
import { iso, type BitcoinProvenance } from '../../../indexer/bitcoin/provenance.js';
import type { SkillContext } from '../../core/context.js';
import { SibylError } from '../../core/errors.js';
import type { BitcoinIndex, BitcoinSource, BitcoinTxObserver } from '../../../chain/bitcoin.js';
import type { ObserverCoverage } from './journal.js';

export const MAINNET_GENESIS = '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f';

/** Where each protocol begins on mainnet: an index that starts later has not seen all of it. */
export const PROTOCOL_START = {
  brc20: { title: 'BRC-20', height: 779_832, what: 'the first BRC-20 deploy (ordi, 2023-03-08)' },
  runes: { title: 'Runes', height: 840_000, what: 'runes activation (the 2024 halving)' },
  staking: { title: 'Babylon staking', height: 857_910, what: 'Babylon phase-1 staking (2024-08-22)' },
} as const;
export type Protocol = keyof typeof PROTOCOL_START;

export interface CoveredObserver extends BitcoinTxObserver {
  readonly coverage: ObserverCoverage;
}

/**
 * Refuses, before payment, a call this deployment cannot answer from its Bitcoin index: no
 * chain, no index or plug-in, the index still reading, or an index that began after the
 * protocol did (its totals would be partial: never sold).
 */
export async function admitObserver(ctx: SkillContext, name: string, title: string, protocol: Protocol): Promise<void> {
  const bitcoin = ctx.bitcoin;
  if (!bitcoin) throw new SibylError('domain_disabled', `${title} reads a Bitcoin chain, and this deployment has none (BITCOIN=off and no BITCOIN_ESPLORA_URL); nothing was charged`, { reason: 'domain_disabled' });
  const index = bitcoin.index;
  if (!index) throw new SibylError('domain_disabled', `${title} reads the Bitcoin index, which this deployment does not run; nothing was charged`, { reason: 'domain_disabled' });
  if (!index.observer(name)) throw new SibylError('domain_disabled', `the Bitcoin index here runs without its ${name} plug-in, which ${title} reads; nothing was charged`, { reason: 'domain_disabled' });
  if (index.syncedAt() === null || index.indexedHeight() === null) {
    throw new SibylError('upstream_unavailable', `the Bitcoin index is still reading the chain through ${index.esploraUrl} (at height ${index.indexedHeight() ?? 'none yet'}); try again shortly. Nothing was charged`);
  }
  const gap = await coverageGap(bitcoin, index.observer<CoveredObserver>(name)!.coverage, protocol);
  if (gap) throw new SibylError('domain_disabled', `${gap}; nothing was charged`, { reason: 'history_partial' });
}

/** The observer of an admitted call. */
export function observerOf<T extends CoveredObserver>(ctx: SkillContext, name: string): { bitcoin: BitcoinSource; index: BitcoinIndex; observer: T } {
  const bitcoin = ctx.bitcoin!;
  const index = bitcoin.index!;
  return { bitcoin, index, observer: index.observer<T>(name)! };
}

/** Provenance in the shape every Bitcoin answer carries (indexer/bitcoin/provenance.ts): the blocks this plug-in has read. */
export function observerProvenance(bitcoin: BitcoinSource, index: BitcoinIndex, coverage: ObserverCoverage, title: string, methodology: string): BitcoinProvenance {
  const tip = index.indexedTip();
  const at = coverage.toHeight !== null ? { height: coverage.toHeight, hash: coverage.toHash!, time: coverage.toTime! } : tip ? { height: tip.height, hash: tip.hash, time: tip.time } : null;
  if (!at) throw new SibylError('upstream_unavailable', 'the Bitcoin index has not read a block yet; nothing was charged');
  const from = coverage.fromHeight ?? index.fromHeight;
  return {
    source: bitcoin.kind, chain: 'bitcoin', esplora: bitcoin.esplora.baseUrl,
    asOf: { height: at.height, hash: at.hash, timestamp: iso(at.time) },
    blockRange: { from, to: at.height },
    index: `the ${title} plug-in of the Bitcoin index, in memory, rebuilt from the Esplora API at start: blocks ${from}-${at.height}${from === 0 ? ' (from genesis)' : ''}`,
    priceSource: null,
    methodology,
  };
}

const genesisOf = new Map<string, Promise<string | null>>();

/**
 * Null when the observer has read the protocol's whole history (from genesis, or on mainnet from
 * before the protocol began), else why its figures would be partial.
 */
export async function coverageGap(bitcoin: BitcoinSource, coverage: ObserverCoverage, protocol: Protocol): Promise<string | null> {
  const p = PROTOCOL_START[protocol];
  if (!coverage.consistent) return `a chain reorganisation went deeper than the ${p.title} index can undo; it is wrong until the index is rebuilt`;
  const from = coverage.fromHeight;
  if (from === null) return `the ${p.title} index has not read a block yet`;
  if (from === 0) return null;
  const url = bitcoin.esplora.baseUrl;
  if (!genesisOf.has(url)) genesisOf.set(url, bitcoin.esplora.blockHashAt(0).catch((err) => { genesisOf.delete(url); throw err; }));
  const mainnet = (await genesisOf.get(url)!) === MAINNET_GENESIS;
  if (mainnet && from <= p.height) return null;
  const since = mainnet ? `after ${p.what} at height ${p.height}` : 'on a chain other than mainnet, where this deployment does not know where the protocol began';
  return `the Bitcoin index began reading at height ${from}, ${since}: what was deployed, minted or staked before then is not in it, so supplies, holders and totals would be partial (index from genesis, or on mainnet from before height ${p.height}, for a full answer)`;
}
