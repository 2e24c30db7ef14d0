/**
 * One transaction read from its chain: the debugger's view (status, gas, call, decoded logs and,
 * for a revert, the reason the replayed call gives) and the fund-flow trace (the value it moved,
 * then where the recipients sent it next in the index, hop by hop).
 */
import { decodeEventLog, decodeFunctionData, formatEther, formatUnits, getAddress, parseAbi, type Hash, type Hex, type TransactionReceipt } from 'viem';
import type { ConnectedChain } from '../../chain/runtime.js';
import { SibylError } from '../core/errors.js';
import { EVENTS, NAME_BY_TOPIC } from '../../indexer/events.js';
import { rowScore } from '../../indexer/rows.js';
import { round, valueAt, type Market } from '../data/market.js';

export const DEBUGGER_METHODOLOGY = 'tx-debug/v1 (transaction and receipt from the chain node; call decoded against ERC-20 and Uniswap-V2 router ABIs; logs decoded against the indexed event ABIs; a revert replayed with eth_call at the parent block for its reason)';
export const FLOW_METHODOLOGY = 'fund-flow/v1 (native value and ERC-20 Transfer logs of the transaction, then each recipient\'s later indexed transfers of the same token, largest first, hop by hop; USD at market/v1 prices of each transfer\'s block; pools and the zero address end a path)';

const CALL_ABI = parseAbi([
  'function transfer(address to, uint256 amount)',
  'function transferFrom(address from, address to, uint256 amount)',
  'function approve(address spender, uint256 amount)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline)',
  'function removeLiquidity(address tokenA, address tokenB, uint256 liquidity, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline)',
]);
const ZERO = '0x0000000000000000000000000000000000000000';
/** Transfers followed out of each address per hop, largest first. */
const BRANCHES = 5;

/** The chain among `chains` that holds the transaction (the one asked for first). */
export async function findTransaction(chains: readonly ConnectedChain[], hash: Hash) {
  for (const chain of chains) {
    const receipt = await chain.client.getTransactionReceipt({ hash }).catch(() => null);
    if (receipt) return { chain, receipt, tx: await chain.client.getTransaction({ hash }) };
  }
  throw new SibylError('transaction_not_found', `no connected chain (${chains.map((c) => c.name).join(', ')}) holds transaction ${hash}; nothing was charged`);
}

type Found = Awaited<ReturnType<typeof findTransaction>>;

export async function debugTransaction({ chain, receipt, tx }: Found, market: Market | null) {
  const block = await chain.client.getBlock({ blockNumber: receipt.blockNumber });
  const call = decodeCall(tx.input);
  const revert = receipt.status === 'reverted' ? await revertReason(chain, tx, receipt) : null;
  const fee = receipt.gasUsed * receipt.effectiveGasPrice;
  return {
    status: receipt.status,
    ...(revert !== null && { revertReason: revert }),
    from: getAddress(tx.from),
    to: tx.to ? getAddress(tx.to) : null,
    contractCreated: receipt.contractAddress ?? null,
    valueNative: formatEther(tx.value),
    nonce: tx.nonce,
    block: receipt.blockNumber.toString(),
    timestamp: new Date(Number(block.timestamp) * 1000).toISOString(),
    gas: { limit: tx.gas.toString(), used: receipt.gasUsed.toString(), usedPct: round((Number(receipt.gasUsed) / Number(tx.gas)) * 100, 2), effectiveGasPrice: receipt.effectiveGasPrice.toString(), feeNative: formatEther(fee) },
    call,
    logs: receipt.logs.map((log) => decodeLog(log, market)),
  };
}

function decodeCall(input: Hex) {
  if (input === '0x') return { kind: 'native transfer' };
  try {
    const { functionName, args } = decodeFunctionData({ abi: CALL_ABI, data: input });
    return { kind: 'call', selector: input.slice(0, 10), function: functionName, args: (args ?? []).map((a) => (typeof a === 'bigint' ? a.toString() : a)) };
  } catch {
    return { kind: 'call', selector: input.slice(0, 10), function: null, note: 'selector not among the ERC-20 and V2 router functions Sibyl decodes' };
  }
}

function decodeLog(log: TransactionReceipt['logs'][number], market: Market | null) {
  const name = log.topics[0] ? NAME_BY_TOPIC.get(log.topics[0]) : undefined;
  if (!name) return { address: log.address, logIndex: log.logIndex, event: null, topic0: log.topics[0] ?? null };
  try {
    const { args } = decodeEventLog({ abi: [EVENTS[name]], data: log.data, topics: log.topics });
    const symbol = market?.tokens.get(log.address.toLowerCase())?.symbol ?? null;
    return { address: log.address, logIndex: log.logIndex, event: name, ...(symbol && { symbol }), args: Object.fromEntries(Object.entries(args as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v])) };
  } catch {
    return { address: log.address, logIndex: log.logIndex, event: name, args: null };
  }
}

async function revertReason(chain: ConnectedChain, tx: Found['tx'], receipt: TransactionReceipt): Promise<string> {
  try {
    await chain.client.call({ account: tx.from, to: tx.to ?? undefined, data: tx.input, value: tx.value, gas: tx.gas, blockNumber: receipt.blockNumber - 1n });
    return 'the call succeeds when replayed at the parent block: the revert depended on transactions before it in its block';
  } catch (err) {
    const e = err as { shortMessage?: string; details?: string; message?: string };
    return (e.shortMessage ?? e.details ?? e.message ?? 'reverted without a reason').split('\n')[0]!.slice(0, 300);
  }
}

interface Edge {
  hop: number;
  token: string;
  symbol: string | null;
  from: string;
  to: string;
  amount: string;
  usd: number | null;
  block: number;
  tx: string;
  toKind: 'wallet' | 'pool' | 'zero' | 'token';
}

export async function traceFunds({ chain, receipt, tx }: Found, market: Market, hops: number) {
  const pools = new Set(market.pools.map((p) => p.pair));
  const kind = (a: string): Edge['toKind'] => (a === ZERO ? 'zero' : pools.has(a) ? 'pool' : market.tokens.has(a) ? 'token' : 'wallet');
  const usdOf = async (token: string, amount: number, block: number, logIndex: number) => {
    const price = valueAt(await market.timeline(token, 0), rowScore(block, logIndex));
    return price === null ? null : round(amount * price, 2);
  };
  const edges: Edge[] = [];
  const block = Number(receipt.blockNumber);
  if (tx.value > 0n && tx.to) {
    edges.push({ hop: 0, token: 'native', symbol: chain.spec.nativeSymbol, from: tx.from.toLowerCase(), to: tx.to.toLowerCase(), amount: formatEther(tx.value), usd: null, block, tx: receipt.transactionHash, toKind: kind(tx.to.toLowerCase()) });
  }
  for (const log of receipt.logs) {
    if (log.topics[0] !== undefined && NAME_BY_TOPIC.get(log.topics[0]) === 'transfer' && log.topics.length === 3) {
      const { args } = decodeEventLog({ abi: [EVENTS.transfer], data: log.data, topics: log.topics });
      const token = log.address.toLowerCase();
      const decimals = market.decimals(token) ?? 18;
      const amount = formatUnits(args.value, decimals);
      edges.push({ hop: 0, token, symbol: market.tokens.get(token)?.symbol ?? null, from: args.from.toLowerCase(), to: args.to.toLowerCase(), amount, usd: await usdOf(token, Number(amount), block, log.logIndex), block, tx: receipt.transactionHash, toKind: kind(args.to.toLowerCase()) });
    }
  }
  // Follow each wallet that received a token: its later transfers of that token, largest first.
  const later = hops > 0 ? await market.reader.transfers(block + 1, market.head.block) : [];
  let frontier = edges.filter((e) => e.toKind === 'wallet' && e.token !== 'native').map((e) => ({ holder: e.to, token: e.token }));
  const seen = new Set(frontier.map((f) => `${f.holder}:${f.token}`));
  for (let hop = 1; hop <= hops && frontier.length; hop++) {
    const next: typeof frontier = [];
    for (const { holder, token } of frontier) {
      const outs = later.filter((t) => t.from.toLowerCase() === holder && t.token.toLowerCase() === token).sort((a, b) => (BigInt(b.value) > BigInt(a.value) ? 1 : -1)).slice(0, BRANCHES);
      for (const t of outs) {
        const to = t.to.toLowerCase();
        const amount = formatUnits(BigInt(t.value), market.decimals(token) ?? 18);
        edges.push({ hop, token, symbol: market.tokens.get(token)?.symbol ?? null, from: holder, to, amount, usd: await usdOf(token, Number(amount), t.block, t.logIndex), block: t.block, tx: t.tx, toKind: kind(to) });
        if (kind(to) === 'wallet' && !seen.has(`${to}:${token}`)) {
          seen.add(`${to}:${token}`);
          next.push({ holder: to, token });
        }
      }
    }
    frontier = next;
  }
  const endpoints = new Map<string, { address: string; kind: Edge['toKind']; receivedUsd: number }>();
  for (const e of edges) {
    const ep = endpoints.get(e.to) ?? { address: e.to, kind: e.toKind, receivedUsd: 0 };
    ep.receivedUsd = round(ep.receivedUsd + (e.usd ?? 0), 2);
    endpoints.set(e.to, ep);
  }
  return {
    from: getAddress(tx.from),
    block: receipt.blockNumber.toString(),
    status: receipt.status,
    hops,
    edgeCount: edges.length,
    edges,
    largestRecipients: [...endpoints.values()].sort((a, b) => b.receivedUsd - a.receivedUsd).slice(0, 10),
  };
}
