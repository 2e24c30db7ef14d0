/**
 * The one way engines read market calls: an adapter over the calls feed's paged JSON API
 * (`GET {url}/v1/callers`, `GET {url}/v1/calls`, documented in world/callers/server.ts), pointed at
 * the embedded feed by default and at another service by `CALLS_FEED_URL`. A read pins `until` to
 * the first page's `as_of`, so every page comes from one feed however it grows meanwhile. A feed
 * that does not answer, or answers outside its shape, is `upstream_unavailable` (503, nothing
 * charged).
 */
import { z } from 'zod';
import { SibylError } from '../core/errors.js';

export type CallDirection = 'long' | 'short' | 'hold';
export type CallHorizon = '1d' | '7d' | '30d';
export type AssetClass = 'crypto' | 'equity';

export interface CallerRead {
  readonly id: string;
  readonly sourceType: string;
  readonly label: string;
}

export interface CallRead {
  readonly id: string;
  readonly caller: string;
  readonly asset: string;
  readonly assetClass: AssetClass;
  readonly direction: CallDirection;
  readonly horizon: CallHorizon;
  /** Unix seconds. */
  readonly madeAt: number;
  /** The price the feed quotes at the call (display only: grading reads its own prices). */
  readonly priceAtCall: number;
}

export interface CallsRead {
  readonly calls: readonly CallRead[];
  /** The feed's clock when the first page was read (unix seconds). */
  readonly asOf: number;
  /** More calls matched than CALLS_MAX_PAGES pages hold: the oldest ones are here. */
  readonly truncated: boolean;
}

export interface CallsSource {
  /** Where it reads, as /healthz and provenance name it. */
  readonly url: string;
  callers(): Promise<CallerRead[]>;
  /** Every call made in [since, until] (unix seconds, both optional), oldest first. */
  calls(filter?: { since?: number; until?: number; caller?: string }): Promise<CallsRead>;
}

/** A read the feed has not answered in this long is an outage. */
export const CALLS_READ_TIMEOUT_MS = 8_000;
export const CALLS_PAGE_SIZE = 1_000;
/** At most this many pages are read for one answer (a bound on a runaway feed). */
export const CALLS_MAX_PAGES = 100;

const time = z.string().transform((v, ctx) => {
  const ms = Date.parse(v);
  if (!Number.isFinite(ms)) ctx.addIssue({ code: 'custom', message: `not a time: ${v}` });
  return Math.floor(ms / 1000);
});
const callersBody = z.object({ as_of: time, callers: z.array(z.object({ id: z.string().min(1), source_type: z.string(), label: z.string() })) });
const callsPage = z.object({
  as_of: time,
  page: z.number().int(),
  total: z.number().int().nonnegative(),
  next_page: z.number().int().nullable(),
  calls: z.array(z.object({
    id: z.string().min(1), caller_id: z.string().min(1), asset: z.string().min(1),
    asset_class: z.enum(['crypto', 'equity']), direction: z.enum(['long', 'short', 'hold']), horizon: z.enum(['1d', '7d', '30d']),
    made_at: time, price_at_call: z.number().positive(),
  })),
});

export function callsSource(url: string, fetchImpl: typeof fetch = fetch, timeoutMs = CALLS_READ_TIMEOUT_MS): CallsSource {
  const base = url.replace(/\/+$/, '');
  const down = (what: string, why: string) => new SibylError('upstream_unavailable', `the calls feed (${base}) did not answer ${what}: ${why}; nothing was charged`);
  const get = async <T>(path: string, schema: z.ZodType<T>, what: string): Promise<T> => {
    let res: Response;
    let text: string;
    try {
      res = await fetchImpl(`${base}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
      text = await res.text();
    } catch (err) {
      throw down(what, (err as Error).name === 'TimeoutError' ? `no answer in ${timeoutMs / 1000} s` : (err as Error).message);
    }
    if (res.status !== 200) throw down(what, `HTTP ${res.status}${text ? `: ${text.slice(0, 120)}` : ''}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw down(what, 'an answer that is not JSON');
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw down(what, `an answer outside its documented shape (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`);
    return parsed.data;
  };
  return {
    url: base,
    async callers() {
      const body = await get('/v1/callers', callersBody, 'the callers');
      return body.callers.map((c) => ({ id: c.id, sourceType: c.source_type, label: c.label }));
    },
    async calls(filter = {}) {
      const calls: CallRead[] = [];
      let asOf: number | undefined;
      let page: number | null = 1;
      let pages = 0;
      while (page !== null && pages < CALLS_MAX_PAGES) {
        const q = new URLSearchParams({ page: String(page), page_size: String(CALLS_PAGE_SIZE) });
        if (filter.since !== undefined) q.set('since', String(filter.since));
        const until = asOf === undefined ? filter.until : Math.min(asOf, filter.until ?? asOf);
        if (until !== undefined) q.set('until', String(until));
        if (filter.caller) q.set('caller', filter.caller);
        const body: z.infer<typeof callsPage> = await get(`/v1/calls?${q}`, callsPage, `the calls (page ${page})`);
        if (body.page !== page) throw down(`the calls (page ${page})`, `page ${body.page} instead`);
        asOf ??= body.as_of;
        for (const c of body.calls) {
          calls.push({ id: c.id, caller: c.caller_id, asset: c.asset, assetClass: c.asset_class, direction: c.direction, horizon: c.horizon, madeAt: c.made_at, priceAtCall: c.price_at_call });
        }
        page = body.next_page;
        pages++;
      }
      return { calls, asOf: asOf!, truncated: page !== null };
    },
  };
}
