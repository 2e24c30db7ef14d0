/**
 * The wrapper-trust board: for each issuer and each token it lists, what backs it and what its
 * owner can do. Reserves are the issuer's latest attestation (shares) against the shares the
 * supply stands for (raw supply x multiplier, so a split never reads as a shortfall), with the
 * attestation's age; mints and burns from the token's Transfer logs from and to zero; the powers the
 * token gives its issuer (mint, burn, pause, blocklist, set the multiplier) and how often they were
 * used; a multiplier that moved later than its peers' (the same underlying's other wrappers) at a
 * corporate action (stock-market.ts finds it); and the impostors: tokens copying a genuine one that no registered issuer lists.
 */
import type { Address } from 'viem';
import { round } from '../data/market.js';
import type { MultiplierChange, PowerUse, SupplyChanges } from './history.js';
import type { ListedStock, StockMarkets } from './stock-market.js';

/** Reserves under this share of the supply's shares are a shortfall (attestations round; transfers settle a little later). */
export const RESERVE_COVERAGE_FLOOR = 0.995;
/** An attestation older than this is stale: issuers attest at least daily. */
export const STALE_ATTESTATION_HOURS = 36;
/** A wrapper applying a corporate action more than this after the first of its peers lags it. */
export const MULTIPLIER_LAG_HOURS = 6;

export const TRUST_FLAGS = ['under-reserved', 'no-attestation', 'stale-attestation', 'multiplier-lag', 'paused', 'blocklisting'] as const;
export type TrustFlag = (typeof TRUST_FLAGS)[number];

export interface TokenTrust {
  readonly chain: string;
  readonly token: string;
  readonly symbol: string;
  readonly underlying: string;
  readonly multiplier: number;
  readonly supplyShares: number;
  readonly reserveShares: number | null;
  /** The shares the supply stood for when the reserves were attested (what they must cover; later creations are attested next). */
  readonly supplySharesAtAttestation: number | null;
  /** Reserves over the supply's shares at the attestation, percent; null without an attestation. */
  readonly coveragePct: number | null;
  readonly attestationAgeHours: number | null;
  readonly mints: { readonly count: number; readonly shares: number };
  readonly burns: { readonly count: number; readonly shares: number };
  readonly powers: { readonly owner: string | null; readonly canMint: true; readonly canBurn: true; readonly canPause: true; readonly canBlocklist: true; readonly canSetMultiplier: true; readonly paused: boolean; readonly pauses: number; readonly blocklistings: number };
  readonly multiplierLag: { readonly hours: number | null; readonly action: string; readonly peer: string } | null;
  readonly flags: TrustFlag[];
}

export interface IssuerTrust {
  readonly chain: string;
  readonly issuer: string;
  readonly name: string;
  readonly tokens: TokenTrust[];
  /** The worst of its tokens: a shortfall or a lag makes the issuer's verdict. */
  readonly verdict: 'sound' | 'watch' | 'unsound';
}

export interface TrustInputs {
  /** Raw units minted and burnt per token (lower-case address), from the tokens' Transfer logs from and to the zero address. */
  readonly minted: ReadonlyMap<string, SupplyChanges>;
  readonly burnt: ReadonlyMap<string, SupplyChanges>;
  readonly powers: PowerUse[];
  /** Per token (lower-case), the supply's shares at its latest attestation's block. */
  readonly attested: ReadonlyMap<string, { block: number; supplyShares: number }>;
}

/** A corporate action a wrapper applied late, or (hours null) has not applied yet: its ratio, and the peer that applied it first. */
export interface MultiplierLag {
  readonly hours: number | null;
  readonly ratio: number;
  readonly action: string;
  readonly peer: string;
}

/**
 * The corporate actions each token applied late: for every multiplier change (an action, by its
 * ratio) seen first at some wrapper of an underlying, each other wrapper of it that existed then
 * and applied the same ratio later than the lag allowance, or has not applied it by `now`.
 */
export function multiplierLags(stocks: readonly (Pick<ListedStock, 'address' | 'underlying' | 'symbol' | 'chain'> & { listedAt: number | null })[], changes: readonly MultiplierChange[], now: number): Map<string, MultiplierLag> {
  const out = new Map<string, MultiplierLag>();
  const byToken = new Map<string, MultiplierChange[]>();
  for (const c of changes) byToken.set(c.token.toLowerCase(), [...(byToken.get(c.token.toLowerCase()) ?? []), c]);
  const ratio = (c: MultiplierChange) => c.to / c.from;
  const sameAction = (a: number, b: number) => Math.abs(a / b - 1) < 0.01;
  for (const [underlying, wrappers] of groupBy(stocks, (s) => s.underlying)) {
    const actions = wrappers.flatMap((w) => (byToken.get(w.address.toLowerCase()) ?? []).map((c) => ({ c, w })));
    actions.sort((a, b) => a.c.effectiveAt - b.c.effectiveAt);
    const seen: { ratio: number; at: number; peer: string }[] = [];
    for (const { c, w } of actions) {
      if (!seen.some((s) => sameAction(s.ratio, ratio(c)) && Math.abs(c.effectiveAt - s.at) < 30 * 86_400)) seen.push({ ratio: ratio(c), at: c.effectiveAt, peer: `${w.symbol} on ${w.chain}` });
    }
    for (const action of seen) {
      for (const w of wrappers) {
        const own = (byToken.get(w.address.toLowerCase()) ?? []).find((c) => sameAction(ratio(c), action.ratio) && c.effectiveAt >= action.at - 86_400);
        // A wrapper first minted after the action took effect has nothing to apply.
        if (w.listedAt === null || w.listedAt > action.at) continue;
        const applied = own !== undefined && own.effectiveAt <= now;
        const lagHours = ((applied ? own.effectiveAt : now) - action.at) / 3600;
        if (lagHours <= MULTIPLIER_LAG_HOURS) continue;
        out.set(w.address.toLowerCase(), { hours: applied ? round(lagHours, 1) : null, ratio: action.ratio, action: `${underlying} x${round(action.ratio, 4)} from ${new Date(action.at * 1000).toISOString()}`, peer: action.peer });
      }
    }
  }
  return out;
}

export function wrapperTrust(markets: StockMarkets, inputs: TrustInputs): { issuers: IssuerTrust[]; impostors: StockMarkets['impostors'] } {
  const powersOf = groupBy(inputs.powers, (p) => p.token.toLowerCase());
  const rows = markets.stocks.map((s): TokenTrust & { issuerAddress: Address; issuerName: string } => {
    const key = s.address.toLowerCase();
    const reserve = s.attestation?.reserveShares ?? null;
    const covered = inputs.attested.get(key)?.supplyShares ?? null;
    const coverage = reserve === null || covered === null ? null : covered === 0 ? (reserve > 0 ? 1 : null) : reserve / covered;
    const age = s.attestation ? (markets.at - s.attestation.attestedAt) / 3600 : null;
    const uses = powersOf.get(key) ?? [];
    const lag = s.lag ? { hours: s.lag.hours, action: s.lag.action, peer: s.lag.peer } : null;
    const shares = (raw: bigint) => (Number(raw) / 10 ** s.decimals) * s.multiplier;
    const flags: TrustFlag[] = [];
    if (coverage !== null && coverage < RESERVE_COVERAGE_FLOOR) flags.push('under-reserved');
    if (!s.attestation) flags.push('no-attestation');
    else if (age! > STALE_ATTESTATION_HOURS) flags.push('stale-attestation');
    if (lag) flags.push('multiplier-lag');
    if (s.paused) flags.push('paused');
    if (uses.some((u) => u.kind === 'blocklisted')) flags.push('blocklisting');
    return {
      issuerAddress: s.issuer.address, issuerName: s.issuer.name,
      chain: s.chain, token: s.address, symbol: s.symbol, underlying: s.underlying, multiplier: s.multiplier,
      supplyShares: round(s.supplyShares, 6), reserveShares: reserve === null ? null : round(reserve, 6), supplySharesAtAttestation: covered === null ? null : round(covered, 6),
      coveragePct: coverage === null ? null : round(coverage * 100, 3), attestationAgeHours: age === null ? null : round(age, 1),
      mints: { count: inputs.minted.get(key)?.count ?? 0, shares: round(shares(inputs.minted.get(key)?.raw ?? 0n), 6) },
      burns: { count: inputs.burnt.get(key)?.count ?? 0, shares: round(shares(inputs.burnt.get(key)?.raw ?? 0n), 6) },
      powers: {
        owner: s.owner, canMint: true, canBurn: true, canPause: true, canBlocklist: true, canSetMultiplier: true, paused: s.paused,
        pauses: uses.filter((u) => u.kind === 'paused').length, blocklistings: uses.filter((u) => u.kind === 'blocklisted').length,
      },
      multiplierLag: lag, flags,
    };
  });
  const issuers: IssuerTrust[] = [];
  for (const [, tokens] of groupBy(rows, (r) => `${r.chain}:${r.issuerAddress}`)) {
    const first = tokens[0]!;
    const worst = tokens.some((t) => t.flags.includes('under-reserved') || t.flags.includes('multiplier-lag')) ? 'unsound'
      : tokens.some((t) => t.flags.length) ? 'watch' : 'sound';
    issuers.push({ chain: first.chain, issuer: first.issuerAddress, name: first.issuerName, verdict: worst, tokens: tokens.map(({ issuerAddress: _a, issuerName: _n, ...t }) => t) });
  }
  const rank = { unsound: 0, watch: 1, sound: 2 } as const;
  return { issuers: issuers.sort((a, b) => rank[a.verdict] - rank[b.verdict]), impostors: markets.impostors };
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
}
