/**
 * Smart money, methodology `smart-money/v2`: every trade of the index (executions.ts: a route is
 * one trade of its transaction's sender; USDC, then the wrapped native, is the quote of any pool
 * it is in); per wallet and token, buys and sells are valued at
 * their execution price (quote paid or received, in USD at that moment) and matched at average cost. A wallet that buys and sells a
 * token in one block is running arbitrage or a sandwich, not holding a view: those swaps do not count. Smart money
 * is a wallet with at least MIN_CLOSED_TRADES closed trades, a win rate of at least MIN_WIN_RATE
 * and realized profit of at least MIN_REALIZED_USD; what such wallets bought and sold in the
 * period is what they are accumulating or distributing now.
 */
import type { Address } from 'viem';
import { allExecutions } from '../data/executions.js';
import type { Market } from '../data/market.js';

export const MIN_CLOSED_TRADES = 4;
export const MIN_WIN_RATE = 0.6;
export const MIN_REALIZED_USD = 500;
export const SMART_MONEY_METHODOLOGY = `smart-money/v2 (trades/v1: a multi-hop route is one trade of its transaction's sender; USDC, then the wrapped native, the quote side of any pool it is in; execution prices, average-cost matching; a wallet's swaps of a token in a block where it both buys and sells it (arbitrage, sandwich legs) excluded; >= ${MIN_CLOSED_TRADES} closed trades, win rate >= ${MIN_WIN_RATE * 100}%, realized >= $${MIN_REALIZED_USD})`;

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
  const records = new Map<string, WalletRecord>();
  const positions = new Map<string, Position>();
  for (const { wallet, token, block, bought, sold, priceUsd: price, roundTripBlock } of await allExecutions(market)) {
    // A wallet that buys and sells one token in one block is running arbitrage or a sandwich
    // there (legs may start from inventory): those swaps are not a view and are left out.
    if (roundTripBlock) continue;
    const record = records.get(wallet) ?? { wallet: wallet as Address, closedTrades: 0, wins: 0, winRate: 0, realizedUsd: 0, recent: new Map() };
    records.set(wallet, record);
    const key = `${wallet}:${token}`;
    const pos = positions.get(key) ?? { qty: 0, cost: 0, peak: 0, openedBlock: block, realizedThisTrade: 0 };
    if (pos.qty <= 0) Object.assign(pos, { qty: 0, cost: 0, peak: 0, openedBlock: block, realizedThisTrade: 0 });
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
        if (block !== pos.openedBlock) {
          record.closedTrades++;
          if (pos.realizedThisTrade > 0) record.wins++;
          record.realizedUsd += pos.realizedThisTrade;
        }
        pos.qty = 0;
      }
    }
    positions.set(key, pos);
    if (block >= periodFromBlock) {
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
