/**
 * Sandwich detection, methodology `sandwich/v1`: within one block and one pool, a trader's
 * front leg and back leg in opposite directions around at least one victim trading the front
 * leg's direction, in that order. Traders are the transactions' senders (so a router is never
 * taken for an attacker); profit is the back leg's output minus the front leg's input in the
 * same token, valued in USD, net of both legs' gas; a pair of legs that returns less than it paid
 * is a trader's round trip, not a sandwich. Joined on block, never on time.
 */
import { formatUnits, type Address, type Hash } from 'viem';
import { txSenders } from '../data/senders.js';
import type { ConnectedChain } from '../../chain/runtime.js';
import type { Row } from '../../indexer/rows.js';
import type { Market } from '../data/market.js';

export const SANDWICH_METHODOLOGY = 'sandwich/v1 (same block and pool; front and back legs of one sender reversed around >=1 victim in the front direction, the back leg returning more than the front paid; senders from transactions; profit net of gas)';

export interface Sandwich {
  block: number;
  pool: string;
  attacker: Address;
  frontTx: Hash;
  backTx: Hash;
  victims: { address: Address; tx: Hash }[];
  profitToken: string;
  grossProfit: number;
  gasUsd: number | null;
  netProfitUsd: number | null;
}

/** 'buy1' when token1 leaves the pool (token0 paid in), else 'buy0'. */
function direction(s: Row<'swap'>): 'buy0' | 'buy1' {
  return BigInt(s.amount1Out) > 0n ? 'buy1' : 'buy0';
}

/** The back leg returns more of the paid-in token than the front leg paid: the point of a sandwich. */
function profitable(front: Row<'swap'>, back: Row<'swap'>): boolean {
  const xIs0 = direction(front) === 'buy1';
  return BigInt(xIs0 ? back.amount0Out : back.amount1Out) > BigInt(xIs0 ? front.amount0In : front.amount1In);
}

export async function detectSandwiches(chain: ConnectedChain, market: Market, swaps: readonly Row<'swap'>[]): Promise<Sandwich[]> {
  // Candidate groups: three or more swaps on one pool in one block.
  const groups = new Map<string, Row<'swap'>[]>();
  for (const s of swaps) {
    const key = `${s.block}:${s.pair.toLowerCase()}`;
    const list = groups.get(key) ?? [];
    list.push(s);
    groups.set(key, list);
  }
  const candidates = [...groups.values()].filter((g) => g.length >= 3);
  const senders: Map<string, Address> = await txSenders(chain, candidates.flat());

  const found: Sandwich[] = [];
  for (const group of candidates) {
    group.sort((a, b) => a.logIndex - b.logIndex);
    const used = new Set<number>();
    for (let i = 0; i < group.length; i++) {
      const front = group[i]!;
      const attacker = senders.get(front.tx);
      if (!attacker || used.has(i)) continue;
      for (let j = i + 2; j < group.length; j++) {
        const back = group[j]!;
        if (senders.get(back.tx) !== attacker || direction(back) === direction(front) || used.has(j)) continue;
        const victims = group.slice(i + 1, j).filter((v) => senders.get(v.tx) !== attacker && direction(v) === direction(front));
        if (!victims.length || !profitable(front, back)) continue;
        used.add(i).add(j);
        found.push(await price(chain, market, front, back, attacker, victims.map((v) => ({ address: senders.get(v.tx)!, tx: v.tx }))));
        break;
      }
    }
  }
  return found;
}

async function price(chain: ConnectedChain, market: Market, front: Row<'swap'>, back: Row<'swap'>, attacker: Address, victims: Sandwich['victims']): Promise<Sandwich> {
  const pool = market.pools.find((p) => p.pair === front.pair.toLowerCase());
  // The front leg pays token X in; the back leg returns token X: profit is in X.
  const xIs0 = direction(front) === 'buy1';
  const token = pool ? (xIs0 ? pool.token0 : pool.token1) : '';
  const paid = BigInt(xIs0 ? front.amount0In : front.amount1In);
  const got = BigInt(xIs0 ? back.amount0Out : back.amount1Out);
  const decimals = market.decimals(token) ?? 18;
  const grossProfit = Number(formatUnits(got - paid, decimals));
  const usd = market.priceNow(token)?.usd ?? null;
  const nativeUsd = market.priceNow(chain.spec.wrappedNative)?.usd ?? null;
  const receipts = await Promise.all([front.tx, back.tx].map((hash) => chain.client.getTransactionReceipt({ hash })));
  const gasWei = receipts.reduce((sum, r) => sum + r.gasUsed * r.effectiveGasPrice, 0n);
  const gasUsd = nativeUsd === null ? null : Number(formatUnits(gasWei, 18)) * nativeUsd;
  return {
    block: front.block,
    pool: front.pair,
    attacker,
    frontTx: front.tx,
    backTx: back.tx,
    victims,
    profitToken: token,
    grossProfit,
    gasUsd,
    netProfitUsd: usd === null || gasUsd === null ? null : grossProfit * usd - gasUsd,
  };
}
