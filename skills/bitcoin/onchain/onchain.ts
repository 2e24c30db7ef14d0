/**
 * bitcoin-onchain-analytics: realised cap, MVRV, SOPR (long- and short-term holders), coin-age
 * bands and exchange flows, from the Bitcoin index (the UTXO set with creation prices).
 */
import { z } from 'zod';
import { bitcoinProvenanceShape, type BitcoinProvenance } from '../../../indexer/bitcoin/provenance.js';
import type { SkillContext } from '../../core/context.js';
import { SibylError } from '../../core/errors.js';
import { AGE_BANDS, onchainAnalytics, type OnchainAnswer } from './engine.js';
import { rowsParam, TOOL_ROWS } from '../../core/params.js';
import { defineSkill } from '../../core/registry.js';
import { admitBitcoin } from '../mempool/mempool.js';

/** Refuses, before payment, a call the Bitcoin index cannot answer yet (none here, or still reading the chain). */
export function admitBitcoinIndex(ctx: SkillContext, title: string) {
  const bitcoin = admitBitcoin(ctx, title);
  const index = bitcoin.index;
  if (!index) throw new SibylError('domain_disabled', `${title} reads the Bitcoin index, which this deployment does not run; nothing was charged`, { reason: 'domain_disabled' });
  if (index.syncedAt() === null || index.indexedHeight() === null) {
    throw new SibylError('upstream_unavailable', `the Bitcoin index is still reading the chain through ${index.esploraUrl} (at height ${index.indexedHeight() ?? 'none yet'}); try again shortly. Nothing was charged`);
  }
  return { bitcoin, index };
}

const unavailable = z.object({
  available: z.literal(false),
  reason: z.enum(['utxo_set_partial', 'no_price_history']).describe('utxo_set_partial: the index did not read from genesis (a real Esplora is read from tip - BITCOIN_INDEX_BLOCKS), so the UTXO set is partial; no_price_history: this deployment has no BTC/USD at the blocks\' times.'),
});
const usd = z.number().describe('USD.');
const day = z.string().describe('UTC day, YYYY-MM-DD.');
const complete = z.boolean().describe('false for the open last day (and a first day the index entered midway).');

export const bitcoinOnchainSkill = defineSkill({
  id: 'bitcoin-onchain-analytics',
  title: 'Bitcoin on-chain analytics',
  description: 'Bitcoin valuation from the UTXO set: realised cap (each unspent output at the BTC/USD when it was created), market cap, MVRV and realised price; SOPR per day, and for long- and short-term holders (155-day split); coin-age bands (<1d to >10y) with each band\'s supply and realised price; exchange flows (in, out, net, by exchange, from published exchange addresses). With the Esplora source, blocks read, methodology and price source.',
  tags: ['bitcoin', 'btc', 'utxo', 'hodl', 'realized-price', 'realized-cap', 'mvrv', 'sopr', 'age-bands', 'hodl-waves', 'exchange-flows', 'cycle'],
  examples: ['Are long-term bitcoin holders selling?', 'What is bitcoin\'s MVRV and realised price?', 'Bitcoin exchange inflows this week'],
  input: z.strictObject({ limit: rowsParam(TOOL_ROWS) }),
  price: '0.85',
  toolName: 'bitcoin_onchain_analytics',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...bitcoinProvenanceShape.shape,
    priceUsd: usd.nullable().describe('BTC/USD at the tip; null where this deployment has no price.'),
    supplyBtc: z.number().describe('Unspent outputs\' value (OP_RETURN excluded).'),
    utxoCount: z.number().int(),
    valuation: z.union([unavailable, z.object({ available: z.literal(true), realizedCap: usd, marketCap: usd, mvrv: z.number(), realizedPrice: usd.describe('Realised cap / supply: USD per BTC.') })]),
    sopr: z.union([unavailable, z.object({
      available: z.literal(true),
      daily: z.array(z.object({ day, complete, sopr: z.number().nullable(), longTermSopr: z.number().nullable(), shortTermSopr: z.number().nullable(), spentBtc: z.number() })).describe('Last limit days, oldest first; null where nothing priced was spent.'),
    })]),
    coinAgeBands: z.union([unavailable, z.object({
      available: z.literal(true), asOf: z.string(),
      bands: z.array(z.object({ band: z.enum(AGE_BANDS.map((b) => b.band) as [string, ...string[]]), supplyBtc: z.number(), sharePct: z.number(), outputs: z.number().int(), realizedPrice: usd.nullable() })),
    })]),
    exchangeFlows: z.object({
      exchanges: z.array(z.string()).describe('Exchanges whose published addresses are followed.'),
      last7d: z.object({ from: day, to: day, inflowBtc: z.number(), outflowBtc: z.number(), netBtc: z.number().describe('inflow - outflow: positive, coins moving onto exchanges.'), byExchange: z.array(z.object({ exchange: z.string(), inflowBtc: z.number(), outflowBtc: z.number(), netBtc: z.number() })).describe('Largest gross first, up to limit.') }),
      daily: z.array(z.object({ day, complete, inflowBtc: z.number(), outflowBtc: z.number(), netBtc: z.number() })),
    }),
    daily: z.array(z.object({ day, complete, priceUsd: usd.nullable(), marketCap: usd.nullable(), realizedCap: usd.nullable(), mvrv: z.number().nullable() })).describe('Last limit days, oldest first, at each day\'s close.'),
  }),
  summarize: (r: Omit<OnchainAnswer, 'provenance'> & BitcoinProvenance) => {
    const v = r.valuation.available ? `MVRV ${r.valuation.mvrv} (realised price $${r.valuation.realizedPrice}, market cap $${Math.round(r.valuation.marketCap)})` : `valuation unavailable (${r.valuation.reason})`;
    const lastSopr = r.sopr.available ? r.sopr.daily.at(-1) : undefined;
    const s = lastSopr ? `, SOPR ${lastSopr.sopr} (long-term ${lastSopr.longTermSopr}, short-term ${lastSopr.shortTermSopr}) on ${lastSopr.day}` : '';
    const f = r.exchangeFlows.last7d;
    return `Bitcoin at height ${r.asOf.height}: ${v}${s}; exchanges 7 d in ${f.inflowBtc.toFixed(2)} / out ${f.outflowBtc.toFixed(2)} BTC.`;
  },
  needs: ['bitcoin'],
  admit: async (_input, ctx) => void admitBitcoinIndex(ctx, 'Bitcoin on-chain analytics'),
  async handler(input, ctx) {
    const { bitcoin, index } = admitBitcoinIndex(ctx, 'Bitcoin on-chain analytics');
    await index.sync();
    const { provenance, ...rest } = onchainAnalytics(bitcoin, input.limit);
    return { ...provenance, ...rest };
  },
});
