/**
 * On-chain valuation from the Bitcoin index: realised cap (every unspent output at the BTC/USD
 * of the block that created it), market cap, MVRV, SOPR (spent outputs' value at spend price over
 * creation price; long- and short-term holders split at 155 days), coin-age bands of the UTXO
 * set and exchange flows. Figures over the whole UTXO set need it whole (an index read from
 * genesis) and need prices: otherwise those sections answer `available: false` with the reason.
 */
import type { BitcoinDay, BitcoinIndex, BitcoinSource, IndexedUtxo } from '../../../chain/bitcoin.js';
import { LONG_TERM_SECONDS, SATS_PER_BTC } from '../../../indexer/bitcoin/ledger.js';
import { indexProvenance, iso, type BitcoinProvenance } from '../../../indexer/bitcoin/provenance.js';

export const ONCHAIN_METHODOLOGY =
  'sibyl bitcoin-onchain v1: the index reads every block through the Esplora API and keeps the UTXO set with each output\'s creation block time and the BTC/USD then; ' +
  'realised cap = Σ unspent value × creation price; market cap = supply × price at the tip; MVRV = market cap / realised cap; realised price = realised cap / supply; ' +
  `SOPR = Σ spent value × price at the spending block / Σ spent value × creation price, per UTC day, long-term holders = outputs ${LONG_TERM_SECONDS / 86_400} days old or more when spent; ` +
  'coin-age bands = unspent supply by age at the tip, with each band\'s realised price; exchange flows = per transaction and exchange, value reaching its published addresses minus value leaving them (net positive: inflow, negative: outflow; its own change cancels out). ' +
  'Days are UTC days of block times (never going back); the last is still open.';

export type Unavailable = { readonly available: false; readonly reason: 'utxo_set_partial' | 'no_price_history' };

/** Why whole-set USD metrics cannot be given here, or null when they can. */
export function wholeSetGap(index: BitcoinIndex, priceUsd: number | null): Unavailable | null {
  if (!index.utxoSetComplete) return { available: false, reason: 'utxo_set_partial' };
  if (priceUsd === null || index.days().at(-1)?.realizedCap == null) return { available: false, reason: 'no_price_history' };
  return null;
}

export const btc = (sats: number) => sats / SATS_PER_BTC;
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
export const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

/** A day's valuation: market cap at its close, realised cap, MVRV (null without prices or a whole set). */
export function dayValuation(d: BitcoinDay, whole: boolean) {
  const marketCap = d.priceUsd === null ? null : btc(d.supply) * d.priceUsd;
  const realizedCap = whole ? d.realizedCap : null;
  return { marketCap, realizedCap, mvrv: marketCap !== null && realizedCap !== null ? ratio(marketCap, realizedCap) : null };
}

export const AGE_BANDS = [
  { band: '<1d', maxDays: 1 },
  { band: '1d-1w', maxDays: 7 },
  { band: '1w-1m', maxDays: 30 },
  { band: '1m-3m', maxDays: 90 },
  { band: '3m-6m', maxDays: 180 },
  { band: '6m-12m', maxDays: 365 },
  { band: '1y-2y', maxDays: 730 },
  { band: '2y-3y', maxDays: 1095 },
  { band: '3y-5y', maxDays: 1825 },
  { band: '5y-7y', maxDays: 2555 },
  { band: '7y-10y', maxDays: 3650 },
  { band: '>10y', maxDays: Infinity },
] as const;

export interface AgeBand {
  readonly band: (typeof AGE_BANDS)[number]['band'];
  readonly supplyBtc: number;
  readonly sharePct: number;
  readonly outputs: number;
  /** Σ value × creation price / Σ value: what the band's coins cost, USD per BTC (null: no coins, or unpriced). */
  readonly realizedPrice: number | null;
}

/** Unspent supply by age at `now` (a band holds ages from the previous band's bound up to, not including, its own). */
export function coinAgeBands(utxos: Iterable<IndexedUtxo>, now: number): AgeBand[] {
  const acc = AGE_BANDS.map(() => ({ sats: 0, usd: 0, unpriced: 0, outputs: 0 }));
  let total = 0;
  for (const u of utxos) {
    const ageDays = (now - u.time) / 86_400;
    const i = AGE_BANDS.findIndex((b) => ageDays < b.maxDays);
    const a = acc[i]!;
    a.sats += u.value;
    a.outputs++;
    if (u.price === null) a.unpriced += u.value;
    else a.usd += btc(u.value) * u.price;
    total += u.value;
  }
  return AGE_BANDS.map((b, i) => {
    const a = acc[i]!;
    return {
      band: b.band,
      supplyBtc: btc(a.sats),
      sharePct: total > 0 ? round((100 * a.sats) / total, 4) : 0,
      outputs: a.outputs,
      realizedPrice: a.sats > 0 && a.unpriced === 0 ? round(a.usd / btc(a.sats)) : null,
    };
  });
}

export interface FlowRow {
  readonly exchange: string;
  readonly inflowBtc: number;
  readonly outflowBtc: number;
  readonly netBtc: number;
}

/** Exchange flows summed over days, total and by exchange (largest gross first). */
export function sumExchangeFlows(days: readonly BitcoinDay[]) {
  const by = new Map<string, { inflow: number; outflow: number }>();
  let inflow = 0, outflow = 0;
  for (const d of days) {
    inflow += d.exchange.inflow;
    outflow += d.exchange.outflow;
    for (const [name, f] of Object.entries(d.exchange.byExchange)) {
      const t = by.get(name) ?? { inflow: 0, outflow: 0 };
      t.inflow += f.inflow;
      t.outflow += f.outflow;
      by.set(name, t);
    }
  }
  const rows: FlowRow[] = [...by]
    .map(([exchange, f]) => ({ exchange, inflowBtc: btc(f.inflow), outflowBtc: btc(f.outflow), netBtc: btc(f.inflow - f.outflow) }))
    .sort((a, b) => b.inflowBtc + b.outflowBtc - (a.inflowBtc + a.outflowBtc));
  return { inflowBtc: btc(inflow), outflowBtc: btc(outflow), netBtc: btc(inflow - outflow), byExchange: rows };
}

const soprOf = (s: { atSpend: number; atCreation: number }) => (s.atCreation > 0 ? round(s.atSpend / s.atCreation, 4) : null);

/** A day is complete when a later block closed it and the index read it from its start. */
export function dayComplete(days: readonly BitcoinDay[], i: number, index: BitcoinIndex): boolean {
  return i < days.length - 1 && (i > 0 || index.fromHeight === 0);
}

export interface OnchainAnswer {
  readonly provenance: BitcoinProvenance;
  readonly priceUsd: number | null;
  readonly supplyBtc: number;
  readonly utxoCount: number;
  readonly valuation: Unavailable | { available: true; realizedCap: number; marketCap: number; mvrv: number; realizedPrice: number };
  readonly sopr: Unavailable | { available: true; daily: { day: string; complete: boolean; sopr: number | null; longTermSopr: number | null; shortTermSopr: number | null; spentBtc: number }[] };
  readonly coinAgeBands: Unavailable | { available: true; asOf: string; bands: AgeBand[] };
  readonly exchangeFlows: {
    readonly exchanges: string[];
    readonly last7d: ReturnType<typeof sumExchangeFlows> & { readonly from: string; readonly to: string };
    readonly daily: { day: string; complete: boolean; inflowBtc: number; outflowBtc: number; netBtc: number }[];
  };
  readonly daily: { day: string; complete: boolean; priceUsd: number | null; marketCap: number | null; realizedCap: number | null; mvrv: number | null }[];
}

/** The answer from the index as it stands (the caller syncs it first). */
export function onchainAnalytics(bitcoin: BitcoinSource, limit: number): OnchainAnswer {
  const index = bitcoin.index!;
  const tip = index.indexedTip()!;
  const days = index.days();
  const last = days.at(-1)!;
  const priceUsd = bitcoin.prices.at(tip.time);
  const gap = wholeSetGap(index, priceUsd);
  const recent = days.slice(-limit);
  const offset = days.length - recent.length;
  const complete = (i: number) => dayComplete(days, offset + i, index);
  const utxos = [...index.utxos()];
  const week = days.slice(-7);
  const soprGap = !index.utxoSetComplete ? ({ available: false, reason: 'utxo_set_partial' } as const) : priceUsd === null ? ({ available: false, reason: 'no_price_history' } as const) : null;
  return {
    provenance: indexProvenance(bitcoin, tip, ONCHAIN_METHODOLOGY, days[0]!.fromHeight),
    priceUsd,
    supplyBtc: btc(last.supply),
    utxoCount: utxos.length,
    valuation: gap ?? (() => {
      const marketCap = btc(last.supply) * priceUsd!;
      const realizedCap = last.realizedCap!;
      return { available: true as const, realizedCap: round(realizedCap), marketCap: round(marketCap), mvrv: round(marketCap / realizedCap, 4), realizedPrice: round(realizedCap / btc(last.supply)) };
    })(),
    sopr: soprGap ?? {
      available: true,
      daily: recent.map((d, i) => ({ day: d.day, complete: complete(i), sopr: soprOf(d.spent), longTermSopr: soprOf(d.spentLongTerm), shortTermSopr: soprOf(d.spentShortTerm), spentBtc: btc(d.spent.sats) })),
    },
    coinAgeBands: gap ?? { available: true, asOf: iso(tip.time), bands: coinAgeBands(utxos, tip.time) },
    exchangeFlows: {
      exchanges: bitcoin.entities.filter((e) => e.kind === 'exchange').map((e) => e.name),
      last7d: { ...sumExchangeFlows(week), byExchange: sumExchangeFlows(week).byExchange.slice(0, limit), from: week[0]!.day, to: week.at(-1)!.day },
      daily: recent.map((d, i) => ({ day: d.day, complete: complete(i), inflowBtc: btc(d.exchange.inflow), outflowBtc: btc(d.exchange.outflow), netBtc: btc(d.exchange.inflow - d.exchange.outflow) })),
    },
    daily: recent.map((d, i) => ({ day: d.day, complete: complete(i), priceUsd: d.priceUsd, ...roundVal(dayValuation(d, index.utxoSetComplete)) })),
  };
}

const roundVal = (v: ReturnType<typeof dayValuation>) => ({
  marketCap: v.marketCap === null ? null : round(v.marketCap),
  realizedCap: v.realizedCap === null ? null : round(v.realizedCap),
  mvrv: v.mvrv === null ? null : round(v.mvrv, 4),
});
