/**
 * The token security verdict, methodology `security/v2`: what can make a holder lose money,
 * each weighed on its own evidence at the index checkpoint (factors.ts) and scored by one
 * documented rule (verdict.ts): a buy-and-sell simulation (honeypot, taxes), owner powers from
 * the bytecode (and an upgradeable proxy), a rug already pulled, whether one wallet can pull the
 * LP, holder concentration, pool depth, how much and how long it has traded, and the deployer's
 * other tokens. security-scan answers with it; every ranking's screen (../data/screening.ts)
 * reads the same verdict.
 */
import type { Address } from 'viem';
import { formatUnits } from 'viem';
import type { Market, Pool } from '../data/market.js';
import { activity } from './activity.js';
import { origins } from '../data/origins.js';
import { entityBook } from '../data/entities.js';
import { activityFactor, concentrationFactor, depthFactor, deployerHistoryFactor, lpFactor, powersFactor, rugFactor, simulationFactor } from './factors.js';
import { concentration } from './holders.js';
import { poolLiquidity, type PoolLiquidity } from './liquidity.js';
import { ownerPowers, proxySlots } from './powers.js';
import { HONEYPOT_SELL_TAX_PCT, PROBE_USD, simulateTrade } from './simulate.js';
import { judge, VERDICT_RULE, type Factor } from './verdict.js';

// What the screen (../data/screening.ts) reads of the verdict, from this one module.
export { HIGH_TAX_PCT } from './factors.js';
export { FAILING, type Severity } from './verdict.js';
export { livePowers } from './powers.js';

export const SECURITY_METHODOLOGY = `security/v2 (factors at the index checkpoint: eth_call buy-then-sell of ~$${PROBE_USD} through the token's V2 pairs from random addresses with the probe's code overridden in (honeypot when the sell reverts, returns nothing or loses >= ${HONEYPOT_SELL_TAX_PCT}% in transfer, unless the token's paused() is true: an owner's pause); owner powers from PUSH4 selectors in bytecode, owner() and EIP-1967 slots; liquidity, LP holders and rugs from indexed Mint/Burn and LP Transfer logs; holders from replayed Transfer logs; holders and LP holders classified by entities/v1; depth from reserves; trades from Swap logs; deployer = sender of the first mint. Rule: ${VERDICT_RULE})`;

const SIBLINGS_CHECKED = 5;

/** USD depth of a pool: both sides where the token is priced, else twice its priced side, else null. */
function depthUsd(market: Market, pool: Pool): number | null {
  const both = market.liquidityUsd(pool);
  if (both !== null) return both;
  for (const [token, reserve] of [[pool.token0, pool.r0], [pool.token1, pool.r1]] as const) {
    const price = market.priceNow(token)?.usd;
    const decimals = market.decimals(token);
    if (price !== undefined && decimals !== null) return 2 * Number(formatUnits(reserve, decimals)) * price;
  }
  return null;
}

/** Every factor of `token` at the market's checkpoint, the verdict they give, and the evidence behind them. */
export async function securityVerdict(market: Market, token: string) {
  const block = BigInt(market.head.block);
  const t = token.toLowerCase();
  const spec = market.chain.spec;
  const isNative = t === spec.wrappedNative.toLowerCase();
  const isNumeraire = isNative || t === spec.usdc.toLowerCase();
  const pools = market.pools.filter((p) => p.token0 === t || p.token1 === t);
  // Holders and LP holders are classified by the one entity book, built once per checkpoint and
  // before any of this token's own node calls: every verdict of a screen waits on the same build
  // (its code reads a few at a time, read once per node), never adding to their calls in flight.
  const [known] = await Promise.all([origins(market), entityBook(market)]);
  const origin = known.get(t) ?? null;
  // At most three node calls in flight per token (the screen scans SCREEN_CONCURRENCY tokens at once):
  // the simulation with the bytecode and owner(), then totalSupply with the proxy slots.
  const [simulation, powers] = await Promise.all([simulateTrade(market, t, block), ownerPowers(market.chain, t as Address, block)]);
  const [proxy, holders, traded] = await Promise.all([proxySlots(market.chain, t as Address, block), isNumeraire ? null : concentration(market, t), activity(market, t)]);
  // The chain's numeraires are what pools are priced in: their value does not rest on any one pool.
  const liquidity: (PoolLiquidity & { depthUsd: number | null })[] = [];
  for (const p of isNumeraire ? [] : pools) liquidity.push({ ...(await poolLiquidity(market, p, t)), depthUsd: depthUsd(market, p) });
  const siblings = origin && !isNumeraire ? [...known.values()].filter((o) => o.deployer === origin.deployer && o.token !== t && market.tokens.has(o.token)) : [];
  const history = [];
  for (const o of siblings.slice(0, SIBLINGS_CHECKED)) {
    const sim = await simulateTrade(market, o.token, block);
    let rugged = false;
    for (const p of market.pools.filter((x) => x.token0 === o.token || x.token1 === o.token)) {
      const l = await poolLiquidity(market, p, o.token);
      rugged ||= l.pulled && l.provider === o.deployer;
    }
    history.push({ token: o.token, symbol: market.tokens.get(o.token)?.symbol ?? null, block: o.block, honeypot: sim.available ? sim.honeypot : null, rugged });
  }

  const factors: Factor[] = [
    simulationFactor(simulation, market.head.block, isNative),
    powersFactor(powers, proxy, market.head.block),
    rugFactor(liquidity, origin?.deployer ?? null),
    isNumeraire ? notWeighed('lp-lock') : lpFactor(liquidity),
    concentrationFactor(holders ?? { available: false, reason: 'numeraire' }, isNumeraire),
    depthFactor(liquidity.map((l) => ({ pool: l.pool, depthUsd: l.depthUsd })), isNumeraire),
    activityFactor(traded, pools.length, isNumeraire),
    isNumeraire ? notWeighed('deployer-history') : deployerHistoryFactor(origin ? { address: origin.deployer, otherTokens: siblings.length } : null, history),
  ];
  const verdict = judge(factors);
  return {
    ...verdict,
    factors,
    honeypot: simulation.available ? simulation.honeypot : null,
    rugged: factors.some((f) => f.factor === 'liquidity-pulled' && f.severity === 'critical'),
    simulation,
    powers,
    proxy,
    liquidity,
    origin,
    siblings: siblings.length,
    history,
  };
}

export type SecurityVerdict = Awaited<ReturnType<typeof securityVerdict>>;

/** A factor the chain's numeraires (wrapped native, USDC) are not judged on: their value rests on no pool or deployer of the index. */
function notWeighed(name: 'lp-lock' | 'deployer-history'): Factor {
  return { factor: name, available: true, severity: 'none', points: 0, value: null, threshold: 'not applied to the chain\'s numeraires', source: 'chain catalogue (wrapped native, USDC)', finding: 'not weighed: the chain\'s numeraire, what pools are priced in' };
}

/** The security-scan answer: the verdict, every factor, and the evidence each rests on. */
export async function scanToken(market: Market, token: string) {
  const v = await securityVerdict(market, token);
  return {
    riskScore: v.riskScore,
    verdict: v.verdict,
    honeypot: v.honeypot,
    rugged: v.rugged,
    findings: v.findings,
    factors: v.factors,
    undetermined: v.undetermined,
    simulation: v.simulation,
    ownerPowers: v.powers,
    proxy: v.proxy,
    liquidity: v.liquidity.map(roundPool),
    deployer: v.origin
      ? { address: v.origin.deployer, via: v.origin.via, block: v.origin.block, tx: v.origin.tx, otherTokens: v.siblings, checked: v.history }
      : { available: false as const, reason: 'no mint of this token is indexed' },
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const roundPool = ({ depthUsd: _, ...l }: PoolLiquidity & { depthUsd: number | null }) => ({ ...l, addedQuote: round1(l.addedQuote * 1e5) / 1e5, removedQuote: round1(l.removedQuote * 1e5) / 1e5, liquidityUsdNow: l.liquidityUsdNow === null ? null : Math.round(l.liquidityUsdNow * 100) / 100 });
