/**
 * Whether an error means the shared store could not be reached (down, reconnecting, or silent
 * past its deadline), wherever it surfaced: a viem error wrapping a settler nonce the store
 * could not hand out is one too.
 */
import { ClientClosedError, ClientOfflineError, ConnectionTimeoutError, SocketClosedUnexpectedlyError } from 'redis';
import { StoreTimeoutError } from './deadline.js';

/**
 * A command lost with its connection: node-redis rejects the commands in flight with the socket's
 * own error (`read ECONNRESET` when Redis is killed), which says nothing about where it came from,
 * so the store wraps it here (store/redis.ts).
 */
export class StoreConnectionError extends Error {
  override readonly name = 'StoreConnectionError';
}

/** A Node socket error (it names the system call): the connection broke, not the command. */
export function isSocketError(err: unknown): boolean {
  return typeof (err as NodeJS.ErrnoException)?.syscall === 'string' && typeof (err as NodeJS.ErrnoException).code === 'string';
}

/** node-redis's errors for a connection that is gone (the client reconnects on its own); their `name` is plain 'Error'. */
const OUTAGES = [ClientClosedError, ClientOfflineError, SocketClosedUnexpectedlyError, ConnectionTimeoutError, StoreConnectionError];

/** Seconds a client is told to wait before trying again while the store is out. */
export const STORE_RETRY_AFTER_SECONDS = 5;

export function isStoreOutage(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 10; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof StoreTimeoutError || OUTAGES.some((outage) => e instanceof outage)) return true;
  }
  return false;
}
