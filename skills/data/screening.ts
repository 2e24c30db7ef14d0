/**
 * The screen every list that recommends or ranks tokens goes through (`screen/v1`): the security
 * engine's own buy-and-sell simulation and owner powers (security/trade-risk.ts) for each listed
 * token, at the index checkpoint. A token fails when it is a honeypot, taxes a buy or a sell at
 * SCREEN_MAX_TAX_PCT or more, or has a live owner holding one of SCREEN_POWERS. Lists that
 * recommend (investment ideas, trade plans, gainers) leave failing tokens out and say which;
 * lists that rank keep them with their risks. A token the screen cannot determine is never a
 * silent pass: it carries `screened: false` and a risk saying why.
 *
 * Results are kept per token per checkpoint block in the store (every instance shares them) and
 * in process per Market (one scan per token however many requests ask at once); tokens are
 * scanned a few at a time so a list of hundreds does not flood the node.
 */
import type { Store } from '../../store/store.js';
import type { Market } from './market.js';
import { HONEYPOT_SELL_TAX_PCT } from '../security/simulate.js';
import { HIGH_TAX_PCT, livePowers, tradeRisk } from '../security/trade-risk.js';

export const SCREEN_VERSION = 'screen/v1';
/** A buy or sell tax at or above this fails the screen (the security engine's own threshold). */
export const SCREEN_MAX_TAX_PCT = HIGH_TAX_PCT;
/** Owner powers that fail the screen while an owner can still use them. */
export const SCREEN_POWERS = ['mint', 'blacklist', 'pause'] as const;
/** Tokens scanned at once (each scan is an eth_call, a getCode and an owner() read). */
export const SCREEN_CONCURRENCY = 8;
const CACHE_TTL_MS = 3_600_000;

/** The rules in words, for skill descriptions (no word a planner would take for a security question). */
export const SCREEN_RULES = `a sell that reverts, a buy or sell tax of ${SCREEN_MAX_TAX_PCT}% or more, a live owner that can ${SCREEN_POWERS.join(', ').replace(/, (?=[^,]*$)/, ' or ')}`;

export const SCREEN_METHODOLOGY = `${SCREEN_VERSION} (security/v1 buy-and-sell simulation and bytecode owner powers of each listed token at the index checkpoint; fails on a honeypot (sell reverts, returns nothing or loses >= ${HONEYPOT_SELL_TAX_PCT}%), a buy or sell tax >= ${SCREEN_MAX_TAX_PCT}%, or a live owner that can ${SCREEN_POWERS.join(', ')}; failing tokens are never ideas, gainers or trade plans and carry their risks wherever listed; undetermined tokens carry screened: false; the chain's wrapped native is not simulated, every simulation pays with it)`;

export interface TokenScreen {
  token: string;
  /** Both the simulation and the owner powers were determined. */
  screened: boolean;
  /** A rule fired: never an idea, a gainer or a planned buy. */
  fails: boolean;
  /** The findings that made it fail, in the security engine's words. */
  failures: string[];
  honeypot: boolean | null;
  sellTaxPct: number | null;
  buyTaxPct: number | null;
  livePowers: string[];
  /** The failing findings first, then the security engine's other trading findings, then what could not be determined. */
  risks: string[];
}

/** What a listed row carries from the screen. */
export interface RowScreen {
  screened: boolean;
  flagged: boolean;
  risks: string[];
}

export interface ScreenSummary {
  methodology: string;
  /** Checkpoint block of each chain screened. */
  blocks: Record<string, number>;
  /** What this list does with a failing token. */
  policy: 'excluded' | 'flagged';
  tokensChecked: number;
  unscreened: number;
  failed: number;
  excluded: number;
}

/** Screens of tokens on one or several chains, as one answer gathers them. */
export class Screen {
  private readonly results = new Map<string, TokenScreen>();
  private readonly blocks: Record<string, number> = {};

  constructor(private readonly cache: ScreenCache) {}

  /** Screens `tokens` on `market`'s chain at its checkpoint (tokens already screened are not asked again). */
  async check(market: Market, tokens: Iterable<string>): Promise<this> {
    const chain = market.chain.name;
    this.blocks[chain] = market.head.block;
    let memo = inProcess.get(market);
    if (!memo) inProcess.set(market, (memo = new Map()));
    const wanted = [...new Set([...tokens].map((t) => t.toLowerCase()))].filter((t) => !this.results.has(`${chain}:${t}`));
    await eachBounded(wanted, SCREEN_CONCURRENCY, async (token) => {
      let pending = memo.get(token);
      if (!pending) {
        memo.set(token, (pending = screenOne(market, token, this.cache)));
        void pending.then((o) => { if (!o.settled) memo.delete(token); });
      }
      this.results.set(`${chain}:${token}`, (await pending).screen);
    });
    return this;
  }

  /** A token outside the screened set is reported as not screened, never as clean. */
  of(chain: string, token: string): TokenScreen {
    const t = token.toLowerCase();
    return this.results.get(`${chain}:${t}`) ?? unscreened(t, 'not part of the screened set');
  }

  passes(chain: string, token: string): boolean {
    return !this.of(chain, token).fails;
  }

  /** What a listed row carries. */
  row(chain: string, token: string): RowScreen {
    const s = this.of(chain, token);
    return { screened: s.screened, flagged: s.fails, risks: s.risks };
  }

  summary(policy: ScreenSummary['policy'], excluded = 0): ScreenSummary {
    const all = [...this.results.values()];
    return {
      methodology: SCREEN_METHODOLOGY, blocks: { ...this.blocks }, policy,
      tokensChecked: all.length, unscreened: all.filter((s) => !s.screened).length, failed: all.filter((s) => s.fails).length, excluded,
    };
  }
}

/** One chain's tokens screened at its checkpoint. */
export function screenTokens(market: Market, tokens: Iterable<string>, cache: ScreenCache): Promise<Screen> {
  return new Screen(cache).check(market, tokens);
}

/** One summary for an answer made of several screened parts. */
export function mergeSummaries(policy: ScreenSummary['policy'], parts: readonly ScreenSummary[]): ScreenSummary {
  return {
    methodology: SCREEN_METHODOLOGY, policy,
    blocks: Object.assign({}, ...parts.map((p) => p.blocks)),
    tokensChecked: parts.reduce((n, p) => n + p.tokensChecked, 0),
    unscreened: parts.reduce((n, p) => n + p.unscreened, 0),
    failed: parts.reduce((n, p) => n + p.failed, 0),
    excluded: parts.reduce((n, p) => n + p.excluded, 0),
  };
}

export interface ScreenedList<T> {
  /** The rows shown, each with what the screen found. */
  listed: (T & RowScreen)[];
  /** Failing rows that would have been shown (policy `excluded` only), each with its risks. */
  excluded: (T & RowScreen)[];
  screen: ScreenSummary;
}

/**
 * The first `limit` of `rows` (already in rank order) as a list under a policy: `flagged` keeps
 * every row and marks it; `excluded` leaves failing rows out and fills the list from further
 * down, screening only as deep as it must.
 */
export async function screenList<T>(
  cache: ScreenCache,
  rows: readonly T[],
  locate: (row: T) => { market: Market; token: string },
  limit: number,
  policy: ScreenSummary['policy'],
): Promise<ScreenedList<T>> {
  const screen = new Screen(cache);
  const mark = (r: T): T & RowScreen => {
    const { market, token } = locate(r);
    return { ...r, ...screen.row(market.chain.name, token) };
  };
  const check = async (part: readonly T[]) => {
    const byMarket = new Map<Market, string[]>();
    for (const r of part) {
      const { market, token } = locate(r);
      byMarket.set(market, [...(byMarket.get(market) ?? []), token]);
    }
    await Promise.all([...byMarket].map(([market, tokens]) => screen.check(market, tokens)));
  };
  if (policy === 'flagged') {
    const shown = rows.slice(0, limit);
    await check(shown);
    return { listed: shown.map(mark), excluded: [], screen: screen.summary(policy) };
  }
  const listed: (T & RowScreen)[] = [];
  const excluded: (T & RowScreen)[] = [];
  for (let at = 0; at < rows.length && listed.length < limit; at += limit) {
    const part = rows.slice(at, at + limit);
    await check(part);
    for (const r of part) {
      if (listed.length === limit) break;
      (screen.passes(locate(r).market.chain.name, locate(r).token) ? listed : excluded).push(mark(r));
    }
  }
  return { listed, excluded, screen: screen.summary(policy, excluded.length) };
}

type ScreenCache = Pick<Store, 'get' | 'set'>;

/** A result and whether it holds for the whole checkpoint (a node that did not answer is asked again). */
type Outcome = { screen: TokenScreen; settled: boolean };
const inProcess = new WeakMap<Market, Map<string, Promise<Outcome>>>();

async function screenOne(market: Market, token: string, cache: ScreenCache): Promise<Outcome> {
  const key = `screen:${SCREEN_VERSION}:${market.chain.spec.chainId}:${market.head.block}:${token}`;
  const cached = await cache.get(key);
  if (cached) return { screen: JSON.parse(cached) as TokenScreen, settled: true };
  let risk;
  try {
    risk = await tradeRisk(market, token, BigInt(market.head.block));
  } catch (err) {
    return { screen: unscreened(token, `the node did not answer (${(err as Error).message.split('\n')[0]})`), settled: false };
  }
  const { simulation, powers, findings } = risk;
  const isNative = token === market.chain.spec.wrappedNative.toLowerCase();
  const simulated = simulation.available || isNative;
  const live = livePowers(powers);
  const honeypot = simulation.available ? simulation.honeypot : null;
  const sellTaxPct = simulation.available ? simulation.sellTaxPct : null;
  const buyTaxPct = simulation.available ? simulation.buyTaxPct : null;
  const failing = new Set<string>([
    ...(honeypot === true ? ['honeypot'] : []),
    ...((sellTaxPct ?? 0) >= SCREEN_MAX_TAX_PCT ? ['sell-tax'] : []),
    ...((buyTaxPct ?? 0) >= SCREEN_MAX_TAX_PCT ? ['buy-tax'] : []),
    ...live.filter((p) => (SCREEN_POWERS as readonly string[]).includes(p)).map((p) => `power:${p}`),
  ]);
  const failures = findings.filter((f) => failing.has(f.subject)).map((f) => f.finding);
  // Failing findings first, then the others, in the security engine's own words.
  const ordered = [...failures, ...findings.filter((f) => !failing.has(f.subject)).map((f) => f.finding)];
  const undetermined = [
    ...(!simulated ? [`not screened: no buy-and-sell simulation (${(simulation as { reason: string }).reason})`] : []),
    ...(!powers.available ? [`not screened: owner powers unknown (${powers.reason})`] : []),
  ];
  const screen: TokenScreen = { token, screened: simulated && powers.available, fails: failing.size > 0, failures, honeypot, sellTaxPct, buyTaxPct, livePowers: live, risks: [...ordered, ...undetermined] };
  await cache.set(key, JSON.stringify(screen), CACHE_TTL_MS);
  return { screen, settled: true };
}

function unscreened(token: string, reason: string): TokenScreen {
  return { token, screened: false, fails: false, failures: [], honeypot: null, sellTaxPct: null, buyTaxPct: null, livePowers: [], risks: [`not screened: ${reason}`] };
}

/** Runs `fn` over `items` with at most `limit` at a time. */
async function eachBounded<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
