/**
 * Smart money, methodology `smart-money/v1`: every swap of the index is attributed to the wallet
 * that received its output (never a pool); per wallet and token, buys and sells are valued at
 * the USD price of their block and matched at average cost. A round trip opened and closed in
 * one block is arbitrage or a sandwich, not a view on the token, and does not count. Smart money
 * is a wallet with at least MIN_CLOSED_TRADES closed trades, a win rate of at least MIN_WIN_RATE
 * and realized profit of at least MIN_REALIZED_USD; what such wallets bought and sold in the
 * period is what they are accumulating or distributing now.
 */
import { formatUnits, type Address } from 'viem';
import { rowScore } from '../indexer/rows.js';
import { valueAt, type Market } from './market.js';

export const MIN_CLOSED_TRADES = 2;
export const MIN_WIN_RATE = 0.6;
export const MIN_REALIZED_USD = 1_000;
export const SMART_MONEY_METHODOLOGY = `smart-money/v1 (swaps attributed to their recipient; average-cost matching at block prices; same-block round trips excluded; >= ${MIN_CLOSED_TRADES} closed trades, win rate >= ${MIN_WIN_RATE * 100}%, realized >= $${MIN_REALIZED_USD})`;

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

export async function walletRecords(market: Market, periodFromBlock: number): Promise<Map<string, WalletRecord>> {
  const swaps = await market.reader.swaps(0, market.head.block);
  const poolSet = new Set(market.pools.map((p) => p.pair));
  const records = new Map<string, WalletRecord>();
  const positions = new Map<string, Position>();
  for (const s of swaps) {
    const pool = market.pools.find((p) => p.pair === s.pair.toLowerCase());
    const wallet = s.to.toLowerCase();
    if (!pool || poolSet.has(wallet)) continue;
    const main0 = market.mainPool(pool.token0);
    const main1 = market.mainPool(pool.token1);
    // The traded token is the side whose main pool is this pool quoted by the other side.
    const token = main0?.pool.pair === pool.pair ? pool.token0 : main1?.pool.pair === pool.pair ? pool.token1 : null;
    if (!token) continue;
    const decimals = market.decimals(token);
    const price = valueAt(await market.timeline(token, 0), rowScore(s.block, s.logIndex));
    if (decimals === null || price === null) continue;
    const is0 = token === pool.token0;
    const bought = Number(formatUnits(BigInt(is0 ? s.amount0Out : s.amount1Out), decimals));
    const sold = Number(formatUnits(BigInt(is0 ? s.amount0In : s.amount1In), decimals));
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
      // Closed when less than 1% of the peak remains; same-block round trips are not views.
      if (pos.qty <= pos.peak * 0.01 && s.block !== pos.openedBlock) {
        record.closedTrades++;
        if (pos.realizedThisTrade > 0) record.wins++;
        record.realizedUsd += pos.realizedThisTrade;
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
