/**
 * Newest V2 pairs, methodology `latest-pairs/v1`: PairCreated logs of the chain's V2
 * factories read newest-first in block windows (bounded by the lookback on real chains),
 * reserves read at one head block, USD liquidity from `pricing/v1`.
 */
import { formatUnits, type Address, type Hash } from 'viem';
import type { ConnectedChain } from '../chain/runtime.js';
import { pairCreatedEvent, v2PairAbi } from './abis.js';
import { scanLogsBackwards, type LogBounds } from './logs.js';
import { PRICING_METHODOLOGY, usdPrices } from './pricing.js';
import { provenance, type Provenance } from './provenance.js';
import { tokenInfos, type TokenInfo } from './tokens.js';

export const LATEST_PAIRS_METHODOLOGY = `latest-pairs/v1 (PairCreated logs newest-first; reserves at asOf block; USD via ${PRICING_METHODOLOGY})`;

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

interface Created {
  pair: Address;
  token0: Address;
  token1: Address;
  factory: Address;
  blockNumber: bigint;
  logIndex: number;
  tx: Hash;
}

export async function latestPairs(chain: ConnectedChain, limit: number, bounds: LogBounds): Promise<{ pairs: PairRow[] } & Provenance> {
  const head = await chain.client.getBlock();
  const factories = chain.spec.dexes.map((d) => d.factory);
  const created: Created[] = [];
  const from = factories.length
    ? await scanLogsBackwards(chain, { address: factories, event: pairCreatedEvent }, head.number, bounds, (logs) => {
        for (const log of logs) {
          created.push({
            pair: log.args[2], token0: log.args[0], token1: log.args[1], factory: log.address,
            blockNumber: log.blockNumber, logIndex: log.logIndex, tx: log.transactionHash,
          });
        }
        return created.length >= limit;
      })
    : head.number;
  created.sort((a, b) => (a.blockNumber === b.blockNumber ? b.logIndex - a.logIndex : a.blockNumber > b.blockNumber ? -1 : 1));
  const newest = created.slice(0, limit);

  const tokens = [...new Set(newest.flatMap((c) => [c.token0, c.token1]))];
  const blocks = [...new Set(newest.map((c) => c.blockNumber))];
  const [infos, prices, reserves, blockTimes] = await Promise.all([
    tokenInfos(chain, tokens),
    usdPrices(chain, tokens, head.number),
    chain.client.multicall({
      contracts: newest.map((c) => ({ address: c.pair, abi: v2PairAbi, functionName: 'getReserves' }) as const),
      allowFailure: true,
      blockNumber: head.number,
    }),
    Promise.all(blocks.map(async (n) => [n, (await chain.client.getBlock({ blockNumber: n })).timestamp] as const)),
  ]);
  const timeOf = new Map(blockTimes);
  const dexOf = new Map(chain.spec.dexes.map((d) => [d.factory.toLowerCase(), d.id]));

  const pairs = newest.map((c, i): PairRow => {
    const t0 = infos.get(c.token0)!;
    const t1 = infos.get(c.token1)!;
    const r = reserves[i];
    const raw = r?.status === 'success' ? (r.result as readonly [bigint, bigint, number]) : undefined;
    const amount0 = raw && t0.decimals != null ? Number(formatUnits(raw[0], t0.decimals)) : null;
    const amount1 = raw && t1.decimals != null ? Number(formatUnits(raw[1], t1.decimals)) : null;
    const p0 = prices.get(c.token0.toLowerCase() as Address)?.usd;
    const p1 = prices.get(c.token1.toLowerCase() as Address)?.usd;
    const side0 = amount0 !== null && p0 !== undefined ? amount0 * p0 : null;
    const side1 = amount1 !== null && p1 !== undefined ? amount1 * p1 : null;
    const liquidity = side0 !== null && side1 !== null ? side0 + side1 : side0 !== null ? side0 * 2 : side1 !== null ? side1 * 2 : null;
    return {
      pair: c.pair,
      dex: dexOf.get(c.factory.toLowerCase()) ?? c.factory,
      token0: t0,
      token1: t1,
      reserves: {
        token0: raw && t0.decimals != null ? formatUnits(raw[0], t0.decimals) : null,
        token1: raw && t1.decimals != null ? formatUnits(raw[1], t1.decimals) : null,
      },
      liquidityUsd: liquidity === null ? null : Math.round(liquidity * 100) / 100,
      liquidityBasis: side0 !== null && side1 !== null ? 'both_sides' : liquidity !== null ? 'one_side_doubled' : null,
      ...(liquidity === null && { unpricedReason: raw ? 'no_price_route' : 'reserves_unreadable' }),
      createdBlock: c.blockNumber.toString(),
      createdAt: new Date(Number(timeOf.get(c.blockNumber)!) * 1000).toISOString(),
      createdTx: c.tx,
    };
  });

  return { ...provenance(chain, head, LATEST_PAIRS_METHODOLOGY, { from, to: head.number }), pairs };
}
