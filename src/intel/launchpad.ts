/**
 * Bonding-curve launches, methodology `launchpad/v1`: the venue's own TokenLaunched, Trade and
 * Graduated events (progress is the venue's progressBps, raised ETH its realEth after each
 * trade); ETH amounts valued at the wrapped native's `market/v1` price at each trade's moment;
 * after graduation, the token's DEX swaps count too.
 */
import { formatEther, type Address, type Hash } from 'viem';
import { rowScore } from '../indexer/rows.js';
import { MARKET_METHODOLOGY, round, valueAt, type Market } from './market.js';

export const LAUNCHPAD_METHODOLOGY = `launchpad/v1 (TokenLaunched, Trade and Graduated events of the chain's bonding-curve venues; ETH valued at the wrapped native's price of each trade's block; post-graduation DEX volume via ${MARKET_METHODOLOGY.split(' ')[0]})`;

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
  graduated: { pair: Address; block: number; at: string } | null;
  /** Over the period. */
  period: { buys: number; sells: number; traders: number; curveVolumeEth: number; curveVolumeUsd: number; dexVolumeUsd: number; volumeUsd: number };
  /** Since launch. */
  lifetime: { buys: number; sells: number; traders: number };
}

export async function launches(market: Market, fromBlock: number): Promise<Launch[]> {
  const rows = await market.reader.launchpad(0, market.head.block);
  const native = market.chain.spec.wrappedNative.toLowerCase();
  const [nativeLine, nativeNow] = [await market.timeline(native, 0), market.priceNow(native)?.usd ?? null];
  const byToken = new Map<string, Launch & { periodTraders: Set<string>; allTraders: Set<string> }>();
  for (const r of rows) {
    const key = r.token.toLowerCase();
    if (r.event === 'tokenLaunched') {
      byToken.set(key, {
        token: r.token, venue: r.venue, creator: r.creator, name: r.name, symbol: r.symbol,
        launchedBlock: r.block, launchedAt: new Date(r.ts * 1000).toISOString(), launchTx: r.tx,
        progressPct: 0, raisedEth: 0, raisedUsd: null, lastPriceEth: null, lastPriceUsd: null, graduated: null,
        period: { buys: 0, sells: 0, traders: 0, curveVolumeEth: 0, curveVolumeUsd: 0, dexVolumeUsd: 0, volumeUsd: 0 },
        lifetime: { buys: 0, sells: 0, traders: 0 },
        periodTraders: new Set(), allTraders: new Set(),
      });
      continue;
    }
    const launch = byToken.get(key);
    if (!launch) continue; // launched before the index began
    if (r.event === 'graduated') {
      launch.graduated = { pair: r.pair, block: r.block, at: new Date(r.ts * 1000).toISOString() };
      continue;
    }
    const eth = Number(formatEther(BigInt(r.ethAmount)));
    const tokens = Number(formatEther(BigInt(r.tokenAmount)));
    launch.progressPct = r.progressBps / 100;
    launch.raisedEth = Number(formatEther(BigInt(r.realEth)));
    if (tokens > 0) launch.lastPriceEth = eth / tokens;
    launch.lifetime[r.isBuy ? 'buys' : 'sells']++;
    launch.allTraders.add(r.trader.toLowerCase());
    if (r.block >= fromBlock) {
      launch.period[r.isBuy ? 'buys' : 'sells']++;
      launch.periodTraders.add(r.trader.toLowerCase());
      launch.period.curveVolumeEth += eth;
      const ethUsd = valueAt(nativeLine, rowScore(r.block, r.logIndex));
      if (ethUsd !== null) launch.period.curveVolumeUsd += eth * ethUsd;
    }
  }
  const dex = await market.volumes(fromBlock);
  return [...byToken.values()].map(({ periodTraders, allTraders, ...l }) => {
    const dexVolumeUsd = l.graduated ? (dex.get(l.token.toLowerCase())?.usd ?? 0) : 0;
    const priceNow = l.graduated ? (market.priceNow(l.token)?.usd ?? null) : l.lastPriceEth !== null && nativeNow !== null ? l.lastPriceEth * nativeNow : null;
    return {
      ...l,
      raisedUsd: nativeNow === null ? null : round(l.raisedEth * nativeNow, 2),
      lastPriceUsd: priceNow,
      period: {
        ...l.period,
        traders: periodTraders.size,
        curveVolumeUsd: round(l.period.curveVolumeUsd, 2),
        dexVolumeUsd: round(dexVolumeUsd, 2),
        volumeUsd: round(l.period.curveVolumeUsd + dexVolumeUsd, 2),
      },
      lifetime: { ...l.lifetime, traders: allTraders.size },
    };
  });
}
