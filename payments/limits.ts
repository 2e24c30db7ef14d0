/**
 * The catalogue's limits on paid work (docs/protocols.md, "Marketplace catalogue and limits"): a rate limit per minute for each service and
 * payer, counted in the shared store so every instance sees the same count (429 with
 * Retry-After), and a response-time target that bounds the work (504). Both refuse before any
 * money moves.
 */
import { SibylError } from '../skills/core/errors.js';
import type { CatalogEntry } from '../skills/core/registry.js';
import type { Store } from '../store/store.js';
import type { PaymentHooks } from './core.js';

const MINUTE_MS = 60_000;

/** The catalogue entry a call counts against, named by its catalogue id. */
export interface Limits extends CatalogEntry {
  readonly id: string;
}

/** Where a caller stands against a limit after a call was counted (the RateLimit header's fields). */
export interface RateLimitState {
  readonly limits: Limits;
  readonly remaining: number;
  readonly resetSeconds: number;
}

export class RateLimiter {
  constructor(private readonly store: Store) {}

  /** Counts one call of `service` by `caller` in this minute; past the limit, `rate_limited`. */
  async take(limits: Limits, caller: string, onCounted?: (state: RateLimitState) => void): Promise<void> {
    const now = Date.now();
    const window = Math.floor(now / MINUTE_MS);
    const used = await this.store.incrBy(`ratelimit:${limits.id}:${caller.toLowerCase()}:${window}`, 1, MINUTE_MS + 5_000);
    const retryAfterSeconds = Math.max(1, Math.ceil(((window + 1) * MINUTE_MS - now) / 1000));
    onCounted?.({ limits, remaining: Math.max(0, limits.rateLimitPerMinute - used), resetSeconds: retryAfterSeconds });
    if (used > limits.rateLimitPerMinute) {
      throw new SibylError('rate_limited', `${limits.id} allows ${limits.rateLimitPerMinute} calls a minute per payer; retry in ${retryAfterSeconds} s; nothing was charged`, { retryAfterSeconds });
    }
  }
}

/** Runs `work`, or fails with `timeout` when it outlasts the target (its signal is aborted then). */
export async function withinTarget<T>(limits: Limits | undefined, work: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  if (!limits) return work(undefined);
  const ms = limits.timeTargetSeconds * 1000;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Rejected before the abort: work that answers on abort must not win the race and be charged.
      reject(new SibylError('timeout', `${limits.id} did not finish within its ${limits.timeTargetSeconds} s target; nothing was charged`));
      controller.abort();
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The catalogue's limits as hooks of the payments core: the rate limit per payer once verified,
 * the time target around the work. `onCounted` hears where the payer stands (response headers).
 */
export function limitHooks(limiter: RateLimiter, onCounted?: (state: RateLimitState) => void): PaymentHooks {
  return {
    onAfterVerify: async ({ operation, payer }) => {
      if (operation.limits) await limiter.take(operation.limits, payer, onCounted);
    },
    aroundWork: ({ operation }, work) => withinTarget(operation.limits, work),
  };
}
