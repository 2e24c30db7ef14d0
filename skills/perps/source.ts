/**
 * The one way engines read the perp venue: an adapter over Hyperliquid's documented HTTP API
 * (`POST {api}/info`) and its stats host's leaderboard (`GET {stats}/Mainnet/leaderboard`), pointed
 * at the embedded venue by default and at the real hosts by configuration. Answers are parsed into
 * the types below (Hyperliquid's number strings as numbers, its milliseconds as seconds). A venue
 * that does not answer, or answers outside its shape, is `upstream_unavailable` (503, nothing
 * charged); one account the venue fails to read is that account's answer (`unreadable`, with the
 * reason), so an engine reports it and never counts it as flat.
 */
import { z } from 'zod';
import { SibylError } from '../core/errors.js';

export interface PerpUrls {
  readonly api: string;
  readonly stats: string;
}

export interface PerpAssetContext {
  readonly coin: string;
  readonly maxLeverage: number;
  readonly markPx: number;
  readonly oraclePx: number;
  /** Hourly funding rate (a fraction). */
  readonly funding: number;
  readonly premium: number;
  /** Open interest in coins. */
  readonly openInterest: number;
  readonly dayNotionalVolume: number;
  readonly prevDayPx: number;
}

export interface PerpPositionRead {
  readonly coin: string;
  /** Signed size in coins: long above zero. */
  readonly szi: number;
  readonly entryPx: number;
  readonly positionValue: number;
  readonly unrealizedPnl: number;
  readonly leverage: number;
  readonly liquidationPx: number | null;
  readonly marginUsed: number;
  /** Funding paid since the position opened (positive = paid out). */
  readonly fundingSinceOpen: number;
}

export type PerpAccountRead =
  | { readonly user: string; readonly readable: true; readonly accountValue: number; readonly totalNotional: number; readonly positions: readonly PerpPositionRead[] }
  | { readonly user: string; readonly readable: false; readonly reason: string };

export interface PerpFillRead {
  readonly coin: string;
  readonly px: number;
  readonly sz: number;
  readonly side: 'B' | 'A';
  /** Unix seconds. */
  readonly time: number;
  readonly dir: string;
  readonly closedPnl: number;
  readonly fee: number;
  /** Took liquidity; false for a resting (maker) order filled. */
  readonly crossed: boolean;
}

export interface PerpLeaderRow {
  readonly user: string;
  readonly accountValue: number;
  readonly windows: Readonly<Record<'day' | 'week' | 'month' | 'allTime', { readonly pnl: number; readonly roi: number; readonly volume: number }>>;
}

export interface PerpSource {
  /** Where it reads, as /healthz and provenance name them. */
  readonly urls: PerpUrls;
  assets(): Promise<PerpAssetContext[]>;
  account(user: string): Promise<PerpAccountRead>;
  /** The account's most recent fills (2,000 at most, newest first), or why the venue could not read them. */
  fills(user: string): Promise<{ readonly user: string; readonly readable: true; readonly fills: readonly PerpFillRead[] } | { readonly user: string; readonly readable: false; readonly reason: string }>;
  funding(coin: string, since: number): Promise<{ time: number; rate: number; premium: number }[]>;
  leaderboard(): Promise<PerpLeaderRow[]>;
}

/** A read the venue has not answered in this long is an outage. */
export const PERP_READ_TIMEOUT_MS = 8_000;
/** Accounts read at once: the venue is asked politely. */
const READS_AT_ONCE = 5;

/** `read` of every item, READS_AT_ONCE at a time, the results in the items' order. */
export async function readEach<T, R>(items: readonly T[], read: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += READS_AT_ONCE) out.push(...(await Promise.all(items.slice(i, i + READS_AT_ONCE).map(read))));
  return out;
}

const num = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const n = Number(v);
  if (!Number.isFinite(n)) ctx.addIssue({ code: 'custom', message: `not a number: ${String(v)}` });
  return n;
});
const metaAndCtxs = z.tuple([
  z.object({ universe: z.array(z.object({ name: z.string(), maxLeverage: z.number() })) }),
  z.array(z.object({ funding: num, openInterest: num, prevDayPx: num, dayNtlVlm: num, premium: num.nullable(), oraclePx: num, markPx: num })),
]);
const clearinghouse = z.object({
  marginSummary: z.object({ accountValue: num, totalNtlPos: num }),
  assetPositions: z.array(z.object({
    position: z.object({
      coin: z.string(), szi: num, entryPx: num, positionValue: num, unrealizedPnl: num, liquidationPx: num.nullable(), marginUsed: num,
      leverage: z.object({ value: z.number() }), cumFunding: z.object({ sinceOpen: num }),
    }),
  })),
});
const fills = z.array(z.object({ coin: z.string(), px: num, sz: num, side: z.enum(['B', 'A']), time: z.number(), dir: z.string(), closedPnl: num, fee: num, crossed: z.boolean() }));
const fundingRows = z.array(z.object({ time: z.number(), fundingRate: num, premium: num }));
const windowName = z.enum(['day', 'week', 'month', 'allTime']);
const leaderboard = z.object({
  leaderboardRows: z.array(z.object({
    ethAddress: z.string(), accountValue: num,
    windowPerformances: z.array(z.tuple([z.string(), z.object({ pnl: num, roi: num, vlm: num })])),
  })),
});

export function hyperliquidSource(urls: PerpUrls, fetchImpl: typeof fetch = fetch, timeoutMs = PERP_READ_TIMEOUT_MS): PerpSource {
  const down = (what: string, why: string) => new SibylError('upstream_unavailable', `the perp venue (${urls.api}) did not answer ${what}: ${why}; nothing was charged`);
  const call = async (url: string, init: RequestInit, what: string): Promise<{ status: number; body: unknown }> => {
    let res: Response;
    try {
      res = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw down(what, (err as Error).name === 'TimeoutError' ? `no answer in ${timeoutMs / 1000} s` : (err as Error).message);
    }
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // a plain-text error body stays text
    }
    return { status: res.status, body };
  };
  const info = async <T>(request: Record<string, unknown>, schema: z.ZodType<T>): Promise<T> => {
    const what = `${String(request.type)}`;
    const { status, body } = await call(`${urls.api}/info`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) }, what);
    if (status !== 200) throw down(what, `HTTP ${status}`);
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw down(what, `an answer outside its documented shape (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`);
    return parsed.data;
  };
  const userCall = (type: string, user: string) => call(`${urls.api}/info`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type, user }) }, type);
  const refused = (status: number, body: unknown) => `the venue answered HTTP ${status}${typeof body === 'string' && body ? `: ${body.slice(0, 120)}` : ''}`;
  return {
    urls,
    async assets() {
      const [meta, ctxs] = await info({ type: 'metaAndAssetCtxs' }, metaAndCtxs);
      return meta.universe.map((u, i) => {
        const c = ctxs[i]!;
        return { coin: u.name, maxLeverage: u.maxLeverage, markPx: c.markPx, oraclePx: c.oraclePx, funding: c.funding, premium: c.premium ?? 0, openInterest: c.openInterest, dayNotionalVolume: c.dayNtlVlm, prevDayPx: c.prevDayPx };
      });
    },
    async account(user) {
      const { status, body } = await userCall('clearinghouseState', user);
      // The venue answered, but not for this account: reported as unread, never as flat.
      if (status !== 200) return { user, readable: false, reason: refused(status, body) };
      const parsed = clearinghouse.safeParse(body);
      if (!parsed.success) return { user, readable: false, reason: `an account state outside the documented shape (${parsed.error.issues[0]?.path.join('.')})` };
      const s = parsed.data;
      return {
        user, readable: true, accountValue: s.marginSummary.accountValue, totalNotional: s.marginSummary.totalNtlPos,
        positions: s.assetPositions.map(({ position: p }) => ({
          coin: p.coin, szi: p.szi, entryPx: p.entryPx, positionValue: p.positionValue, unrealizedPnl: p.unrealizedPnl, leverage: p.leverage.value,
          liquidationPx: p.liquidationPx, marginUsed: p.marginUsed, fundingSinceOpen: p.cumFunding.sinceOpen,
        })),
      };
    },
    async fills(user) {
      const { status, body } = await userCall('userFills', user);
      if (status !== 200) return { user, readable: false, reason: refused(status, body) };
      const parsed = fills.safeParse(body);
      if (!parsed.success) return { user, readable: false, reason: `fills outside the documented shape (${parsed.error.issues[0]?.path.join('.')})` };
      return { user, readable: true, fills: parsed.data.map((f) => ({ ...f, time: Math.floor(f.time / 1000) })) };
    },
    async funding(coin, since) {
      return (await info({ type: 'fundingHistory', coin, startTime: since * 1000 }, fundingRows)).map((r) => ({ time: Math.floor(r.time / 1000), rate: r.fundingRate, premium: r.premium }));
    },
    async leaderboard() {
      const { status, body } = await call(`${urls.stats}/Mainnet/leaderboard`, { method: 'GET' }, 'the leaderboard');
      if (status !== 200) throw down('the leaderboard', `HTTP ${status}`);
      const parsed = leaderboard.safeParse(body);
      if (!parsed.success) throw down('the leaderboard', `an answer outside its shape (${parsed.error.issues[0]?.path.join('.')})`);
      return parsed.data.leaderboardRows.map((r) => {
        const windows = Object.fromEntries(r.windowPerformances.filter(([w]) => windowName.safeParse(w).success).map(([w, p]) => [w, { pnl: p.pnl, roi: p.roi, volume: p.vlm }]));
        const zero = { pnl: 0, roi: 0, volume: 0 };
        return { user: r.ethAddress.toLowerCase(), accountValue: r.accountValue, windows: { day: windows.day ?? zero, week: windows.week ?? zero, month: windows.month ?? zero, allTime: windows.allTime ?? zero } };
      });
    },
  };
}
