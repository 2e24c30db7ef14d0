/**
 * How long the payment path waits on the chain and on a remote facilitator, and what counts as
 * "could not reach it". The catalogue's shortest time target is 15 s: a payment that cannot be
 * verified is answered 503 well before that, with nothing charged.
 */
import { BaseError, HttpRequestError, TimeoutError } from 'viem';

/** One JSON-RPC call of the payment path (verification reads, gas estimate, send). */
export const PAYMENT_RPC_TIMEOUT_MS = 3_000;
/**
 * A transaction send: longer than a read, since a send that times out may have landed and is
 * then left undecided (pending) rather than refused.
 */
export const PAYMENT_SEND_TIMEOUT_MS = 10_000;
/** A read that failed in transport is tried once more. */
export const PAYMENT_RPC_RETRIES = 1;
/** A whole verification: past it there is no verdict (503), however many reads it took. */
export const VERIFY_DEADLINE_MS = 6_000;

/** The upstream did not answer (refused, reset, timed out): a fault of the link, not of the payment. */
export function isUnreachable(err: unknown): boolean {
  const link = (e: unknown) =>
    e instanceof HttpRequestError || e instanceof TimeoutError ||
    /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|socket hang up|fetch failed|other side closed|took too long/i.test(`${(e as Error)?.message ?? ''} ${((e as { code?: string })?.code) ?? ''}`);
  if (err instanceof BaseError) return !!err.walk(link);
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) if (link(e)) return true;
  return false;
}

/** `work`, or a rejection naming `what` once `ms` have passed. */
export function withDeadline<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} got no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
