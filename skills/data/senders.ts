/**
 * Who sent a transaction: the trader behind a swap or transfer row (a log only names the
 * contract's `to`). Read from the chain a block at a time and cached by transaction hash,
 * which is safe across reorganisations: a hash commits to its signature, hence its sender.
 */
import type { Address, Hash } from 'viem';
import type { ConnectedChain } from '../../chain/runtime.js';

const MAX_CACHED = 500_000;
const BLOCKS_PER_REQUEST = 16;
const cache = new Map<string, Address>();

export async function txSenders(chain: ConnectedChain, rows: readonly { tx: Hash; block: number }[]): Promise<Map<Hash, Address>> {
  const key = (tx: Hash) => `${chain.spec.chainId}:${tx}`;
  const missing = [...new Set(rows.filter((r) => !cache.has(key(r.tx))).map((r) => r.block))];
  // A few blocks at a time: a client batches concurrent calls into one request, and hundreds of
  // whole blocks in one request outlast its timeout on a busy node.
  for (let i = 0; i < missing.length; i += BLOCKS_PER_REQUEST) {
    await Promise.all(missing.slice(i, i + BLOCKS_PER_REQUEST).map(async (b) => {
      const block = await chain.client.getBlock({ blockNumber: BigInt(b), includeTransactions: true });
      for (const tx of block.transactions) {
        if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!); // oldest first
        cache.set(key(tx.hash), tx.from.toLowerCase() as Address);
      }
    }));
  }
  const out = new Map<Hash, Address>();
  for (const r of rows) {
    const sender = cache.get(key(r.tx));
    if (sender) out.set(r.tx, sender);
  }
  return out;
}
