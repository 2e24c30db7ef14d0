/**
 * Two instances settling with one key each count its nonces on their own (viem's nonceManager
 * reads the chain's pending count and adds what it sent since), so both can sign the same nonce
 * and the node refuses the later one ("nonce too low") after the paid work was done. Such a
 * refusal means nothing was sent: the send is made again with a fresh nonce.
 */
import { BaseError, NonceTooHighError, NonceTooLowError } from 'viem';

/** Sends tried at most this many times while the node refuses the nonce. */
const NONCE_ATTEMPTS = 6;

/** True when the node refused the transaction for its nonce alone (nothing was sent). */
export function isNonceRefusal(err: unknown): boolean {
  const refused = (e: unknown) => e instanceof NonceTooLowError || e instanceof NonceTooHighError || /nonce too (low|high)|replacement transaction underpriced/i.test((e as Error)?.message ?? '');
  return err instanceof BaseError ? !!err.walk(refused) : refused(err);
}

/**
 * Runs `send` and, while the node refuses it for its nonce (another instance used it), runs it
 * again after `forget` drops the local count, so the next run reads the chain's count afresh.
 * Not for "already known": that transaction is in the pool, and sending its calls again would
 * make them fail on chain.
 */
export async function withFreshNonce<T>(send: () => Promise<T>, forget: () => void): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      if (attempt >= NONCE_ATTEMPTS || !isNonceRefusal(err)) throw err;
      forget();
      // Let the other instance's transaction reach the node before reading the count again.
      await new Promise((r) => setTimeout(r, 20 * attempt));
    }
  }
}
