/**
 * Newest V2 pairs, methodology `latest-pairs/v2`: PairCreated rows of the index newest first,
 * reserves as the index holds them at its checkpoint (the last Sync), USD from `market/v1`.
 * A side without a price is left out of the liquidity and the basis says so.
 */
import { formatUnits, type Address, type Hash } from 'viem';
import { MARKET_METHODOLOGY, round, type Market } from '../data/market.js';
import type { TokenInfo } from '../data/tokens.js';

export const LATEST_PAIRS_METHODOLOGY = `latest-pairs/v2 (indexed PairCreated logs newest first; reserves from the last indexed Sync; USD via ${MARKET_METHODOLOGY})`;

export interface PairRow {
  pair: Address;
  dex: string;
  token0: TokenInfo;
  token1: TokenInfo;
  reserves: { token0: string | null; token1: string | null };
  liquidityUsd: number | null;
  liquidityBasis: 'both_sides' | 'one_side_doubled' | null;
  unpricedReason?: string;
  createdBlock: string;
  createdAt: string;
  createdTx: Hash;
}

export async function latestPairs(market: Market, limit: number): Promise<{ pairs: PairRow[]; fromBlock: number }> {
  const created = (await market.reader.pairs()).sort((a, b) => (a.block === b.block ? b.logIndex - a.logIndex : b.block - a.block)).slice(0, limit);
  const pools = new Map(market.pools.map((p) => [p.pair, p]));
  const pairs = created.map((c): PairRow => {
    const pool = pools.get(c.pair.toLowerCase());
    const info = (t: string): TokenInfo => market.tokens.get(t.toLowerCase()) ?? { address: t as Address, symbol: null, name: null, decimals: null };
    const [t0, t1] = [info(c.token0), info(c.token1)];
    const amount = (raw: bigint | undefined, t: TokenInfo) => (raw === undefined || t.decimals === null ? null : Number(formatUnits(raw, t.decimals)));
    const [a0, a1] = [amount(pool?.r0, t0), amount(pool?.r1, t1)];
    const [p0, p1] = [market.priceNow(c.token0)?.usd, market.priceNow(c.token1)?.usd];
    const side0 = a0 !== null && p0 !== undefined ? a0 * p0 : null;
    const side1 = a1 !== null && p1 !== undefined ? a1 * p1 : null;
    const liquidity = side0 !== null && side1 !== null ? side0 + side1 : side0 !== null ? side0 * 2 : side1 !== null ? side1 * 2 : null;
    return {
      pair: c.pair,
      dex: pool?.dex ?? c.factory.toLowerCase(),
      token0: t0,
      token1: t1,
      reserves: {
        token0: pool && t0.decimals !== null ? formatUnits(pool.r0, t0.decimals) : null,
        token1: pool && t1.decimals !== null ? formatUnits(pool.r1, t1.decimals) : null,
      },
      liquidityUsd: liquidity === null ? null : round(liquidity, 2),
      liquidityBasis: side0 !== null && side1 !== null ? 'both_sides' : liquidity !== null ? 'one_side_doubled' : null,
      ...(liquidity === null && { unpricedReason: pool ? 'neither token has a price route' : 'reserves not indexed' }),
      createdBlock: String(c.block),
      createdAt: new Date(c.ts * 1000).toISOString(),
      createdTx: c.tx,
    };
  });
  return { pairs, fromBlock: created.length ? created[created.length - 1]!.block : market.head.block };
}
