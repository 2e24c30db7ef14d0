/**
 * What one HTTP request did, gathered while it runs and read when it ends (its log line, its
 * metrics, its rate-limit headers): the request id, the skill sold, its price, the payer, the
 * settlement. The top-level handler creates it; code deeper down reaches it through the async
 * context (entered again after body parsing, which node runs outside it).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import type { Metrics } from './metrics.js';

export interface RequestFacts {
  readonly id: string;
  /** The route as a bounded label (the paid path, the express route), not the raw URL. */
  route?: string;
  skill?: string;
  /** The payment method that paid (x402, credits, quota). */
  method?: string;
  priceUsd?: string;
  payer?: string;
  settlement?: string;
  settlementStatus?: 'settled' | 'pending' | 'failed';
  /** Why a verified payment was given back (nothing charged). */
  released?: string;
  /** The catalogue limit the call counts against, and what is left of it this minute. */
  limit?: { readonly policy: string; readonly perMinute: number };
  remaining?: { readonly calls: number; readonly resetSeconds: number };
}

export interface RequestScope {
  readonly facts: RequestFacts;
  readonly metrics: Metrics | undefined;
}

const storage = new AsyncLocalStorage<RequestScope>();
const byRequest = new WeakMap<IncomingMessage, RequestScope>();

export function openScope(req: IncomingMessage, scope: RequestScope): void {
  byRequest.set(req, scope);
}

export function scopeOf(req: IncomingMessage): RequestScope | undefined {
  return byRequest.get(req);
}

/** Runs `fn` inside the request's scope (express middleware after the body parsers). */
export function enterScope(req: IncomingMessage, fn: () => void): void {
  const scope = byRequest.get(req);
  if (scope) storage.run(scope, fn);
  else fn();
}

/** The scope of the request being served, if any (background work has none). */
export function currentScope(): RequestScope | undefined {
  return storage.getStore();
}

/** Adds facts to the current request's record (a no-op outside a request). */
export function annotate(facts: Partial<Omit<RequestFacts, 'id'>>, req?: IncomingMessage): void {
  const scope = req ? byRequest.get(req) : storage.getStore();
  if (scope) Object.assign(scope.facts, facts);
}

/** The catalogue limit an operation counts against, as the RateLimit-Policy header names it. */
export function limitFacts(operation: { readonly limits?: { readonly id: string; readonly rateLimitPerMinute: number } | undefined }): Pick<RequestFacts, 'limit'> {
  return operation.limits ? { limit: { policy: operation.limits.id, perMinute: operation.limits.rateLimitPerMinute } } : {};
}
