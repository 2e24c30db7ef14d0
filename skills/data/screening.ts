/**
 * The screen every list that recommends or ranks tokens goes through (`screen/v2`): the security
 * engine's own verdict (security/scan.ts `securityVerdict`, the one security-scan answers with)
 * for each listed token at the index checkpoint. A token fails when that verdict is high or
 * critical (security/verdict.ts FAILING); its risks are the verdict's findings, worst first, in
 * the same words. Lists that recommend (investment ideas, trade plans, gainers) leave failing
 * tokens out and say which; lists that rank keep them with their risks. A token whose verdict
 * could not be completed is never a silent pass: it carries `screened: false` and a risk per
 * factor that could not be read, saying why.
 *
 * Results are kept per token per checkpoint block in the store (every instance shares them) and
 * in process per Market (one scan per token however many requests ask at once); tokens are
 * scanned a few at a time so a list of hundreds does not flood the node.
 */
import type { Store } from '../../store/store.js';
import type { Market } from './market.js';
import { FAILING, HIGH_TAX_PCT, livePowers, SECURITY_METHODOLOGY, securityVerdict, type Severity } from '../security/scan.js';

export const SCREEN_VERSION = 'screen/v2';
/** A buy or sell tax at or above this is a high factor, so it fails the screen (the security engine's own threshold). */
export const SCREEN_MAX_TAX_PCT = HIGH_TAX_PCT;
/** Tokens scanned at once (each scan simulates a trade, reads the bytecode, owner(), proxy slots and totalSupply; holders are classified by the chain's one entity book). */
export const SCREEN_CONCURRENCY = 8;
const CACHE_TTL_MS = 3_600_000;

/** The rule in words, for skill descriptions (no word a planner would take for a security question). */
export const SCREEN_RULES = `a sell that reverts, a buy or sell tax of ${SCREEN_MAX_TAX_PCT}% or more, a live owner that can mint, blacklist or pause, or several lesser weaknesses together (a pool one wallet controls, a supply in few hands, a thin or untested pool)`;

export const SCREEN_METHODOLOGY = `${SCREEN_VERSION} (the ${SECURITY_METHODOLOGY.split(' ')[0]} verdict of each listed token at the index checkpoint, the same one security-scan answers with; fails when its level is ${FAILING.join(' or ')}; risks are its findings, worst first; failing tokens are never ideas, gainers or trade plans and carry their risks wherever listed; a token with a factor that could not be read carries screened: false and says which)`;

export interface TokenScreen {
  token: string;
  /** Every factor of the verdict was determined. */
  screened: boolean;
  /** The verdict's level (null when no verdict could be given). */
  level: Severity | null;
  riskScore: number | null;
  /** The level is high or critical: never an idea, a gainer or a planned buy. */
  fails: boolean;
  /** The findings that made it fail (its high and critical factors, or all of them when together they reach high), in the security engine's words. */
  failures: string[];
  honeypot: boolean | null;
  sellTaxPct: number | null;
  buyTaxPct: number | null;
  livePowers: string[];
  /** The verdict's findings, worst first, then the factors that could not be determined. */
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
  let v;
  try {
    v = await securityVerdict(market, token);
  } catch (err) {
    return { screen: unscreened(token, `the node did not answer (${(err as Error).message.split('\n')[0]})`), settled: false };
  }
  const severe = v.findings.filter((f) => FAILING.includes(f.severity));
  const screen: TokenScreen = {
    token,
    screened: v.undetermined.length === 0,
    level: v.verdict,
    riskScore: v.riskScore,
    fails: v.fails,
    // Lesser factors that together reach a failing level are all named.
    failures: !v.fails ? [] : (severe.length ? severe : v.findings).map((f) => f.finding),
    honeypot: v.honeypot,
    sellTaxPct: v.simulation.available ? v.simulation.sellTaxPct : null,
    buyTaxPct: v.simulation.available ? v.simulation.buyTaxPct : null,
    livePowers: livePowers(v.powers),
    risks: [...v.findings.map((f) => f.finding), ...v.undetermined.map((u) => `not screened: ${u.factor} not determined (${u.reason})`)],
  };
  await cache.set(key, JSON.stringify(screen), CACHE_TTL_MS);
  return { screen, settled: true };
}

function unscreened(token: string, reason: string): TokenScreen {
  return { token, screened: false, level: null, riskScore: null, fails: false, failures: [], honeypot: null, sellTaxPct: null, buyTaxPct: null, livePowers: [], risks: [`not screened: ${reason}`] };
}

/** Runs `fn` over `items` with at most `limit` at a time. */
async function eachBounded<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
