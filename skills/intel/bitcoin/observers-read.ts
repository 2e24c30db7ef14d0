/**
 * How the token and staking skills read their observer: admission (before payment) checks that a
 * Bitcoin chain, its index and the observer are there and that the index has reached the tip once;
 * the answer then says which blocks it covers (provenance), and is `available: false` when the
 * index began after the protocol's first block, so supplies and balances would be partial.
 */
import { z } from 'zod';
import type { SkillContext } from '../../context.js';
import { SibylError } from '../../errors.js';
import { isoTime } from '../../outputs.js';
import type { BitcoinIndex, BitcoinSource, BitcoinTxObserver } from '../../bitcoin/source.js';
import type { ObserverCoverage } from './observers-journal.js';

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

/** Provenance of a Bitcoin index answer: the Esplora read, and the blocks the observer has read. */
export const bitcoinProvenanceShape = {
  source: z.enum(['embedded', 'esplora']).describe('embedded: the world\'s Bitcoin chain; esplora: the Esplora API configured in BITCOIN_ESPLORA_URL.'),
  chain: z.literal('bitcoin'),
  esplora: z.string().describe('Base URL of the Esplora API the index read every block through.'),
  asOf: z.object({ height: z.number().int(), hash: z.string().nullable(), timestamp: isoTime.nullable() }).describe('The last block the index has read.'),
  blockRange: z.object({ from: z.number().int(), to: z.number().int() }).describe('Blocks the index has read (the figures cover these).'),
  methodology: z.string(),
};
export type BitcoinProvenance = z.infer<z.ZodObject<typeof bitcoinProvenanceShape>>;

/** Refuses, before payment, a call this deployment cannot answer from its Bitcoin index. */
export function admitObserver(ctx: SkillContext, name: string, title: string): void {
  const bitcoin = ctx.bitcoin;
  if (!bitcoin) throw new SibylError('domain_disabled', `${title} reads a Bitcoin chain, and this deployment has none (BITCOIN=off and no BITCOIN_ESPLORA_URL); nothing was charged`, { reason: 'domain_disabled' });
  const index = bitcoin.index;
  if (!index) throw new SibylError('domain_disabled', `${title} reads the Bitcoin index, which this deployment does not run; nothing was charged`, { reason: 'domain_disabled' });
  if (!index.observer(name)) throw new SibylError('domain_disabled', `the Bitcoin index here runs without its ${name} plug-in, which ${title} reads; nothing was charged`, { reason: 'domain_disabled' });
  if (index.syncedAt() === null || index.indexedHeight() === null) {
    throw new SibylError('upstream_unavailable', `the Bitcoin index is still reading the chain through ${index.esploraUrl} (at height ${index.indexedHeight() ?? 'none yet'}); try again shortly. Nothing was charged`);
  }
}

/** The observer of an admitted call. */
export function observerOf<T extends CoveredObserver>(ctx: SkillContext, name: string): { bitcoin: BitcoinSource; index: BitcoinIndex; observer: T } {
  const bitcoin = ctx.bitcoin!;
  const index = bitcoin.index!;
  return { bitcoin, index, observer: index.observer<T>(name)! };
}

export function observerProvenance(bitcoin: BitcoinSource, index: BitcoinIndex, coverage: ObserverCoverage, methodology: string): BitcoinProvenance {
  const to = coverage.toHeight ?? index.indexedHeight() ?? index.fromHeight;
  return {
    source: bitcoin.kind, chain: 'bitcoin', esplora: bitcoin.esplora.baseUrl,
    asOf: { height: to, hash: coverage.toHash, timestamp: coverage.toTime === null ? null : new Date(coverage.toTime * 1000).toISOString() },
    blockRange: { from: coverage.fromHeight ?? index.fromHeight, to },
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
