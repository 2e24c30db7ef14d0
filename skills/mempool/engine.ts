/**
 * Mempool watch (`mempool/v1`): what enters a node's transaction pool over a listening window,
 * read through the node's pending-transaction filter (eth_newPendingTransactionFilter), which
 * names each transaction as it is admitted to the pool, before any block holds it. Each is
 * decoded from its calldata alone: V2 router swaps (valued at the index's prices), ERC-20
 * approvals (the spender judged by drainers/v1), contract deployments. Pending sandwiches are
 * found as a bot sends them: one sender's swap on a pool and its swap back a nonce or few later,
 * around another sender's swap the same way whose bid a builder would run between the two.
 */
import { decodeFunctionData, erc20Abi, formatUnits, getAddress, parseAbi, type Address, type Hash, type Hex, type PublicClient } from 'viem';
import type { ConnectedChain } from '../../chain/runtime.js';
import { drainerRecord, type DrainerRecord } from '../approvals/drainers.js';
import { round, type Market, type Pool } from '../data/market.js';

export const MEMPOOL_METHODOLOGY = 'mempool/v1 (the node\'s pending-transaction filter polled every 250 ms over the window; calldata decoded: V2 router swaps valued at the index\'s prices, ERC-20 approve judged by drainers/v1, deployments; pending sandwiches: a sender\'s swap, another sender\'s swap in the same direction on the same pool, the first sender\'s swap back with one of its next 3 nonces, all three entering the pool within 1.5 s, the victim\'s bid not above the front\'s nor below the back\'s)';

const POLL_MS = 250;

/** The Uniswap V2 router swaps (every V2 fork keeps these signatures). */
const ROUTER_ABI = parseAbi([
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapTokensForExactTokens(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapETHForExactTokens(uint256 amountOut, address[] path, address to, uint256 deadline)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapTokensForExactETH(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline)',
  'function swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
]);
const FACTORY_ABI = parseAbi(['function factory() view returns (address)']);

/** A transaction as the pool admitted it. */
export interface PendingTx {
  hash: Hash;
  from: Address;
  to: Address | null;
  input: Hex;
  value: bigint;
  nonce: number;
  /** What the sender bids per gas above the base fee: the builder's ordering key. */
  priorityFee: bigint;
  /** When the filter first named it (ms since epoch), and its place in the order names arrived. */
  seenAt: number;
  arrival: number;
  /** The block that holds it once mined (null: still pending when last read). */
  blockNumber: number | null;
}

/**
 * Listens to the node's pool for `windowMs` (or until `stop` is aborted); every transaction
 * admitted meanwhile, in arrival order.
 */
export async function listenPending(client: PublicClient, windowMs: number, options: { pollMs?: number; stop?: AbortSignal } = {}): Promise<PendingTx[]> {
  const pollMs = options.pollMs ?? POLL_MS;
  const filter = await client.createPendingTransactionFilter();
  const seen = new Map<Hash, number>();
  const deadline = Date.now() + windowMs;
  try {
    for (;;) {
      const hashes = await client.getFilterChanges({ filter });
      const now = Date.now();
      for (const h of hashes) if (!seen.has(h)) seen.set(h, now);
      if (now >= deadline || options.stop?.aborted) break;
      await new Promise((r) => setTimeout(r, Math.min(pollMs, Math.max(0, deadline - now))));
    }
  } finally {
    await client.uninstallFilter({ filter }).catch(() => undefined);
  }
  const hashes = [...seen.keys()];
  const txs = await Promise.all(hashes.map((hash) => client.getTransaction({ hash }).catch(() => null)));
  return txs.flatMap((tx, arrival) => {
    // A transaction dropped from the pool before it could be read is not reported.
    if (!tx) return [];
    const priorityFee = tx.maxPriorityFeePerGas ?? tx.gasPrice ?? 0n;
    return [{ hash: tx.hash, from: getAddress(tx.from), to: tx.to ? getAddress(tx.to) : null, input: tx.input, value: tx.value, nonce: tx.nonce, priorityFee, seenAt: seen.get(tx.hash)!, arrival, blockNumber: tx.blockNumber === null ? null : Number(tx.blockNumber) }];
  });
}

export type Decoded =
  | { kind: 'swap'; router: Address; dex: string; path: Address[]; tokenIn: Address; tokenOut: Address; amountIn: bigint; exactIn: boolean }
  | { kind: 'approve'; token: Address; spender: Address; amount: bigint }
  | { kind: 'deploy' }
  | { kind: 'other' };

/** What a pending transaction does, from its calldata; `routers` maps a router address (lower case) to its DEX id. */
export function decodePending(tx: Pick<PendingTx, 'to' | 'input' | 'value'>, routers: ReadonlyMap<string, string>, wrappedNative: Address): Decoded {
  if (!tx.to) return { kind: 'deploy' };
  const dex = routers.get(tx.to.toLowerCase());
  if (dex) {
    try {
      const call = decodeFunctionData({ abi: ROUTER_ABI, data: tx.input });
      const args = call.args as readonly unknown[];
      const path = (args.find((a) => Array.isArray(a)) as Address[]).map((a) => getAddress(a));
      const name = call.functionName;
      const ethIn = name.startsWith('swapExactETH') || name.startsWith('swapETH');
      // Exact-output swaps bid at most amountInMax (or the value sent): what the sender risks.
      const exactIn = name.startsWith('swapExact');
      const amountIn = ethIn ? tx.value : (args[exactIn ? 0 : 1] as bigint);
      return { kind: 'swap', router: getAddress(tx.to), dex, path, tokenIn: ethIn ? getAddress(wrappedNative) : path[0]!, tokenOut: path[path.length - 1]!, amountIn, exactIn };
    } catch {
      return { kind: 'other' }; // liquidity or another router function
    }
  }
  try {
    const call = decodeFunctionData({ abi: erc20Abi, data: tx.input });
    if (call.functionName === 'approve') return { kind: 'approve', token: getAddress(tx.to), spender: getAddress(call.args[0]), amount: call.args[1] };
  } catch {
    // not an ERC-20 call
  }
  return { kind: 'other' };
}

export interface PendingSwap {
  tx: PendingTx;
  swap: Extract<Decoded, { kind: 'swap' }>;
  /** The first hop's pool (the one a sandwich is played on), when the index knows it. */
  pool: string | null;
  /** Which way the first hop goes: the token put into the pool. */
  side: string;
}

export interface PendingSandwich {
  pool: string;
  attacker: Address;
  victim: Address;
  front: Hash;
  victimTx: Hash;
  back: Hash;
}

/** The order a builder runs pool transactions in: highest priority fee first, then first come. */
export function builderOrder<T extends { tx: Pick<PendingTx, 'priorityFee' | 'arrival'> }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => (a.tx.priorityFee === b.tx.priorityFee ? a.tx.arrival - b.tx.arrival : a.tx.priorityFee > b.tx.priorityFee ? -1 : 1));
}

/**
 * A bot sends both legs of a sandwich at once, as soon as it sees its victim: the legs are the
 * sender's own nonces (the back one of the next few), and the three transactions enter the pool within this span.
 */
export const SANDWICH_SPAN_MS = 1_500;
/** The back leg is one of the sender's next few nonces (a bot's bundle may carry an approval between the legs). */
export const MAX_LEG_GAP = 3;

/**
 * Pending sandwiches among swaps: per pool, a front and a back by one sender (the back one of its
 * next MAX_LEG_GAP nonces, the other way) and another sender's swap the front's way, all three entering the pool within
 * SANDWICH_SPAN_MS (a sender trading a pool back and forth over time is no sandwich), the victim's
 * bid letting a builder run it between the legs: not above the front's (it would run first), not
 * below the back's (it would run last). Equal bids leave the order to the builder, and the order
 * transactions reach a pool is not kept by every node (the embedded one admits a batch in any
 * order), so a tie counts.
 */
export function findPendingSandwiches(swaps: readonly PendingSwap[]): PendingSandwich[] {
  const byPool = new Map<string, PendingSwap[]>();
  for (const s of swaps) if (s.pool) byPool.set(s.pool, [...(byPool.get(s.pool) ?? []), s]);
  const found: PendingSandwich[] = [];
  for (const [pool, rows] of byPool) {
    const used = new Set<Hash>();
    for (const front of builderOrder(rows)) {
      if (used.has(front.tx.hash)) continue;
      const near = (t: PendingSwap) => Math.abs(t.tx.seenAt - front.tx.seenAt) <= SANDWICH_SPAN_MS;
      const back = rows.find((b) => !used.has(b.tx.hash) && b.tx.from === front.tx.from && b.tx.nonce > front.tx.nonce && b.tx.nonce - front.tx.nonce <= MAX_LEG_GAP && b.side !== front.side && near(b));
      if (!back) continue;
      // Of several swaps that could be the victim, one that reached the pool between the legs, else the nearest in time.
      const [lo, hi] = [Math.min(front.tx.arrival, back.tx.arrival), Math.max(front.tx.arrival, back.tx.arrival)];
      const between = (v: PendingSwap) => v.tx.arrival > lo && v.tx.arrival < hi;
      const victim = rows.filter((v) => v.tx.from !== front.tx.from && v.side === front.side && !used.has(v.tx.hash) && near(v)
        && v.tx.priorityFee <= front.tx.priorityFee && v.tx.priorityFee >= back.tx.priorityFee)
        .sort((a, b) => Number(between(b)) - Number(between(a)) || Math.abs(a.tx.seenAt - front.tx.seenAt) - Math.abs(b.tx.seenAt - front.tx.seenAt))[0];
      if (!victim) continue;
      found.push({ pool, attacker: front.tx.from, victim: victim.tx.from, front: front.tx.hash, victimTx: victim.tx.hash, back: back.tx.hash });
      for (const t of [front, victim, back]) used.add(t.tx.hash);
    }
  }
  return found;
}

/** The pool a V2 swap's first hop trades on, from the index. */
export function firstHopPool(pools: readonly Pool[], dex: string, path: readonly Address[]): string | null {
  const [a, b] = [path[0]!.toLowerCase(), path[1]?.toLowerCase()];
  if (!b) return null;
  return pools.find((p) => p.dex === dex && ((p.token0 === a && p.token1 === b) || (p.token0 === b && p.token1 === a)))?.pair ?? null;
}

/** Routers among the transactions' targets: contracts whose factory() is a DEX factory of the chain. */
export async function routersAmong(chain: ConnectedChain, targets: readonly Address[]): Promise<Map<string, string>> {
  const unique = [...new Set(targets.map((t) => t.toLowerCase()))] as Address[];
  const factories = new Map(chain.spec.dexes.map((d) => [d.factory.toLowerCase(), d.id]));
  const reads = unique.length ? await chain.client.multicall({ allowFailure: true, contracts: unique.map((address) => ({ address, abi: FACTORY_ABI, functionName: 'factory' }) as const) }) : [];
  const routers = new Map<string, string>();
  unique.forEach((t, i) => {
    const r = reads[i]!;
    const dex = r.status === 'success' ? factories.get(String(r.result).toLowerCase()) : undefined;
    if (dex) routers.set(t, dex);
  });
  return routers;
}

export interface MempoolReport {
  transactions: number;
  stillPending: number;
  swaps: number;
  approvals: number;
  deployments: number;
  largeSwaps: { tx: Hash; from: Address; dex: string; tokenIn: Address; tokenOut: Address; symbolIn: string | null; symbolOut: string | null; amountIn: string; exactIn: boolean; usd: number; seenAt: string; includedIn: number | null }[];
  drainerApprovals: { tx: Hash; owner: Address; token: Address; symbol: string | null; spender: Address; unlimited: boolean; drained: DrainerRecord['victims']; seenAt: string; includedIn: number | null }[];
  pendingSandwiches: (PendingSandwich & { victimUsd: number | null; seenAt: string; includedIn: number | null })[];
  /** Swaps left unpriced (a token the index cannot price), counted, never valued. */
  unpricedSwaps: number;
}

/** Reads what the window saw: decoded, valued, judged. */
export async function mempoolReport(chain: ConnectedChain, market: Market, txs: readonly PendingTx[], opts: { minUsd: number; head: bigint; token?: Address | undefined }): Promise<MempoolReport> {
  const routers = await routersAmong(chain, txs.flatMap((t) => (t.to ? [t.to] : [])));
  const decoded = txs.map((tx) => ({ tx, d: decodePending(tx, routers, chain.spec.wrappedNative) }));
  const iso = (ms: number) => new Date(ms).toISOString();
  const token = opts.token?.toLowerCase();
  const touches = (addresses: readonly Address[]) => !token || addresses.some((a) => a.toLowerCase() === token);

  const swaps: (PendingSwap & { usd: number | null })[] = [];
  for (const { tx, d } of decoded) {
    if (d.kind !== 'swap' || !touches(d.path)) continue;
    const usd = valueOf(market, d.tokenIn, d.amountIn);
    swaps.push({ tx, swap: d, pool: firstHopPool(market.pools, d.dex, d.path), side: d.path[0]!.toLowerCase(), usd });
  }
  const largeSwaps = swaps.filter((s) => s.usd !== null && s.usd >= opts.minUsd).sort((a, b) => b.usd! - a.usd!).map((s) => ({
    tx: s.tx.hash, from: s.tx.from, dex: s.swap.dex, tokenIn: s.swap.tokenIn, tokenOut: s.swap.tokenOut,
    symbolIn: market.tokens.get(s.swap.tokenIn.toLowerCase())?.symbol ?? null, symbolOut: market.tokens.get(s.swap.tokenOut.toLowerCase())?.symbol ?? null,
    amountIn: formatUnits(s.swap.amountIn, market.decimals(s.swap.tokenIn.toLowerCase()) ?? 18), exactIn: s.swap.exactIn, usd: round(s.usd!, 2), seenAt: iso(s.tx.seenAt), includedIn: s.tx.blockNumber,
  }));

  const approvals = decoded.filter((x): x is { tx: PendingTx; d: Extract<Decoded, { kind: 'approve' }> } => x.d.kind === 'approve' && touches([x.d.token]));
  const records = new Map<string, Promise<DrainerRecord>>();
  for (const { d } of approvals) if (d.amount > 0n && !records.has(d.spender.toLowerCase())) records.set(d.spender.toLowerCase(), drainerRecord(chain, d.spender, opts.head));
  const drainerApprovals: MempoolReport['drainerApprovals'] = [];
  for (const { tx, d } of approvals) {
    const record = d.amount > 0n ? await records.get(d.spender.toLowerCase())! : null;
    if (!record?.drainer) continue;
    drainerApprovals.push({ tx: tx.hash, owner: tx.from, token: d.token, symbol: market.tokens.get(d.token.toLowerCase())?.symbol ?? null, spender: d.spender, unlimited: d.amount >= 2n ** 255n, drained: record.victims, seenAt: iso(tx.seenAt), includedIn: tx.blockNumber });
  }

  const byHash = new Map(swaps.map((s) => [s.tx.hash, s]));
  const pendingSandwiches = findPendingSandwiches(swaps).map((s) => {
    const victim = byHash.get(s.victimTx)!;
    return { ...s, victimUsd: victim.usd === null ? null : round(victim.usd, 2), seenAt: iso(byHash.get(s.front)!.tx.seenAt), includedIn: byHash.get(s.back)!.tx.blockNumber };
  });

  return {
    transactions: txs.length,
    stillPending: txs.filter((t) => t.blockNumber === null).length,
    swaps: swaps.length,
    approvals: approvals.length,
    deployments: decoded.filter((x) => x.d.kind === 'deploy').length,
    largeSwaps,
    drainerApprovals,
    pendingSandwiches,
    unpricedSwaps: swaps.filter((s) => s.usd === null).length,
  };
}

/** "Large" on a chain is large for that chain: at least this quantile of its own swaps of the last day. */
export const LARGE_SWAP_QUANTILE = 0.95;
/** Fewer priced swaps than this in the last day give no scale to measure by: the fixed floor below is used and said. */
export const MIN_SWAPS_FOR_SCALE = 20;
export const FALLBACK_LARGE_SWAP_USD = 10_000;

export interface LargeSwapRule {
  readonly minUsd: number;
  /** How minUsd was chosen: given by the caller, the chain's own quantile, or the fixed floor. */
  readonly basis: 'given' | 'chain-quantile' | 'fixed-floor';
  readonly note: string;
}

/**
 * The USD size from which a pending swap is large on this chain: the caller's `minUsd`, else the
 * LARGE_SWAP_QUANTILE of the chain's own swaps since `fromBlock` (each valued by the side put in,
 * at the index's prices now, as pending swaps are), else, with too few swaps to measure, the floor.
 */
export async function largeSwapRule(market: Market, fromBlock: number, given?: number): Promise<LargeSwapRule> {
  if (given !== undefined) return { minUsd: given, basis: 'given', note: `at least $${given.toLocaleString('en-US')}, as asked` };
  const byPair = new Map(market.pools.map((p) => [p.pair, p]));
  const sizes: number[] = [];
  for (const s of await market.reader.swaps(fromBlock, market.head.block)) {
    const pool = byPair.get(s.pair.toLowerCase());
    if (!pool) continue;
    const [token, amount] = BigInt(s.amount0In) > 0n ? [pool.token0, BigInt(s.amount0In)] : [pool.token1, BigInt(s.amount1In)];
    const usd = valueOf(market, token as Address, amount);
    if (usd !== null && usd > 0) sizes.push(usd);
  }
  if (sizes.length < MIN_SWAPS_FOR_SCALE) {
    return { minUsd: FALLBACK_LARGE_SWAP_USD, basis: 'fixed-floor', note: `at least $${FALLBACK_LARGE_SWAP_USD.toLocaleString('en-US')}: the chain's last day holds ${sizes.length} priced swaps, too few (< ${MIN_SWAPS_FOR_SCALE}) to measure its own scale` };
  }
  sizes.sort((a, b) => a - b);
  const minUsd = round(sizes[Math.min(sizes.length - 1, Math.ceil(LARGE_SWAP_QUANTILE * sizes.length) - 1)]!, 2);
  return { minUsd, basis: 'chain-quantile', note: `at least $${minUsd.toLocaleString('en-US')}, the ${LARGE_SWAP_QUANTILE * 100}th percentile of the chain's ${sizes.length} swaps of the last day` };
}

function valueOf(market: Market, token: Address, amount: bigint): number | null {
  const price = market.priceNow(token.toLowerCase())?.usd;
  const decimals = market.decimals(token.toLowerCase());
  return price === undefined || decimals === null ? null : Number(formatUnits(amount, decimals)) * price;
}
