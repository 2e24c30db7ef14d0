/**
 * Each factor of the security verdict from its evidence (verdict.ts scores them): pure functions,
 * so every threshold is held to its edges by a unit test. Thresholds live here, once.
 */
import { HONEYPOT_SELL_TAX_PCT, PROBE_USD, type Simulation } from './simulate.js';
import { livePowers, type Power, type Powers, type ProxySlots } from './powers.js';
import type { PoolLiquidity } from './liquidity.js';
import type { Concentration } from './holders.js';
import type { Activity } from './activity.js';
import { factor, unavailableFactor, type Factor, type Severity } from './verdict.js';

/** A buy or sell tax at or above this is high. */
export const HIGH_TAX_PCT = 10;
/** A tax at or above this (and below HIGH_TAX_PCT) is low: a cost, not a trap. */
export const LOW_TAX_PCT = 1;
/** One wallet that can withdraw at least this share of a token's pool liquidity can pull it (medium). */
export const PULLABLE_LIQUIDITY_PCT = 50;
/** The largest holder (or the deployer with its first holder) at or above these shares of the supply outside pools. */
export const CONCENTRATED_PCT = 50;
export const DOMINANT_PCT = 90;
/** Fewer holders than this outside pools is concentrated (medium). */
export const FEW_HOLDERS = 10;
/** Pool liquidity below these is thin: high under the first (a price below it is noise, market.ts), medium under the second. */
export const THIN_LIQUIDITY_USD = 10_000;
export const SHALLOW_LIQUIDITY_USD = 50_000;
/** Fewer trades than this in its pools, or first liquidity younger than this, is an unproven market (medium). */
export const FEW_TRADES = 10;
export const YOUNG_HOURS = 24;

/** How bad each owner power is while an owner (or proxy admin) can use it. */
export const POWER_SEVERITY: Readonly<Record<Power | 'upgrade', Severity>> = { mint: 'high', blacklist: 'high', pause: 'high', upgrade: 'high', fees: 'medium', limits: 'low' };
const POWER_WORDS: Readonly<Record<Power | 'upgrade', string>> = { mint: 'mint', blacklist: 'blacklist', pause: 'pause', fees: 'change fees', limits: 'limit transfers', upgrade: 'upgrade its code' };
const RANK: readonly Severity[] = ['critical', 'high', 'medium', 'low'];
const worst = (list: readonly Severity[]): Severity | 'none' => RANK.find((s) => list.includes(s)) ?? 'none';
const usd = (n: number) => `$${Math.round(n).toLocaleString('en-US')}`;
const and = (words: readonly string[]) => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`);

const SIMULATION_THRESHOLD = `sell reverts, returns nothing or loses >= ${HONEYPOT_SELL_TAX_PCT}% in transfer, or the buy reverts: critical; a revert while the token's paused() is true: high; buy or sell tax >= ${HIGH_TAX_PCT}%: high; >= ${LOW_TAX_PCT}%: low`;

export function simulationFactor(simulation: Simulation, block: number, isNative: boolean): Factor {
  const source = `eth_call buy-then-sell of ~$${PROBE_USD} through the token's V2 pairs at block ${block}`;
  const base = { factor: 'sell-simulation' as const, threshold: SIMULATION_THRESHOLD, source, unit: '%' };
  if (isNative) return factor({ ...base, severity: 'none', value: null, finding: 'not simulated: the wrapped native is what the probe pays with' });
  if (!simulation.available) return unavailableFactor('sell-simulation', SIMULATION_THRESHOLD, source, simulation.reason);
  const evidence = { buyTaxPct: simulation.buyTaxPct, sellTaxPct: simulation.sellTaxPct, roundTripLossPct: simulation.roundTripLossPct, buyReverted: simulation.buyReverted, sellReverted: simulation.sellReverted };
  const value = simulation.sellReverted ? 100 : simulation.sellTaxPct;
  if (simulation.paused) return factor({ ...base, severity: 'high', value, evidence: { ...evidence, paused: true }, finding: `transfers are paused by the token's owner (paused() is true): nothing can be bought or sold until it unpauses` });
  if (simulation.buyReverted) return factor({ ...base, severity: 'critical', value, evidence, finding: 'buying reverts: the token cannot be bought through its pools' });
  if (simulation.honeypot) return factor({ ...base, severity: 'critical', value, evidence, finding: simulation.sellReverted ? 'honeypot: selling reverts' : `honeypot: a sell delivers ${simulation.sellTaxPct}% less than sent` });
  const taxes = ([['sell', simulation.sellTaxPct ?? 0], ['buy', simulation.buyTaxPct ?? 0]] as const).filter(([, pct]) => pct >= LOW_TAX_PCT);
  if (!taxes.length) return factor({ ...base, severity: 'none', value, evidence, finding: `a $${PROBE_USD} buy and sell went through untaxed` });
  const severity: Severity = taxes.some(([, pct]) => pct >= HIGH_TAX_PCT) ? 'high' : 'low';
  return factor({ ...base, severity, value, evidence, finding: taxes.map(([side, pct]) => `${side} tax ${pct}%`).join(', ') });
}

const POWERS_THRESHOLD = `a live owner (not renounced) that can mint, blacklist or pause, or an upgradeable proxy: high; change fees: medium; limit transfers: low`;

export function powersFactor(powers: Powers, proxy: ProxySlots | null, block: number): Factor {
  const source = `PUSH4 selectors in the bytecode, owner() and the EIP-1967 slots at block ${block}`;
  if (!powers.available) return unavailableFactor('owner-powers', POWERS_THRESHOLD, source, powers.reason);
  const live: (Power | 'upgrade')[] = [...livePowers(powers)];
  if (proxy?.implementation) live.push('upgrade');
  const evidence = { owner: powers.owner, renounced: powers.renounced, functions: powers.functions, proxy };
  const base = { factor: 'owner-powers' as const, threshold: POWERS_THRESHOLD, source, value: live, evidence };
  if (!live.length) {
    const why = powers.powers.length && powers.renounced ? `ownership renounced (its code has ${and(powers.powers)})` : 'no owner power in its bytecode';
    return factor({ ...base, severity: 'none', finding: why });
  }
  const parts = [
    ...(live.some((p) => p !== 'upgrade') ? [`owner can ${and(live.filter((p) => p !== 'upgrade').map((p) => POWER_WORDS[p]))} (${powers.functions.join(', ')})`] : []),
    ...(proxy?.implementation ? [`upgradeable proxy: implementation ${proxy.implementation} can be replaced${proxy.admin ? ` by ${proxy.admin}` : ''}`] : []),
  ];
  return factor({ ...base, severity: worst(live.map((p) => POWER_SEVERITY[p])), finding: parts.join('; ') });
}

const RUG_THRESHOLD = 'the deployer burned most of the LP it minted and at least half of the liquidity ever added is gone: critical';
const LIQUIDITY_SOURCE = 'Mint, Burn and LP Transfer logs of each pair in the index';

/** A rug already pulled: the deployer provided a pool's liquidity and took it back. */
export function rugFactor(pools: readonly PoolLiquidity[], deployer: string | null): Factor {
  const base = { factor: 'liquidity-pulled' as const, threshold: RUG_THRESHOLD, source: LIQUIDITY_SOURCE };
  const pulled = pools.filter((l) => l.pulled);
  const rugged = pulled.filter((l) => deployer !== null && l.provider === deployer);
  if (rugged.length) {
    const r = rugged[0]!;
    return factor({ ...base, severity: 'critical', value: rugged.map((l) => l.pool), evidence: { deployer }, finding: `rug pull: the deployer burned ${Math.round((100 - (r.providerHoldsPct ?? 0)) * 10) / 10}% of the LP it minted and ${r.removedPct}% of the liquidity ever added to ${r.pool} is gone` });
  }
  if (deployer === null && pulled.length) return unavailableFactor('liquidity-pulled', RUG_THRESHOLD, LIQUIDITY_SOURCE, `the first provider of ${pulled[0]!.pool} took its liquidity back, and no mint of this token is indexed to tell whether it was the deployer`);
  return factor({ ...base, severity: 'none', value: [], finding: pulled.length ? `liquidity taken back from ${pulled.map((l) => l.pool).join(', ')} by its first provider, not the deployer` : 'no liquidity taken back by its deployer' });
}

const LP_THRESHOLD = `one wallet can withdraw >= ${PULLABLE_LIQUIDITY_PCT}% of the token's pool liquidity (LP neither burned nor held by a contract): medium`;
const LP_SOURCE = 'LP token balances replayed from the indexed Transfer logs of each pair; pool USD liquidity from its reserves at the checkpoint';

/**
 * Can the liquidity be pulled: the share of the token's pool liquidity (by USD) that the single
 * largest wallet holding LP can withdraw. LP burned or held by a contract (a locker) is not a
 * wallet's to withdraw at will.
 */
export function lpFactor(pools: readonly (PoolLiquidity & { depthUsd: number | null })[]): Factor {
  const base = { factor: 'lp-lock' as const, threshold: LP_THRESHOLD, source: LP_SOURCE, unit: '%' };
  const held = pools.filter((l) => l.lp.supply !== '0');
  if (!pools.length) return unavailableFactor('lp-lock', LP_THRESHOLD, LP_SOURCE, 'no pool of this token is indexed');
  if (!held.length) return unavailableFactor('lp-lock', LP_THRESHOLD, LP_SOURCE, 'no LP token holder of its pools is indexed');
  const totalUsd = held.reduce((s, l) => s + (l.depthUsd ?? 0), 0);
  // Without USD figures every pool weighs the same.
  const weight = (l: (typeof held)[number]) => (totalUsd > 0 ? (l.depthUsd ?? 0) / totalUsd : 1 / held.length);
  const byWallet = new Map<string, number>();
  for (const l of held) if (l.lp.largestWallet) byWallet.set(l.lp.largestWallet, (byWallet.get(l.lp.largestWallet) ?? 0) + weight(l) * l.lp.largestWalletPct);
  const [wallet, share] = [...byWallet].sort((a, b) => b[1] - a[1])[0] ?? [null, 0];
  const pct = Math.round(share * 100) / 100;
  const main = [...held].sort((a, b) => weight(b) - weight(a))[0]!;
  const lock = `${main.lp.burnedPct}% of ${main.pool}'s LP burned, ${main.lp.contractHeldPct}% held by contracts`;
  const evidence = {
    wallet, totalLiquidityUsd: totalUsd > 0 ? Math.round(totalUsd * 100) / 100 : null,
    pools: held.map((l) => ({ pool: l.pool, liquidityUsd: l.depthUsd === null ? null : Math.round(l.depthUsd * 100) / 100, largestWallet: l.lp.largestWallet, largestWalletPct: l.lp.largestWalletPct, burnedPct: l.lp.burnedPct, contractHeldPct: l.lp.contractHeldPct })),
  };
  const of = totalUsd > 0 ? `the token's ${usd(totalUsd)} of pool liquidity` : 'its pools\' liquidity';
  if (wallet && pct >= PULLABLE_LIQUIDITY_PCT) {
    const only = held.length === 1 ? 'its only pool' : main.pool;
    const inMain = main.lp.largestWallet === wallet ? `, holding ${main.lp.largestWalletPct}% of ${only}'s LP` : '';
    return factor({ ...base, severity: 'medium', value: pct, evidence, finding: `LP can be pulled: one wallet (${wallet}) can withdraw ${pct}% of ${of}${inMain}; not locked (${lock})` });
  }
  return factor({ ...base, severity: 'none', value: pct, evidence, finding: `LP cannot be pulled by one wallet: none can withdraw more than ${pct}% of ${of} (${lock})` });
}

const CONCENTRATION_THRESHOLD = `the largest holder weighed (a wallet or an issuer; treasuries, exchanges and protocol actors are set apart as holding for others, entities/v1) >= ${DOMINANT_PCT}% of the supply outside pools, burn addresses and contracts: high; >= ${CONCENTRATED_PCT}%, or fewer than ${FEW_HOLDERS} holders: medium`;
const CONCENTRATION_SOURCE = 'balances replayed from the indexed Transfer logs, matched to totalSupply() at the checkpoint; holders classified by entities/v1 (code and behaviour on chain)';

export function concentrationFactor(c: Concentration, isNumeraire: boolean): Factor {
  const base = { factor: 'holder-concentration' as const, threshold: CONCENTRATION_THRESHOLD, source: CONCENTRATION_SOURCE, unit: '%' };
  if (isNumeraire) return factor({ ...base, severity: 'none', value: null, finding: 'not weighed: the chain\'s numeraire, held across the whole chain' });
  if (!c.available) return unavailableFactor('holder-concentration', CONCENTRATION_THRESHOLD, CONCENTRATION_SOURCE, c.reason);
  const top = c.top[0];
  const value = top?.pct ?? 0;
  const evidence = { holderCount: c.holderCount, top: c.top, setApart: c.setApart, circulatingPct: c.circulatingPct, excluded: c.excluded };
  const who = top ? `the largest holder (${top.address}) has ${top.pct}%` : 'no holder weighed has any';
  // A reserve or a custody is named beside the figure, so a reader sees where the rest of the supply sits.
  const reserve = c.setApart[0];
  const apart = reserve ? `; set apart as held for others: the ${reserve.kind} ${reserve.address} ${reserve.pct}%${c.setApart.length > 1 ? ` and ${c.setApart.length - 1} more` : ''}` : '';
  const spread = `${who} of the supply outside pools (${c.holderCount} holder${c.holderCount === 1 ? '' : 's'}${c.top.length > 1 ? `; next ${c.top.slice(1, 3).map((h) => `${h.pct}%`).join(', ')}` : ''})${apart}`;
  const severity: Severity | 'none' = value >= DOMINANT_PCT ? 'high' : value >= CONCENTRATED_PCT || c.holderCount < FEW_HOLDERS ? 'medium' : 'none';
  return factor({ ...base, severity, value, evidence, finding: severity === 'none' ? `holders spread: ${spread}` : `holders concentrated: ${spread}` });
}

const DEPTH_THRESHOLD = `pool liquidity below ${usd(THIN_LIQUIDITY_USD)}: high; below ${usd(SHALLOW_LIQUIDITY_USD)}: medium`;
const DEPTH_SOURCE = 'reserves of the token\'s pools at the checkpoint, both sides at market/v1 prices (twice the quote side where the token itself has no price)';

export function depthFactor(pools: readonly { pool: string; depthUsd: number | null }[], isNumeraire: boolean): Factor {
  const base = { factor: 'liquidity-depth' as const, threshold: DEPTH_THRESHOLD, source: DEPTH_SOURCE, unit: 'USD' };
  if (isNumeraire) return factor({ ...base, severity: 'none', value: null, finding: 'not weighed: the chain\'s numeraire, what pools are priced in' });
  if (!pools.length) return unavailableFactor('liquidity-depth', DEPTH_THRESHOLD, DEPTH_SOURCE, 'no pool of this token is indexed');
  const priced = pools.filter((p) => p.depthUsd !== null);
  if (!priced.length) return unavailableFactor('liquidity-depth', DEPTH_THRESHOLD, DEPTH_SOURCE, 'none of its pools has a USD price');
  const total = priced.reduce((s, p) => s + p.depthUsd!, 0);
  const value = Math.round(total * 100) / 100;
  const where = `${priced.length} pool${priced.length === 1 ? '' : 's'}`;
  const severity: Severity | 'none' = total < THIN_LIQUIDITY_USD ? 'high' : total < SHALLOW_LIQUIDITY_USD ? 'medium' : 'none';
  return factor({ ...base, severity, value, evidence: { pools: priced.map((p) => ({ pool: p.pool, liquidityUsd: Math.round(p.depthUsd! * 100) / 100 })) }, finding: `${severity === 'none' ? 'liquidity' : 'thin liquidity:'} ${usd(total)} across ${where}` });
}

const ACTIVITY_THRESHOLD = `fewer than ${FEW_TRADES} trades in its pools, or first liquidity less than ${YOUNG_HOURS} h before the checkpoint: medium`;
const ACTIVITY_SOURCE = 'Swap events of the token\'s pools and its oldest pool\'s first Sync in the index';

export function activityFactor(a: Activity, poolCount: number, isNumeraire: boolean): Factor {
  const base = { factor: 'trading-activity' as const, threshold: ACTIVITY_THRESHOLD, source: ACTIVITY_SOURCE, unit: 'trades' };
  if (isNumeraire) return factor({ ...base, severity: 'none', value: null, finding: 'not weighed: the chain\'s numeraire' });
  if (!poolCount) return unavailableFactor('trading-activity', ACTIVITY_THRESHOLD, ACTIVITY_SOURCE, 'no pool of this token is indexed');
  const young = a.ageHours !== null && a.ageHours < YOUNG_HOURS;
  const few = a.trades < FEW_TRADES;
  const trades = `${a.trades} trade${a.trades === 1 ? '' : 's'} in its pools`;
  const age = a.ageHours === null ? 'no liquidity indexed' : `first liquidity ${a.ageHours} h before the checkpoint`;
  const evidence = { trades: a.trades, ageHours: a.ageHours, firstLiquidityAt: a.firstLiquidityTs === null ? null : new Date(a.firstLiquidityTs * 1000).toISOString(), indexFrom: a.historyStart === null ? null : new Date(a.historyStart * 1000).toISOString() };
  if (few || young) return factor({ ...base, severity: 'medium', value: a.trades, evidence, finding: `unproven market: ${few ? `only ${trades}` : trades}, ${young ? `${age} (young)` : age}` });
  return factor({ ...base, severity: 'none', value: a.trades, evidence, finding: `${trades}, ${age}` });
}

const HISTORY_THRESHOLD = 'any other token of the same deployer rugged or a honeypot: high';

export function deployerHistoryFactor(deployer: { address: string; otherTokens: number } | null, checked: readonly { token: string; rugged: boolean; honeypot: boolean | null }[]): Factor {
  const source = 'the deployer (sender of the first mint, or the launchpad\'s creator) and its other tokens, scanned the same way';
  const base = { factor: 'deployer-history' as const, threshold: HISTORY_THRESHOLD, source, unit: 'tokens' };
  if (!deployer) return unavailableFactor('deployer-history', HISTORY_THRESHOLD, source, 'no mint of this token is indexed');
  const bad = checked.filter((h) => h.rugged || h.honeypot);
  const evidence = { deployer: deployer.address, otherTokens: deployer.otherTokens, checked: checked.length };
  if (bad.length) return factor({ ...base, severity: 'high', value: bad.length, evidence, finding: `the deployer's other tokens include ${bad.length} rugged or honeypot token(s)` });
  return factor({ ...base, severity: 'none', value: 0, evidence, finding: deployer.otherTokens ? `none of the deployer's ${checked.length} other token(s) checked was rugged or a honeypot` : 'the deployer has no other indexed token' });
}
