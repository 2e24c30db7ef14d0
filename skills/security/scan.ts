/**
 * The token security report, methodology `security/v1`: a buy-and-sell simulation (taxes,
 * honeypot), owner powers from bytecode, liquidity removal and lock status per pool, and the
 * deployer's other tokens; each finding adds to a risk score with the reason it was added.
 */
import type { Market } from '../data/market.js';
import { origins } from './deployer.js';
import { poolLiquidity, type PoolLiquidity } from './liquidity.js';
import { HONEYPOT_SELL_TAX_PCT, PROBE_USD, simulateTrade } from './simulate.js';
import { tradeRisk, type Finding } from './trade-risk.js';

export { HIGH_TAX_PCT, type Finding } from './trade-risk.js';

export const SECURITY_METHODOLOGY = `security/v1 (eth_call buy-then-sell of ~$${PROBE_USD} through the token's V2 pairs from random addresses with the probe's code overridden in; honeypot when the sell reverts, returns nothing or loses >= ${HONEYPOT_SELL_TAX_PCT}% in transfer; owner powers from PUSH4 selectors in bytecode and owner(); liquidity from indexed Mint/Burn and LP Transfer logs; deployer = sender of the first mint)`;

const SIBLINGS_CHECKED = 5;

export async function scanToken(market: Market, token: string) {
  const block = BigInt(market.head.block);
  const t = token.toLowerCase();
  const pools = market.pools.filter((p) => p.token0 === t || p.token1 === t);
  const [{ simulation, powers, findings: tradeFindings }, liquidity, known] = await Promise.all([
    tradeRisk(market, t, block),
    Promise.all(pools.map((p) => poolLiquidity(market, p, t))),
    origins(market),
  ]);
  const origin = known.get(t) ?? null;
  const siblings = origin ? [...known.values()].filter((o) => o.deployer === origin.deployer && o.token !== t && market.tokens.has(o.token)) : [];
  const history = await Promise.all(siblings.slice(0, SIBLINGS_CHECKED).map(async (o) => {
    const siblingPools = market.pools.filter((p) => p.token0 === o.token || p.token1 === o.token);
    const [sim, liq] = await Promise.all([simulateTrade(market, o.token, block), Promise.all(siblingPools.map((p) => poolLiquidity(market, p, o.token)))]);
    return { token: o.token, symbol: market.tokens.get(o.token)?.symbol ?? null, block: o.block, honeypot: sim.available ? sim.honeypot : null, rugged: liq.some((l) => l.pulled && l.provider === o.deployer) };
  }));

  // Trading findings (simulation, owner powers) are the screen's own; the rest is liquidity and history.
  const findings: Finding[] = tradeFindings.map(({ subject: _, ...f }) => f);
  const add = (severity: Finding['severity'], points: number, finding: string) => findings.push({ severity, points, finding });
  // A rug: the wallet that deployed the token provided its liquidity and took it back.
  const rugged = liquidity.filter((l) => l.pulled && origin !== null && l.provider === origin.deployer);
  const pulledByOthers = liquidity.filter((l) => l.pulled && !rugged.includes(l));
  if (rugged.length) add('critical', 80, `rug pull: the deployer burned ${round1(100 - (rugged[0]!.providerHoldsPct ?? 0))}% of the LP it minted and ${rugged[0]!.removedPct}% of the liquidity ever added to ${rugged[0]!.pool} is gone`);
  if (pulledByOthers.length) add('medium', 10, `${pulledByOthers[0]!.pool}: its first liquidity provider took most of it back`);
  const unlocked = liquidity.filter((l) => !l.pulled && l.provider && l.lp.burnedPct < 50 && l.lp.largestHolder === l.provider);
  if (unlocked.length) add('medium', 10, `LP not locked: the provider still holds ${unlocked[0]!.lp.largestHolderPct}% of ${unlocked[0]!.pool}'s LP`);
  const badHistory = history.filter((h) => h.rugged || h.honeypot);
  if (badHistory.length) add('high', 20, `the deployer's other tokens include ${badHistory.length} rugged or honeypot token(s)`);

  const score = Math.min(100, findings.reduce((s, f) => s + f.points, 0));
  const verdict: Finding['severity'] = score >= 80 ? 'critical' : score >= 40 ? 'high' : score >= 15 ? 'medium' : 'low';
  return {
    riskScore: score,
    verdict,
    honeypot: simulation.available ? simulation.honeypot : null,
    rugged: rugged.length > 0,
    findings,
    simulation,
    ownerPowers: powers,
    liquidity: liquidity.map(roundPool),
    deployer: origin ? { address: origin.deployer, via: origin.via, block: origin.block, tx: origin.tx, otherTokens: siblings.length, checked: history } : { available: false as const, reason: 'no mint of this token is indexed' },
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const roundPool = (l: PoolLiquidity) => ({ ...l, addedQuote: round1(l.addedQuote * 1e5) / 1e5, removedQuote: round1(l.removedQuote * 1e5) / 1e5, liquidityUsdNow: l.liquidityUsdNow === null ? null : Math.round(l.liquidityUsdNow * 100) / 100 });
