/**
 * Smart money, methodology `smart-money/v1`: every swap of the index is attributed to the wallet
 * that received its output (never a pool); per wallet and token, buys and sells are valued at
 * their execution price (quote paid or received, in USD at that moment) and matched at average cost. A wallet that buys and sells a
 * token in one block is running arbitrage or a sandwich, not holding a view: those swaps do not count. Smart money
 * is a wallet with at least MIN_CLOSED_TRADES closed trades, a win rate of at least MIN_WIN_RATE
 * and realized profit of at least MIN_REALIZED_USD; what such wallets bought and sold in the
 * period is what they are accumulating or distributing now.
 */
import { formatUnits, type Address } from 'viem';
import { rowScore } from '../indexer/rows.js';
import { valueAt, type Market, type Pool } from './market.js';

export const MIN_CLOSED_TRADES = 4;
export const MIN_WIN_RATE = 0.6;
export const MIN_REALIZED_USD = 500;
export const SMART_MONEY_METHODOLOGY = `smart-money/v2 (swaps attributed to their recipient; execution prices, average-cost matching; a wallet's swaps of a token in a block where it both buys and sells it (arbitrage, sandwich legs) excluded; >= ${MIN_CLOSED_TRADES} closed trades, win rate >= ${MIN_WIN_RATE * 100}%, realized >= $${MIN_REALIZED_USD})`;

interface Position {
  qty: number;
  cost: number;
  peak: number;
  openedBlock: number;
  realizedThisTrade: number;
}

export interface WalletRecord {
  wallet: Address;
  closedTrades: number;
  wins: number;
  winRate: number;
  realizedUsd: number;
  recent: Map<string, { boughtUsd: number; soldUsd: number }>;
}

/** One pass per Market (one index checkpoint) and period start: repeated asks between blocks share it. */
const computed = new WeakMap<Market, Map<number, Promise<Map<string, WalletRecord>>>>();

export function walletRecords(market: Market, periodFromBlock: number): Promise<Map<string, WalletRecord>> {
  let perPeriod = computed.get(market);
  if (!perPeriod) computed.set(market, (perPeriod = new Map()));
  let records = perPeriod.get(periodFromBlock);
  if (!records) {
    perPeriod.set(periodFromBlock, (records = computeWalletRecords(market, periodFromBlock)));
    records.catch(() => perPeriod!.delete(periodFromBlock));
  }
  return records;
}

async function computeWalletRecords(market: Market, periodFromBlock: number): Promise<Map<string, WalletRecord>> {
  const swaps = await market.reader.swaps(0, market.head.block);
  const records = new Map<string, WalletRecord>();
  const positions = new Map<string, Position>();
  const pools = new Map(market.pools.map((p) => [p.pair, p]));
  // The traded token is the side whose main pool is quoted by the other side (on any DEX).
  const tradedToken = (pool: Pool): string | null => {
    if (market.mainPool(pool.token0)?.quote === pool.token1) return pool.token0;
    return market.mainPool(pool.token1)?.quote === pool.token0 ? pool.token1 : null;
  };
  // A wallet that buys and sells one token in one block is running arbitrage or a sandwich
  // there (legs may start from inventory): those swaps are not a view and are left out.
  const sides = new Map<string, number>();
  for (const s of swaps) {
    const pool = pools.get(s.pair.toLowerCase());
    const token = pool && tradedToken(pool);
    if (!token) continue;
    const key = `${s.block}:${s.to.toLowerCase()}:${token}`;
    const buys = BigInt(token === pool.token0 ? s.amount0Out : s.amount1Out) > 0n;
    sides.set(key, (sides.get(key) ?? 0) | (buys ? 1 : 2));
  }
  for (const s of swaps) {
    const pool = pools.get(s.pair.toLowerCase());
    const wallet = s.to.toLowerCase();
    if (!pool || pools.has(wallet)) continue;
    const token = tradedToken(pool);
    if (!token || sides.get(`${s.block}:${wallet}:${token}`) === 3) continue;
    const quote = token === pool.token0 ? pool.token1 : pool.token0;
    const [decimals, quoteDecimals] = [market.decimals(token), market.decimals(quote)];
    const quoteUsd = quote === market.chain.spec.usdc.toLowerCase() ? 1 : valueAt(await market.timeline(quote, 0), rowScore(s.block, s.logIndex));
    if (decimals === null || quoteDecimals === null || quoteUsd === null) continue;
    const is0 = token === pool.token0;
    const bought = Number(formatUnits(BigInt(is0 ? s.amount0Out : s.amount1Out), decimals));
    const sold = Number(formatUnits(BigInt(is0 ? s.amount0In : s.amount1In), decimals));
    // The price the wallet really got: quote paid or received per token, fees and impact included.
    const quoteMoved = Number(formatUnits(BigInt(is0 ? (bought > 0 ? s.amount1In : s.amount1Out) : (bought > 0 ? s.amount0In : s.amount0Out)), quoteDecimals));
    const traded = bought > 0 ? bought : sold;
    if (traded <= 0) continue;
    const price = (quoteMoved / traded) * quoteUsd;
    const record = records.get(wallet) ?? { wallet: wallet as Address, closedTrades: 0, wins: 0, winRate: 0, realizedUsd: 0, recent: new Map() };
    records.set(wallet, record);
    const key = `${wallet}:${token}`;
    const pos = positions.get(key) ?? { qty: 0, cost: 0, peak: 0, openedBlock: s.block, realizedThisTrade: 0 };
    if (pos.qty <= 0) Object.assign(pos, { qty: 0, cost: 0, peak: 0, openedBlock: s.block, realizedThisTrade: 0 });
    if (bought > 0) {
      pos.qty += bought;
      pos.cost += bought * price;
      pos.peak = Math.max(pos.peak, pos.qty);
    }
    if (sold > 0 && pos.qty > 0) {
      const matched = Math.min(sold, pos.qty);
      const avg = pos.cost / pos.qty;
      pos.realizedThisTrade += matched * (price - avg);
      pos.cost -= matched * avg;
      pos.qty -= matched;
      // Closed when less than 1% of the peak remains; same-block round trips are not views,
      // but they close the position all the same (no dust carries their profit forward).
      if (pos.qty <= pos.peak * 0.01) {
        if (s.block !== pos.openedBlock) {
          record.closedTrades++;
          if (pos.realizedThisTrade > 0) record.wins++;
          record.realizedUsd += pos.realizedThisTrade;
        }
        pos.qty = 0;
      }
    }
    positions.set(key, pos);
    if (s.block >= periodFromBlock) {
      const r = record.recent.get(token) ?? { boughtUsd: 0, soldUsd: 0 };
      r.boughtUsd += bought * price;
      r.soldUsd += sold * price;
      record.recent.set(token, r);
    }
  }
  for (const r of records.values()) r.winRate = r.closedTrades ? r.wins / r.closedTrades : 0;
  return records;
}

export function isSmartMoney(r: WalletRecord): boolean {
  return r.closedTrades >= MIN_CLOSED_TRADES && r.winRate >= MIN_WIN_RATE && r.realizedUsd >= MIN_REALIZED_USD;
}
