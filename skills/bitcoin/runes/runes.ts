/**
 * runes-analytics: Bitcoin runes from the Bitcoin index's runestone plug-in — etchings, mints
 * against their cap, supply, holders and the top runes.
 */
import { z } from 'zod';
import { RUNES_OBSERVER } from '../observers/observers.js';
import { bitcoinProvenanceShape } from '../../../indexer/bitcoin/provenance.js';
import { admitObserver, coverageGap, observerOf, observerProvenance } from '../observers/read.js';
import type { RunesIndex } from './indexer.js';
import { runesReport, RUNES_METHODOLOGY } from './report.js';
import { isoTime } from '../../core/outputs.js';
import { rowsParam, TOOL_ROWS } from '../../core/params.js';
import { defineSkill } from '../../core/registry.js';

const amount = z.string().describe('In the rune\'s units (divisibility applied), decimal string.');
const count = z.string().nullable().describe('Integer as a decimal string; null when not set.');

const runeRow = z.object({
  id: z.string().describe('block:tx of the etching.'), name: z.string().describe('Spaced name.'), symbol: z.string().nullable(), divisibility: z.number().int(),
  etching: z.object({ txid: z.string(), height: z.number().int(), time: isoTime }),
  cenotaph: z.boolean().describe('Etched by a cenotaph: no supply, never mintable.'), turbo: z.boolean(),
  premine: amount,
  terms: z.object({ amount: amount.nullable(), cap: count, heightStart: count, heightEnd: count, offsetStart: count, offsetEnd: count }).nullable().describe('Open-mint terms; null: premine only.'),
  mints: z.number().int(),
  mintProgressPct: z.number().nullable().describe('mints / cap, percent; null without a cap.'),
  mintable: z.boolean().describe('Whether a mint in the next block would be valid.'),
  mintStatus: z.enum(['open', 'no-terms', 'not-started', 'ended', 'cap-reached', 'cenotaph']),
  lastMintHeight: z.number().int().nullable(),
  maxSupply: amount.describe('premine + cap x amount.'), issued: amount.describe('premine + mints x amount.'),
  burned: amount, circulating: amount.describe('Held in unspent outputs.'),
  holders: z.number().int().describe('Addresses holding a positive balance.'),
  transfers: z.number().int().describe('Transactions that moved it (mints and etchings excluded).'),
  topHolders: z.array(z.object({ address: z.string(), balance: amount, sharePct: z.number() })).describe('Largest first, up to limit.'),
});

export const runesAnalyticsSkill = defineSkill({
  id: 'runes-analytics',
  title: 'Runes analytics',
  description: 'Bitcoin runes from a runestone index read through the Esplora API: every etching (name, symbol, premine, mint terms), mints counted against the cap and whether minting is still open, supply issued, burned and circulating, holders with the top holders, and the most recent etchings. Each answer names the blocks read.',
  tags: ['bitcoin', 'runes', 'etching', 'mints', 'rune-holders', 'runestone'],
  examples: ['Most minted runes', 'Which runes can still be minted?', 'Top runes by holders'],
  input: z.strictObject({ limit: rowsParam(TOOL_ROWS) }),
  price: '0.75',
  toolName: 'runes_analytics',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    available: z.boolean(),
    reason: z.string().optional().describe('With available: false: why the index cannot give the whole picture.'),
    ...bitcoinProvenanceShape.shape,
    totals: z.object({ runes: z.number().int(), mints: z.number().int(), mintableNow: z.number().int(), holders: z.number().int().describe('Distinct addresses holding any rune.') }).optional(),
    topRunes: z.array(runeRow).describe('Most holders first, up to limit.'),
    recentEtchings: z.array(z.object({ id: z.string(), name: z.string(), symbol: z.string().nullable(), height: z.number().int(), time: isoTime, txid: z.string(), premine: amount, cap: count, mints: z.number().int() })).describe('Newest first, up to limit.'),
  }),
  summarize: (r) => {
    if (!r.available) return `Runes analytics not available: ${r.reason}`;
    const top = r.topRunes as z.infer<typeof runeRow>[];
    if (!top.length) return `No rune etched in blocks ${r.blockRange.from}-${r.blockRange.to}.`;
    return `${r.totals.runes} runes, ${r.totals.mints} mints, ${r.totals.holders} holders: ${top.slice(0, 5).map((x) => `${x.name} ${x.mints}${x.terms?.cap ? `/${x.terms.cap}` : ''} mints (${x.mintStatus}), ${x.holders} holders`).join('; ')}.`;
  },
  needs: ['bitcoin'],
  admit: (_input, ctx) => admitObserver(ctx, RUNES_OBSERVER, 'Runes analytics', 'runes'),
  async handler(input, ctx) {
    const { bitcoin, index, observer } = observerOf<RunesIndex>(ctx, RUNES_OBSERVER);
    const coverage = observer.coverage;
    const provenance = observerProvenance(bitcoin, index, coverage, 'runes', RUNES_METHODOLOGY);
    const gap = await coverageGap(bitcoin, coverage, 'runes');
    if (gap) return { available: false, reason: gap, ...provenance, topRunes: [], recentEtchings: [] };
    return { available: true, ...provenance, ...runesReport(observer, provenance.asOf.height, input.limit) };
  },
});
