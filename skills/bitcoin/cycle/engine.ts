/**
 * Bitcoin's cycle position by MVRV, with its inputs: realised and market cap, NVT, the last
 * complete day's activity (active addresses, transactions, volume, miner revenue, fees), dormant
 * supply and exchange flows, and a daily series. Read from the index as it stands (the
 * background poll keeps it at the tip): nothing is fetched on the request path.
 */
import type { BitcoinDay, BitcoinSource } from '../../../chain/bitcoin.js';
import { btc, dayComplete, dayValuation, wholeSetGap } from '../onchain/engine.js';

/** MVRV bands, lowest first: each applies below its bound. */
export const MVRV_BANDS = [
  { below: 1, signal: 'undervalued', meaning: 'market cap under the realised cap: the average coin is held at a loss (cycle bottoms: 2015, 2018, 2022 went under 1)' },
  { below: 2.4, signal: 'neutral', meaning: 'between cost basis and a moderate premium (most of a cycle)' },
  { below: 3.7, signal: 'heated', meaning: 'a large unrealised profit (late bull markets)' },
  { below: Infinity, signal: 'overheated', meaning: 'market cap 3.7 times the realised cap or more (2011, 2013, 2017 and 2021 tops went above)' },
] as const;
export type MvrvSignal = (typeof MVRV_BANDS)[number]['signal'];

export const mvrvSignal = (mvrv: number): MvrvSignal => MVRV_BANDS.find((b) => mvrv < b.below)!.signal;

/** Net exchange flow under this share of the gross is balanced. */
export const BALANCED_FLOW_SHARE = 0.05;
export type FlowSignal = 'net_inflow' | 'net_outflow' | 'balanced';

export function flowSignal(inflow: number, outflow: number): FlowSignal {
  const gross = inflow + outflow;
  if (gross === 0 || Math.abs(inflow - outflow) < BALANCED_FLOW_SHARE * gross) return 'balanced';
  return inflow > outflow ? 'net_inflow' : 'net_outflow';
}

/** Days of the series: those within a year of the tip. */
export const SERIES_DAYS = 365;
/** NVT divides by the mean daily volume of up to this many complete days. */
export const NVT_DAYS = 7;
/** The index's last read older than this: the answer is stale. */
export const STALE_AFTER_MS = 60_000;

export const CYCLE_METHODOLOGY =
  'sibyl bitcoin-cycle v1 (from the Bitcoin index, read through Esplora): MVRV = market cap (supply × BTC/USD at the tip) / realised cap (Σ unspent value × BTC/USD when created); ' +
  `signal bands: ${MVRV_BANDS.map((b) => `${b.signal} ${b.below === Infinity ? '≥ 3.7' : `< ${b.below}`}`).join(', ')}; trend7d = MVRV now minus MVRV at the close 7 days earlier; ` +
  `NVT = market cap / mean daily transaction volume in USD over the last ${NVT_DAYS} complete days (volume excludes outputs back to an input's address); ` +
  'activity, fees, miner revenue (coinbase outputs) and exchange flows are the last complete UTC day; dormant supply = unspent outputs a year old or more; ' +
  `exchange flow signal: balanced when |net| < ${BALANCED_FLOW_SHARE * 100}% of in + out.`;

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const dayStart = (day: string) => `${day}T00:00:00.000Z`;

export type CycleResult = Record<string, unknown> & { available: boolean };

/** The cycle feed, or why it has none (the envelope's reason). */
export function cyclePosition(bitcoin: BitcoinSource | undefined, now = Date.now()): CycleResult {
  if (!bitcoin) return { available: false, reason: 'domain_disabled', fetchedAt: null, stale: false };
  const index = bitcoin.index;
  const syncedAt = index?.syncedAt() ?? null;
  if (!index || syncedAt === null) return { available: false, reason: 'index_not_ready', fetchedAt: null, stale: true };
  const fetchedAt = new Date(syncedAt).toISOString();
  const stale = now - syncedAt > STALE_AFTER_MS;
  const tip = index.indexedTip()!;
  const days = index.days();
  const priceUsd = bitcoin.prices.at(tip.time);
  const gap = wholeSetGap(index, priceUsd);
  if (gap) return { ...gap, fetchedAt, stale };

  const last = days.at(-1)!;
  const marketCap = btc(last.supply) * priceUsd!;
  const realizedCap = last.realizedCap!;
  const mvrv = marketCap / realizedCap;
  const weekAgo = days.at(-8) ? dayValuation(days.at(-8)!, true).mvrv : null;
  // The last complete day (a later block closed it), else the open one.
  const completeIdx = days.map((_, i) => i).filter((i) => dayComplete(days, i, index));
  const day: BitcoinDay = completeIdx.length ? days[completeIdx.at(-1)!]! : last;
  const nvtDays = completeIdx.slice(-NVT_DAYS).map((i) => days[i]!);
  const volumeUsd = nvtDays.length ? nvtDays.reduce((s, d) => s + btc(d.txVolume) * (d.priceUsd ?? 0), 0) / nvtDays.length : null;
  const inflow = btc(day.exchange.inflow), outflow = btc(day.exchange.outflow);
  const seriesFrom = tip.time - SERIES_DAYS * 86_400;
  return {
    available: true,
    fetchedAt,
    stale,
    source: `${bitcoin.kind === 'embedded' ? 'embedded Bitcoin chain' : 'Esplora'} ${bitcoin.esplora.baseUrl}, blocks ${index.fromHeight}-${tip.height} (tip ${tip.hash}, ${new Date(tip.time * 1000).toISOString()}); prices: ${bitcoin.prices.source}`,
    mvrv: { value: round(mvrv, 4), signal: mvrvSignal(mvrv), trend7d: weekAgo === null ? null : round(mvrv - weekAgo, 4), bands: MVRV_BANDS.map((b) => ({ signal: b.signal, below: b.below === Infinity ? null : b.below, meaning: b.meaning })) },
    nvt: volumeUsd ? round(marketCap / volumeUsd, 2) : null,
    realizedCap: round(realizedCap),
    marketCap: round(marketCap),
    realizedPrice: round(realizedCap / btc(last.supply)),
    priceUsd: round(priceUsd!),
    day: day.day,
    activeAddresses: day.activeAddresses,
    txCount: day.txCount,
    txVolume: btc(day.txVolume),
    minerRevenue: btc(day.minerRevenue),
    totalFees: btc(day.fees),
    dormantSupplyPct: round((100 * last.dormantSupply) / last.supply, 4),
    exchangeFlow: { inflow, outflow, net: round(inflow - outflow, 8), signal: flowSignal(inflow, outflow) },
    units: { realizedCap: 'USD', marketCap: 'USD', txVolume: 'BTC', minerRevenue: 'BTC', totalFees: 'BTC', exchangeFlow: 'BTC', nvt: 'market cap / daily USD volume' },
    timeSeries: days
      .filter((d) => d.closeTime >= seriesFrom)
      .map((d) => {
        const v = dayValuation(d, true);
        return { time: dayStart(d.day), marketCap: v.marketCap === null ? null : round(v.marketCap), mvrv: v.mvrv === null ? null : round(v.mvrv, 4), activeAddresses: d.activeAddresses, txCount: d.txCount };
      }),
    methodology: CYCLE_METHODOLOGY,
  };
}
