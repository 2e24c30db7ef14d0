/**
 * The settler's nonces when several instances settle with one key. Each instance counting on
 * its own (viem's nonceManager: the chain's pending count plus what it sent since) gives two
 * transactions the same nonce, and the node refuses the later one ("nonce too low") after the
 * paid work was done. Here the count lives in the store, shared by every instance; and a send
 * the node still refuses for its nonce alone (nothing was sent) is made again with a fresh one.
 */
import { BaseError, NonceTooHighError, NonceTooLowError, type Address, type Client, type NonceManager } from 'viem';
import { getTransactionCount } from 'viem/actions';
import type { Store } from '../store/store.js';

/**
 * One nonce sequence per settler key for every instance on the store: a nonce is the larger of
 * the shared counter and the chain's pending count (Store.takeNext), so no two sends, on any
 * instance, get the same one. A nonce whose send failed is reused by this instance's next send,
 * so the chain is not left waiting on a gap.
 */
export function sharedNonceManager(store: Store): NonceManager & { resync(client: Client, address: Address, chainId: number): Promise<void> } {
  const key = (address: Address, chainId: number) => `settler:nonce:${chainId}:${address.toLowerCase()}`;
  const unsent = new Map<string, Set<number>>();
  // Sends asking at the same moment share one read of the chain's count.
  const reading = new Map<string, Promise<number>>();
  const pending = (client: Client, address: Address) => {
    const k = address.toLowerCase();
    let read = reading.get(k);
    if (!read) {
      read = getTransactionCount(client, { address, blockTag: 'pending' }).finally(() => reading.delete(k));
      reading.set(k, read);
    }
    return read;
  };
  // The chain's count only matters where it is ahead of the shared counter (first use, sends
  // made outside Sibyl): read it once per FLOOR_TTL_MS, not before every send, and again at once
  // after a refusal (reset without a nonce). An older floor is never above the counter, so
  // takeNext still hands each nonce out once.
  const floors = new Map<string, { at: number; floor: number }>();
  const floor = async (k: string, client: Client, address: Address) => {
    const known = floors.get(k);
    if (known && Date.now() - known.at < FLOOR_TTL_MS) return known.floor;
    const read = await pending(client, address);
    floors.set(k, { at: Date.now(), floor: read });
    return read;
  };
  return {
    async consume({ address, chainId, client }) {
      const k = key(address, chainId);
      const reusable = unsent.get(k);
      const chainCount = reusable?.size ? await pending(client, address) : await floor(k, client, address);
      for (const n of [...(reusable ?? [])].sort((a, b) => a - b)) {
        reusable!.delete(n);
        if (n >= chainCount) return n; // below the chain's count it was filled after all
      }
      return store.takeNext(k, chainCount);
    },
    async get({ address, chainId, client }) {
      return Math.max(Number((await store.get(key(address, chainId))) ?? 0), await pending(client, address));
    },
    increment() {},
    // viem calls this when a send fails after taking a nonce; without one, to start afresh.
    reset({ address, chainId, nonce }: { address: Address; chainId: number; nonce?: number }) {
      const k = key(address, chainId);
      floors.delete(k);
      if (nonce === undefined) return void unsent.delete(k);
      if (!unsent.has(k)) unsent.set(k, new Set());
      unsent.get(k)!.add(nonce);
    },
    /** Starts the sequence again from the chain's count (the chain lost blocks, or refused a nonce as too high). */
    async resync(client, address, chainId) {
      unsent.delete(key(address, chainId));
      floors.delete(key(address, chainId));
      await store.set(key(address, chainId), String(await pending(client, address)));
    },
  };
}

/** How long a read of the chain's transaction count serves as the floor of the shared counter. */
const FLOOR_TTL_MS = 1_000;

/** Sends tried at most this many times while the node refuses the nonce. */
const NONCE_ATTEMPTS = 6;

/** True when the node refused the transaction for its nonce alone (nothing was sent). */
export function isNonceRefusal(err: unknown): boolean {
  const refused = (e: unknown) => e instanceof NonceTooLowError || e instanceof NonceTooHighError || /nonce too (low|high)|replacement transaction underpriced/i.test((e as Error)?.message ?? '');
  return err instanceof BaseError ? !!err.walk(refused) : refused(err);
}

/**
 * Runs `send` and, while the node refuses it for its nonce (another instance used it), runs it
 * again after `forget` drops what was counted (and, for "too high", starts again from the chain).
 * Not for "already known": that transaction is in the pool, and sending its calls again would
 * make them fail on chain.
 */
export async function withFreshNonce<T>(send: () => Promise<T>, forget: (tooHigh: boolean) => Promise<void>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      if (attempt >= NONCE_ATTEMPTS || !isNonceRefusal(err)) throw err;
      await forget(err instanceof BaseError && !!err.walk((e) => e instanceof NonceTooHighError));
      // Let the other instance's transaction reach the node before reading the count again.
      await new Promise((r) => setTimeout(r, 20 * attempt));
    }
  }
}
