/**
 * Bonding-curve launches, methodology `launchpad/v2`: the venue's own TokenLaunched, Trade and
 * Graduated events (progress is the venue's progressBps, raised ETH its realEth after each
 * trade); ETH amounts valued at the wrapped native's `market/v1` price at each trade's moment;
 * until graduation, the pace of the raise and the time to graduate at it; after graduation, the
 * Swap events of the pair the venue graduated the token to, from its Graduated event on.
 */
import { formatEther, parseAbi, type Address, type Hash } from 'viem';
import type { ConnectedChain } from '../../chain/runtime.js';
import { rowScore } from '../../indexer/rows.js';
import { byGraduationEta, graduationPace, paceRanking, type Pace } from './graduation-pace.js';
import { round, valueAt, type Market, type PricePoint } from '../data/market.js';

/** Base launchpad curves trade a few times a day each, so a day holds enough of a live curve's trades for a pace. */
export const LAUNCHPAD_PACE_SECONDS = 86_400;
export const LAUNCHPAD_RANKING = paceRanking(LAUNCHPAD_PACE_SECONDS, 'ETH');

export const LAUNCHPAD_METHODOLOGY = `launchpad/v2 (TokenLaunched, Trade and Graduated events of the chain's bonding-curve venues; ETH valued at the wrapped native's price of each trade's block; pace = net ETH raised over the last ${LAUNCHPAD_PACE_SECONDS / 3600} h, ETA = ETH still needed (from the venue's curve constants) / pace; post-graduation DEX volume = Swap events of the graduated pair from its Graduated event, valued on their wrapped-native side)`;

export interface DexActivity {
  pair: Address;
  swaps: number;
  buys: number;
  sells: number;
  volumeEth: number;
  volumeUsd: number;
}

export interface Launch {
  token: Address;
  venue: Address;
  creator: Address;
  name: string;
  symbol: string;
  launchedBlock: number;
  launchedAt: string;
  launchTx: Hash;
  progressPct: number;
  raisedEth: number;
  raisedUsd: number | null;
  lastPriceEth: number | null;
  lastPriceUsd: number | null;
  lastTradeAt: string | null;
  graduated: { pair: Address; block: number; at: string } | null;
  /** On the curve: ETH still needed and the pace over the last LAUNCHPAD_PACE_SECONDS; null once graduated. */
  toGraduate: (Omit<Pace, 'netInflow' | 'perHour'> & { ethNeeded: number | null; netEthInflow: number; ethPerHour: number; paceWindowHours: number }) | null;
  /** Over the period. */
  period: { buys: number; sells: number; traders: number; curveVolumeEth: number; curveVolumeUsd: number; dexVolumeUsd: number; volumeUsd: number };
  /** The graduated pair's swaps over the period; null before graduation. */
  dex: DexActivity | null;
  /** Since launch. */
  lifetime: { buys: number; sells: number; traders: number };
}

interface Building extends Launch {
  periodTraders: Set<string>;
  allTraders: Set<string>;
  lastTradeTs: number | null;
  graduatedScore: number | null;
  paceNet: number;
  paceTrades: number;
}

export async function launches(market: Market, fromBlock: number): Promise<Launch[]> {
  const rows = await market.reader.launchpad(0, market.head.block);
  const native = market.chain.spec.wrappedNative.toLowerCase();
  const [nativeLine, nativeNow] = [await market.timeline(native, 0), market.priceNow(native)?.usd ?? null];
  const paceFrom = market.head.timestamp - LAUNCHPAD_PACE_SECONDS;
  const byToken = new Map<string, Building>();
  for (const r of rows) {
    const key = r.token.toLowerCase();
    if (r.event === 'tokenLaunched') {
      byToken.set(key, {
        token: r.token, venue: r.venue, creator: r.creator, name: r.name, symbol: r.symbol,
        launchedBlock: r.block, launchedAt: new Date(r.ts * 1000).toISOString(), launchTx: r.tx,
        progressPct: 0, raisedEth: 0, raisedUsd: null, lastPriceEth: null, lastPriceUsd: null, lastTradeAt: null, graduated: null, toGraduate: null,
        period: { buys: 0, sells: 0, traders: 0, curveVolumeEth: 0, curveVolumeUsd: 0, dexVolumeUsd: 0, volumeUsd: 0 },
        dex: null,
        lifetime: { buys: 0, sells: 0, traders: 0 },
        periodTraders: new Set(), allTraders: new Set(), lastTradeTs: null, graduatedScore: null, paceNet: 0, paceTrades: 0,
      });
      continue;
    }
    const launch = byToken.get(key);
    if (!launch) continue; // launched before the index began
    if (r.event === 'graduated') {
      launch.graduated = { pair: r.pair, block: r.block, at: new Date(r.ts * 1000).toISOString() };
      launch.graduatedScore = rowScore(r.block, r.logIndex);
      continue;
    }
    const eth = Number(formatEther(BigInt(r.ethAmount)));
    const tokens = Number(formatEther(BigInt(r.tokenAmount)));
    launch.progressPct = r.progressBps / 100;
    launch.raisedEth = Number(formatEther(BigInt(r.realEth)));
    if (tokens > 0) launch.lastPriceEth = eth / tokens;
    launch.lastTradeTs = r.ts;
    launch.lifetime[r.isBuy ? 'buys' : 'sells']++;
    launch.allTraders.add(r.trader.toLowerCase());
    if (r.ts >= paceFrom) {
      // A buy adds its ETH to the curve's realEth and a sell takes its ETH out: the net is the raise's change.
      launch.paceNet += r.isBuy ? eth : -eth;
      launch.paceTrades++;
    }
    if (r.block >= fromBlock) {
      launch.period[r.isBuy ? 'buys' : 'sells']++;
      launch.periodTraders.add(r.trader.toLowerCase());
      launch.period.curveVolumeEth += eth;
      const ethUsd = valueAt(nativeLine, rowScore(r.block, r.logIndex));
      if (ethUsd !== null) launch.period.curveVolumeUsd += eth * ethUsd;
    }
  }
  const all = [...byToken.values()];
  const dex = await graduatedPairSwaps(market, all, fromBlock, native, nativeLine);
  const targets = new Map<string, number | null>();
  for (const venue of new Set(all.map((l) => l.venue.toLowerCase()))) targets.set(venue, await graduationEth(market.chain, venue as Address));
  return all.map(({ periodTraders, allTraders, lastTradeTs, graduatedScore: _g, paceNet, paceTrades, ...l }) => {
    const d = dex.get(l.token.toLowerCase()) ?? null;
    const dexVolumeUsd = d?.volumeUsd ?? 0;
    const priceNow = l.graduated ? (market.priceNow(l.token)?.usd ?? null) : l.lastPriceEth !== null && nativeNow !== null ? l.lastPriceEth * nativeNow : null;
    const target = targets.get(l.venue.toLowerCase()) ?? null;
    let toGraduate: Launch['toGraduate'] = null;
    if (!l.graduated) {
      const needed = target === null ? null : Math.max(0, target - l.raisedEth);
      const { netInflow, perHour, ...pace } = graduationPace({
        needed, netInflow: paceNet, tradesInWindow: paceTrades, windowSeconds: LAUNCHPAD_PACE_SECONDS, now: market.head.timestamp, lastTradeTime: lastTradeTs, unit: 'ETH',
        unknownTarget: 'the venue\'s curve constants (VIRTUAL_ETH_START, VIRTUAL_TOKEN_START, CURVE_SUPPLY) could not be read',
      });
      toGraduate = {
        ethNeeded: needed === null ? null : round(needed, 9), netEthInflow: round(netInflow, 9), ethPerHour: round(perHour, 9), paceWindowHours: LAUNCHPAD_PACE_SECONDS / 3600,
        ...pace, etaHours: pace.etaHours === null ? null : round(pace.etaHours, 3),
      };
    }
    return {
      ...l,
      raisedUsd: nativeNow === null ? null : round(l.raisedEth * nativeNow, 2),
      lastPriceUsd: priceNow,
      lastTradeAt: lastTradeTs === null ? null : new Date(lastTradeTs * 1000).toISOString(),
      toGraduate,
      period: {
        ...l.period,
        traders: periodTraders.size,
        curveVolumeUsd: round(l.period.curveVolumeUsd, 2),
        dexVolumeUsd: round(dexVolumeUsd, 2),
        volumeUsd: round(l.period.curveVolumeUsd + dexVolumeUsd, 2),
      },
      // A graduated token with no swap in the window has traded nothing there: zeros, not null.
      dex: l.graduated ? { ...(d ?? { pair: l.graduated.pair, swaps: 0, buys: 0, sells: 0, volumeEth: 0, volumeUsd: 0 }), volumeEth: round(d?.volumeEth ?? 0, 9), volumeUsd: round(d?.volumeUsd ?? 0, 2) } : null,
      lifetime: { ...l.lifetime, traders: allTraders.size },
    };
  });
}

/**
 * Swaps of each graduated token's pair in [fromBlock, head], from its Graduated event on (a pair
 * someone created and traded before graduation is not the venue's pool until then), each valued
 * on its wrapped-native side at that moment's price.
 */
async function graduatedPairSwaps(market: Market, all: readonly Building[], fromBlock: number, native: string, nativeLine: readonly PricePoint[]): Promise<Map<string, DexActivity>> {
  const byPair = new Map(all.filter((l) => l.graduated).map((l) => [l.graduated!.pair.toLowerCase(), l]));
  const out = new Map<string, DexActivity>();
  if (!byPair.size) return out;
  for (const s of await market.reader.swaps(fromBlock, market.head.block)) {
    const launch = byPair.get(s.pair.toLowerCase());
    if (!launch || rowScore(s.block, s.logIndex) < launch.graduatedScore!) continue;
    const key = launch.token.toLowerCase();
    const d = out.get(key) ?? { pair: launch.graduated!.pair, swaps: 0, buys: 0, sells: 0, volumeEth: 0, volumeUsd: 0 };
    // V2 orders a pair's tokens by address: the native is token0 when its address is the lower one.
    const nativeIs0 = native < key;
    const [ethIn, ethOut] = nativeIs0 ? [s.amount0In, s.amount0Out] : [s.amount1In, s.amount1Out];
    const eth = Number(formatEther(BigInt(ethIn) + BigInt(ethOut)));
    d.swaps++;
    d[BigInt(ethIn) > 0n ? 'buys' : 'sells']++;
    d.volumeEth += eth;
    d.volumeUsd += eth * (valueAt(nativeLine, rowScore(s.block, s.logIndex)) ?? 0);
    out.set(key, d);
  }
  return out;
}

const curveConstants = parseAbi([
  'function VIRTUAL_ETH_START() view returns (uint256)',
  'function VIRTUAL_TOKEN_START() view returns (uint256)',
  'function CURVE_SUPPLY() view returns (uint256)',
]);
const targetsByVenue = new Map<string, number>();

/** ETH a curve of this venue holds when its last token is sold: k / (virtual tokens left then) - initial virtual ETH. Read once per venue; null when the venue does not answer. */
async function graduationEth(chain: ConnectedChain, venue: Address): Promise<number | null> {
  const key = `${chain.spec.chainId}:${venue.toLowerCase()}`;
  const known = targetsByVenue.get(key);
  if (known !== undefined) return known;
  try {
    const read = (functionName: 'VIRTUAL_ETH_START' | 'VIRTUAL_TOKEN_START' | 'CURVE_SUPPLY') => chain.client.readContract({ address: venue, abi: curveConstants, functionName });
    const [ve, vt, cs] = await Promise.all([read('VIRTUAL_ETH_START'), read('VIRTUAL_TOKEN_START'), read('CURVE_SUPPLY')]);
    const target = Number(formatEther((ve * vt) / (vt - cs) - ve));
    targetsByVenue.set(key, target); // constants: they never change for a deployed venue
    return target;
  } catch {
    return null; // not cached: the next read may reach the node
  }
}

/** What a radar row says of a launch's way to graduation: its pace and ETA on the curve, or when it graduated. */
export function radarPace(l: Launch) {
  const g = l.toGraduate;
  return {
    lastTradeAt: l.lastTradeAt,
    graduatedAt: l.graduated?.at ?? null,
    ethToGraduate: g?.ethNeeded ?? null,
    netEthInflow: g?.netEthInflow ?? null,
    paceWindowHours: LAUNCHPAD_PACE_SECONDS / 3600,
    etaHours: g?.etaHours ?? null,
    estimatedGraduationAt: g?.estimatedGraduationAt ?? null,
    noPaceReason: g?.noPaceReason ?? null,
  };
}

export interface RadarRanked {
  readonly progressPct: number;
  readonly lastTradeAt: string | null;
  readonly graduatedAt: string | null;
  readonly etaHours: number | null;
}

/** Radar order: closest to graduating at the current pace first, then curves without a pace, then graduated tokens (latest first). */
export function byRadarOrder(a: RadarRanked, b: RadarRanked): number {
  if ((a.graduatedAt === null) !== (b.graduatedAt === null)) return a.graduatedAt ? 1 : -1;
  if (a.graduatedAt && b.graduatedAt) return Date.parse(b.graduatedAt) - Date.parse(a.graduatedAt);
  const rank = (r: RadarRanked) => ({ etaHours: r.etaHours, lastTradeTime: r.lastTradeAt ? Date.parse(r.lastTradeAt) / 1000 : null, progressPct: r.progressPct });
  return byGraduationEta(rank(a), rank(b));
}

export const RADAR_RANKING = `${LAUNCHPAD_RANKING}; graduated tokens last, latest graduation first`;
