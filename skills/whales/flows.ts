/**
 * Flows over a period from the index, each valued at the USD price of its own moment
 * (`market/v1` timelines): liquidity added to and removed from pools (Mint/Burn, methodology
 * `liquidity-shifts/v1`), and whale activity, every swap and transfer worth at least
 * WHALE_MIN_USD (methodology `whales/v2`; transfers into or out of pools are swap legs and the
 * zero address is minting, so both are left out; traders are transaction senders).
 */
import { formatUnits, type Address, type Hash } from 'viem';
import { rowScore } from '../../indexer/rows.js';
import { valueAt, type Market } from '../data/market.js';
import { txSenders } from '../data/senders.js';
import { linkTrades } from '../data/trades.js';
import { ENTITIES_METHODOLOGY, type EntityBook } from '../data/entities.js';

export const LIQUIDITY_METHODOLOGY = 'liquidity-shifts/v1 (Mint and Burn events per pool, each side valued at the USD price of its block)';
export const WHALE_MIN_USD = 100_000;
/**
 * A whale moves whale-sized value repeatedly, holdings and not only trade flow: such moves in
 * at least WHALE_MIN_BLOCKS blocks, at least one a transfer to another wallet. Entities
 * (skills/data/entities.ts: protocol contracts, issuers, treasuries, exchanges, protocol actors)
 * hand out supply, hold custody or run a protocol: they are not whales.
 */
export const WHALE_MIN_BLOCKS = 2;
export const WHALE_METHODOLOGY = `whales/v2 (swaps and transfers worth >= $${WHALE_MIN_USD.toLocaleString('en-US')} at the price of their block; pool legs and mints excluded; traders are transaction senders; a whale is a plain wallet with such moves in >= ${WHALE_MIN_BLOCKS} blocks, at least one a transfer to another wallet (not a contract); entities excluded by ${ENTITIES_METHODOLOGY})`;

async function usdAt(market: Market, token: string, amountRaw: bigint, score: number, fromBlock: number): Promise<number | null> {
  const decimals = market.decimals(token);
  if (decimals === null) return null;
  const price = valueAt(await market.timeline(token, fromBlock), score);
  return price === null ? null : Number(formatUnits(amountRaw, decimals)) * price;
}

export async function liquidityShifts(market: Market, fromBlock: number) {
  const rows = await market.reader.liquidity(fromBlock, market.head.block);
  const byPool = new Map<string, { pool: string; token0: string; token1: string; addedUsd: number; removedUsd: number; events: number; unpriced: number }>();
  const events = [];
  for (const r of rows) {
    const pool = market.pools.find((p) => p.pair === r.pair.toLowerCase());
    if (!pool) continue;
    const score = rowScore(r.block, r.logIndex);
    const [u0, u1] = await Promise.all([usdAt(market, pool.token0, BigInt(r.amount0), score, fromBlock), usdAt(market, pool.token1, BigInt(r.amount1), score, fromBlock)]);
    const usd = u0 !== null && u1 !== null ? u0 + u1 : null;
    const entry = byPool.get(pool.pair) ?? { pool: pool.pair, token0: market.tokens.get(pool.token0)?.symbol ?? pool.token0, token1: market.tokens.get(pool.token1)?.symbol ?? pool.token1, addedUsd: 0, removedUsd: 0, events: 0, unpriced: 0 };
    entry.events++;
    if (usd === null) entry.unpriced++;
    else if (r.event === 'mint') entry.addedUsd += usd;
    else entry.removedUsd += usd;
    byPool.set(pool.pair, entry);
    events.push({ kind: r.event === 'mint' ? ('added' as const) : ('removed' as const), pool: pool.pair, usd, block: r.block, time: new Date(r.ts * 1000).toISOString(), tx: r.tx });
  }
  const pools = [...byPool.values()].map((p) => ({ ...p, netUsd: p.addedUsd - p.removedUsd }));
  pools.sort((a, b) => Math.abs(b.netUsd) - Math.abs(a.netUsd));
  events.sort((a, b) => (b.usd ?? 0) - (a.usd ?? 0));
  return { pools, largestEvents: events.slice(0, 10), eventCount: events.length };
}

export interface WhaleEvent {
  kind: 'swap' | 'transfer';
  wallet: Address;
  counterparty: Address | null;
  /** What moved: the token a swap paid in (sold), or the token transferred. */
  token: string;
  symbol: string | null;
  /** A swap's other side, what the wallet received; null for a transfer. */
  tokenOut: string | null;
  symbolOut: string | null;
  usd: number;
  block: number;
  time: string;
  tx: Hash;
}

export async function whaleActivity(market: Market, fromBlock: number): Promise<WhaleEvent[]> {
  const [swaps, transfers] = await Promise.all([market.reader.swaps(fromBlock, market.head.block), market.reader.transfers(fromBlock, market.head.block)]);
  const poolSet = new Set(market.pools.map((p) => p.pair));
  const found: Omit<WhaleEvent, 'wallet'>[] = [];
  // One event per trade (skills/data/trades.ts): a multi-hop route is one swap, from what it paid in to what it got out.
  for (const s of linkTrades(swaps, market.pools)) {
    const score = rowScore(s.block, s.logIndex);
    // The side paid in is what the trader committed.
    const [token, raw, tokenOut] = [s.tokenIn, s.amountIn, s.tokenOut];
    const usd = await usdAt(market, token, raw, score, fromBlock);
    if (usd !== null && usd >= WHALE_MIN_USD) {
      found.push({ kind: 'swap', counterparty: s.hops[0]!.pool as Address, token, symbol: market.tokens.get(token)?.symbol ?? null, tokenOut, symbolOut: market.tokens.get(tokenOut)?.symbol ?? null, usd, block: s.block, time: new Date(s.ts * 1000).toISOString(), tx: s.tx });
    }
  }
  const walletOfTransfer = new Map<Hash, Address>();
  for (const t of transfers) {
    const from = t.from.toLowerCase();
    const to = t.to.toLowerCase();
    if (poolSet.has(from) || poolSet.has(to) || /^0x0{40}$/.test(from) || /^0x0{40}$/.test(to)) continue;
    const token = t.token.toLowerCase();
    if (!market.tokens.has(token)) continue;
    const usd = await usdAt(market, token, BigInt(t.value), rowScore(t.block, t.logIndex), fromBlock);
    if (usd !== null && usd >= WHALE_MIN_USD) {
      walletOfTransfer.set(t.tx, from as Address);
      found.push({ kind: 'transfer', counterparty: to as Address, token, symbol: market.tokens.get(token)?.symbol ?? null, tokenOut: null, symbolOut: null, usd, block: t.block, time: new Date(t.ts * 1000).toISOString(), tx: t.tx });
    }
  }
  // Traders are the senders of the transactions.
  const senders = await txSenders(market.chain, found);
  return found
    .map((f) => ({ ...f, wallet: (f.kind === 'transfer' ? walletOfTransfer.get(f.tx) : undefined) ?? senders.get(f.tx)! }))
    .sort((a, b) => b.usd - a.usd);
}

/**
 * Wallets that are whales by the methodology: plain wallets (entities/v1: no contract code, no
 * treasury, issuer, exchange or protocol actor) with whale-size moves in WHALE_MIN_BLOCKS blocks,
 * at least one a transfer to another wallet (a contract on the other side is a deposit into a
 * protocol, not a whale moving its holdings).
 */
export function whaleWallets(events: readonly WhaleEvent[], entities: Pick<EntityBook, 'isPlainWallet' | 'isContract'>): Set<string> {
  const seen = new Map<string, { blocks: Set<number>; toWallets: number }>();
  for (const e of events) {
    const w = seen.get(e.wallet) ?? { blocks: new Set<number>(), toWallets: 0 };
    w.blocks.add(e.block);
    if (e.kind === 'transfer' && e.counterparty && !entities.isContract(e.counterparty)) w.toWallets++;
    seen.set(e.wallet, w);
  }
  return new Set([...seen].filter(([wallet, w]) => w.blocks.size >= WHALE_MIN_BLOCKS && w.toWallets > 0 && entities.isPlainWallet(wallet)).map(([wallet]) => wallet));
}

export const TOKEN_FLOW_METHODOLOGY = 'token-flow/v1 (swaps of the token\'s priced pools: a buy takes the token out of a pool, a sell puts it in; each valued at the token\'s USD price of its block)';

export interface TokenFlow {
  boughtUsd: number;
  soldUsd: number;
  /** Bought minus sold. */
  netUsd: number;
  buys: number;
  sells: number;
}

/** What buyers and sellers of a token did in its priced pools since `fromBlock`. */
export async function tokenFlow(market: Market, token: string, fromBlock: number): Promise<TokenFlow> {
  const flow = { boughtUsd: 0, soldUsd: 0, netUsd: 0, buys: 0, sells: 0 };
  for (const t of await market.trades(token, fromBlock)) {
    if (t.side === 'buy') {
      flow.boughtUsd += t.usd;
      flow.buys++;
    } else {
      flow.soldUsd += t.usd;
      flow.sells++;
    }
  }
  flow.netUsd = flow.boughtUsd - flow.soldUsd;
  return flow;
}
