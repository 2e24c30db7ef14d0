/**
 * Where capital sits and moves across a chain's DEXes, methodology `dex-capital/v1`: per DEX,
 * TVL now (current reserves at `market/v1` prices) and at the period's start (each pool's last
 * Sync before it, at the prices of that moment), liquidity added and removed (Mint/Burn) and
 * traded volume (Swap) over the period, each valued at the price of its own block.
 */
import { formatUnits } from 'viem';
import { rowScore } from '../../indexer/rows.js';
import { liquidityShifts } from '../whales/flows.js';
import { valueAt, type Market, type Pool } from '../data/market.js';

export const DEX_CAPITAL_METHODOLOGY = 'dex-capital/v1 (per DEX: TVL from reserves now and at the period start (last Sync before it), each side at the market/v1 price of its moment; Mint/Burn capital and Swap volume over the period at the price of their block)';

export interface PoolCapital {
  pool: string;
  dex: string;
  pair: string;
  tvlUsd: number | null;
  tvlStartUsd: number | null;
  addedUsd: number;
  removedUsd: number;
  volumeUsd: number;
  swaps: number;
}

export interface DexCapital {
  dex: string;
  pools: number;
  unpricedPools: number;
  tvlUsd: number;
  tvlStartUsd: number;
  addedUsd: number;
  removedUsd: number;
  netFlowUsd: number;
  volumeUsd: number;
  swaps: number;
  topPools: PoolCapital[];
}

export async function dexCapital(market: Market, fromBlock: number): Promise<{ dexes: DexCapital[]; pools: PoolCapital[] }> {
  const [shifts, volume] = await Promise.all([liquidityShifts(market, fromBlock), market.poolVolumes(fromBlock)]);
  const flows = new Map(shifts.pools.map((p) => [p.pool, p]));
  const pools: PoolCapital[] = [];
  for (const pool of market.pools) {
    const symbol = (t: string) => market.tokens.get(t)?.symbol ?? t;
    pools.push({
      pool: pool.pair,
      dex: pool.dex,
      pair: `${symbol(pool.token0)}/${symbol(pool.token1)}`,
      tvlUsd: market.liquidityUsd(pool),
      tvlStartUsd: await tvlAt(market, pool, fromBlock),
      addedUsd: flows.get(pool.pair)?.addedUsd ?? 0,
      removedUsd: flows.get(pool.pair)?.removedUsd ?? 0,
      volumeUsd: volume.get(pool.pair)?.usd ?? 0,
      swaps: volume.get(pool.pair)?.swaps ?? 0,
    });
  }
  const dexIds = [...new Set(pools.map((p) => p.dex))];
  const dexes = dexIds.map((dex) => {
    const mine = pools.filter((p) => p.dex === dex);
    const sum = (f: (p: PoolCapital) => number | null) => mine.reduce((s, p) => s + (f(p) ?? 0), 0);
    const added = sum((p) => p.addedUsd);
    const removed = sum((p) => p.removedUsd);
    return {
      dex,
      pools: mine.length,
      unpricedPools: mine.filter((p) => p.tvlUsd === null).length,
      tvlUsd: sum((p) => p.tvlUsd),
      tvlStartUsd: sum((p) => p.tvlStartUsd),
      addedUsd: added,
      removedUsd: removed,
      netFlowUsd: added - removed,
      volumeUsd: sum((p) => p.volumeUsd),
      swaps: sum((p) => p.swaps),
      topPools: [...mine].sort((a, b) => (b.tvlUsd ?? 0) - (a.tvlUsd ?? 0)),
    };
  });
  dexes.sort((a, b) => b.tvlUsd - a.tvlUsd);
  return { dexes, pools };
}

async function usdOf(market: Market, token: string, raw: bigint, score: number, fromBlock: number): Promise<number | null> {
  const decimals = market.decimals(token);
  if (decimals === null) return null;
  const price = valueAt(await market.timeline(token, fromBlock), score);
  return price === null ? null : Number(formatUnits(raw, decimals)) * price;
}

/** A pool's USD value at the start of the window: its last reserves before it, at that moment's prices. */
async function tvlAt(market: Market, pool: Pool, fromBlock: number): Promise<number | null> {
  const sync = await market.reader.lastSyncBefore(pool.pair, fromBlock);
  if (!sync) return 0; // the pool held nothing yet
  const score = rowScore(sync.block, sync.logIndex);
  const [u0, u1] = await Promise.all([
    // Full-history price lines: the pool's last Sync may predate the token's own opening point.
    usdOf(market, pool.token0, BigInt(sync.reserve0), score, 0),
    usdOf(market, pool.token1, BigInt(sync.reserve1), score, 0),
  ]);
  return u0 === null || u1 === null ? null : u0 + u1;
}
