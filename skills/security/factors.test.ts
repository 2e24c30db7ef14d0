import { describe, expect, it } from 'vitest';
import { addr } from '../data/testing/fixtures.js';
import {
  activityFactor, concentrationFactor, CONCENTRATED_PCT, deployerHistoryFactor, depthFactor, DOMINANT_PCT, FEW_HOLDERS, FEW_TRADES, HIGH_TAX_PCT, LOW_TAX_PCT, lpFactor, powersFactor,
  PULLABLE_LIQUIDITY_PCT, rugFactor, SHALLOW_LIQUIDITY_USD, simulationFactor, THIN_LIQUIDITY_USD, YOUNG_HOURS,
} from './factors.js';
import type { Concentration } from './holders.js';
import type { PoolLiquidity } from './liquidity.js';
import type { OwnerPowers, ProxySlots } from './powers.js';
import type { Simulation } from './simulate.js';

const sim = (s: Partial<Extract<Simulation, { available: true }>>): Simulation => ({
  available: true, caller: addr(1), path: [], spentNative: '0', buyReverted: false, buyTaxPct: 0, sellReverted: false, sellTaxPct: 0, roundTripLossPct: 0.6, honeypot: false, paused: false, ...s,
});
const powers = (p: Partial<OwnerPowers>): OwnerPowers => ({ available: true, powers: [], functions: [], owner: addr(0x0e1), renounced: false, ...p });
const noProxy: ProxySlots = { implementation: null, admin: null };
const [WALLET, OTHER, LOCKER, DEPLOYER, TREASURY] = [addr(0xa1), addr(0xa2), addr(0x10c), addr(0xde9), addr(0x7ea)];

/** A pool whose LP sits as given: `wallet` holds `walletPct`, the rest burned unless said otherwise. */
function pool(p: { pool?: string; depthUsd: number | null; wallet?: string | null; walletPct?: number; burnedPct?: number; contractHeldPct?: number; supply?: string; pulled?: boolean; provider?: string; providerHoldsPct?: number; removedPct?: number }): PoolLiquidity & { depthUsd: number | null } {
  const walletPct = p.walletPct ?? 0;
  return {
    pool: p.pool ?? addr(0x9001), dex: 'uni', quote: addr(0xe), provider: (p.provider ?? WALLET) as `0x${string}`, providerMintedLp: '9000', providerHoldsPct: p.providerHoldsPct ?? 100,
    addedQuote: 10, removedQuote: 0, removedPct: p.removedPct ?? 0, addedUsd: 40_000, removedUsd: 0, lpRedeemedPct: 0, lastRemovalBlock: null,
    lp: {
      burnedPct: p.burnedPct ?? 100 - walletPct - (p.contractHeldPct ?? 0), contractHeldPct: p.contractHeldPct ?? 0, walletHeldPct: walletPct,
      largestHolder: (p.wallet ?? null) as `0x${string}` | null, largestHolderPct: walletPct, largestWallet: (p.wallet === undefined ? WALLET : p.wallet) as `0x${string}` | null, largestWalletPct: walletPct, supply: p.supply ?? '10000',
    },
    liquidityUsdNow: p.depthUsd, pulled: p.pulled ?? false, depthUsd: p.depthUsd,
  };
}
const held = (top: number[], extra: Partial<Extract<Concentration, { available: true }>> = {}): Concentration => ({
  available: true, holderCount: top.length, top: top.map((pct, i) => ({ address: addr(0x100 + i), pct })), setApart: [], excluded: [], circulatingPct: 20, ...extra,
});
const fired = (f: { severity: string; points: number }) => [f.severity, f.points];

describe('security/v2 factors at their thresholds', () => {
  it('sell simulation: a honeypot or a reverted buy is critical; a tax of 10% is high, 9.99% low, 1% low, 0.99% nothing', () => {
    expect([HIGH_TAX_PCT, LOW_TAX_PCT]).toEqual([10, 1]);
    expect(simulationFactor(sim({ sellReverted: true, honeypot: true, sellTaxPct: null }), 9, false)).toMatchObject({ severity: 'critical', points: 100, value: 100, finding: 'honeypot: selling reverts' });
    expect(simulationFactor(sim({ honeypot: true, sellTaxPct: 95 }), 9, false).finding).toBe('honeypot: a sell delivers 95% less than sent');
    expect(simulationFactor(sim({ buyReverted: true }), 9, false)).toMatchObject({ severity: 'critical', finding: 'buying reverts: the token cannot be bought through its pools' });
    // Reverted under the owner's pause: high, said as a pause, never called a honeypot.
    expect(simulationFactor(sim({ buyReverted: true, paused: true }), 9, false)).toMatchObject({ severity: 'high', finding: expect.stringContaining('paused by the token\'s owner') });
    expect(simulationFactor(sim({ sellTaxPct: 10 }), 9, false)).toMatchObject({ severity: 'high', points: 40, value: 10, finding: 'sell tax 10%' });
    expect(simulationFactor(sim({ sellTaxPct: 25, buyTaxPct: 10 }), 9, false)).toMatchObject({ severity: 'high', finding: 'sell tax 25%, buy tax 10%' });
    expect(simulationFactor(sim({ buyTaxPct: 10 }), 9, false)).toMatchObject({ severity: 'high', finding: 'buy tax 10%' });
    expect(fired(simulationFactor(sim({ sellTaxPct: 9.99 }), 9, false))).toEqual(['low', 5]);
    expect(fired(simulationFactor(sim({ sellTaxPct: 1 }), 9, false))).toEqual(['low', 5]);
    expect(simulationFactor(sim({ sellTaxPct: 0.99, buyTaxPct: 0.5 }), 9, false)).toMatchObject({ severity: 'none', points: 0, finding: 'a $50 buy and sell went through untaxed' });
    expect(simulationFactor({ available: false, reason: 'no priced pool route' }, 9, false)).toMatchObject({ available: false, severity: 'none', reason: 'no priced pool route' });
    expect(simulationFactor({ available: false, reason: 'native' }, 9, true)).toMatchObject({ available: true, severity: 'none', finding: expect.stringContaining('not simulated') });
    expect(simulationFactor(sim({}), 9, false).source).toContain('block 9');
  });

  it('owner powers: mint, blacklist, pause and an upgradeable proxy are high; fees medium; limits low; a renounced owner none', () => {
    const f = (p: Partial<OwnerPowers>, proxy = noProxy) => powersFactor(powers(p), proxy, 9);
    expect(f({ powers: ['mint', 'blacklist', 'pause'], functions: ['mint(address,uint256)', 'setBlacklisted(address,bool)', 'setPaused(bool)'] })).toMatchObject({
      severity: 'high', points: 40, value: ['mint', 'blacklist', 'pause'], finding: 'owner can mint, blacklist and pause (mint(address,uint256), setBlacklisted(address,bool), setPaused(bool))',
    });
    expect(f({ powers: ['fees'], functions: ['setFee(uint256)'] })).toMatchObject({ severity: 'medium', points: 20, finding: 'owner can change fees (setFee(uint256))' });
    expect(f({ powers: ['limits'], functions: ['setMaxTxAmount(uint256)'] })).toMatchObject({ severity: 'low', points: 5 });
    expect(f({ powers: ['fees', 'limits', 'pause'], functions: [] }).severity).toBe('high');
    // No owner() to tell: the powers count; renounced: they do not.
    expect(f({ powers: ['mint'], owner: null, renounced: null }).severity).toBe('high');
    expect(f({ powers: ['mint'], owner: '0x0000000000000000000000000000000000000000', renounced: true })).toMatchObject({ severity: 'none', finding: 'ownership renounced (its code has mint)' });
    expect(f({})).toMatchObject({ severity: 'none', value: [], finding: 'no owner power in its bytecode' });
    const proxied = f({}, { implementation: addr(0x1b1), admin: addr(0xad) });
    expect(proxied).toMatchObject({ severity: 'high', value: ['upgrade'], finding: `upgradeable proxy: implementation ${addr(0x1b1)} can be replaced by ${addr(0xad)}` });
    expect(powersFactor({ available: false, reason: 'no contract code at this address' }, noProxy, 9)).toMatchObject({ available: false, reason: 'no contract code at this address' });
  });

  it(`LP: one wallet able to withdraw ${PULLABLE_LIQUIDITY_PCT}% of the token's liquidity can pull it, 49.99% cannot; burned or contract-held LP is nobody's to pull`, () => {
    expect(PULLABLE_LIQUIDITY_PCT).toBe(50);
    const all = lpFactor([pool({ depthUsd: 120_000, wallet: WALLET, walletPct: 100, burnedPct: 0 })]);
    expect(all).toMatchObject({ factor: 'lp-lock', severity: 'medium', points: 20, value: 100, unit: '%', evidence: { wallet: WALLET, totalLiquidityUsd: 120_000 } });
    expect(all.finding).toBe(`LP can be pulled: one wallet (${WALLET}) can withdraw 100% of the token's $120,000 of pool liquidity, holding 100% of its only pool's LP; not locked (0% of ${addr(0x9001)}'s LP burned, 0% held by contracts)`);
    expect(lpFactor([pool({ depthUsd: 1_000, walletPct: 50 })])).toMatchObject({ severity: 'medium', value: 50 });
    expect(lpFactor([pool({ depthUsd: 1_000, walletPct: 49.99 })])).toMatchObject({ severity: 'none', value: 49.99, finding: expect.stringMatching(/^LP cannot be pulled by one wallet: none can withdraw more than 49.99%/) });
    expect(lpFactor([pool({ depthUsd: 1_000, wallet: null, walletPct: 0, contractHeldPct: 100, burnedPct: 0 })])).toMatchObject({ severity: 'none', value: 0 });
    // Weighed by each pool's USD: all of a $30k pool and none of a $70k one is 30% of the token's liquidity.
    const two = [pool({ pool: addr(0x91), depthUsd: 30_000, walletPct: 100 }), pool({ pool: addr(0x92), depthUsd: 70_000, wallet: OTHER, walletPct: 10 })];
    expect(lpFactor(two)).toMatchObject({ severity: 'none', value: 30 });
    // The same wallet in both pools: 30,000 + 7,000 of 100,000.
    expect(lpFactor([two[0]!, pool({ pool: addr(0x92), depthUsd: 70_000, walletPct: 10 })])).toMatchObject({ severity: 'none', value: 37 });
    expect(lpFactor([two[0]!, pool({ pool: addr(0x92), depthUsd: 70_000, walletPct: 30 })])).toMatchObject({ severity: 'medium', value: 51 });
    // Without USD figures every pool weighs the same.
    expect(lpFactor([pool({ pool: addr(0x91), depthUsd: null, walletPct: 100 }), pool({ pool: addr(0x92), depthUsd: null, wallet: LOCKER, walletPct: 0 })])).toMatchObject({ severity: 'medium', value: 50 });
    expect(lpFactor([])).toMatchObject({ available: false, reason: 'no pool of this token is indexed' });
    expect(lpFactor([pool({ depthUsd: 1_000, supply: '0' })])).toMatchObject({ available: false, reason: 'no LP token holder of its pools is indexed' });
  });

  it('a rug is the deployer taking its liquidity back (critical); a pull by another provider is none; an unknown deployer with a pull is undetermined', () => {
    const pulled = pool({ depthUsd: 0, provider: DEPLOYER, providerHoldsPct: 0, removedPct: 100, pulled: true });
    expect(rugFactor([pulled], DEPLOYER)).toMatchObject({ severity: 'critical', points: 100, finding: `rug pull: the deployer burned 100% of the LP it minted and 100% of the liquidity ever added to ${addr(0x9001)} is gone` });
    expect(rugFactor([pulled], OTHER)).toMatchObject({ severity: 'none', finding: `liquidity taken back from ${addr(0x9001)} by its first provider, not the deployer` });
    expect(rugFactor([pulled], null)).toMatchObject({ available: false });
    expect(rugFactor([pool({ depthUsd: 1 })], null)).toMatchObject({ available: true, severity: 'none', finding: 'no liquidity taken back by its deployer' });
  });

  it(`holders: ${DOMINANT_PCT}% to one holder is high, ${CONCENTRATED_PCT}% or fewer than ${FEW_HOLDERS} holders medium; a treasury or exchange is set apart, named, never the largest holder`, () => {
    expect([DOMINANT_PCT, CONCENTRATED_PCT, FEW_HOLDERS]).toEqual([90, 50, 10]);
    const ten = (first: number) => [first, ...Array.from({ length: 9 }, () => (100 - first) / 9)];
    expect(concentrationFactor(held(ten(90)), false)).toMatchObject({ severity: 'high', points: 40, value: 90 });
    expect(concentrationFactor(held(ten(89.99)), false)).toMatchObject({ severity: 'medium', value: 89.99 });
    expect(concentrationFactor(held(ten(50)), false)).toMatchObject({ severity: 'medium', value: 50 });
    expect(concentrationFactor(held(ten(49.99)), false)).toMatchObject({ severity: 'none', points: 0, finding: expect.stringMatching(/^holders spread: the largest holder/) });
    // Nine holders, none above 12%: still too few.
    expect(concentrationFactor(held(Array.from({ length: 9 }, () => 100 / 9)), false)).toMatchObject({ severity: 'medium' });
    // The token: two holders, 75% and 25%.
    const two = concentrationFactor(held([75, 25]), false);
    expect(two).toMatchObject({ severity: 'medium', value: 75, evidence: { holderCount: 2 } });
    expect(two.finding).toBe(`holders concentrated: the largest holder (${addr(0x100)}) has 75% of the supply outside pools (2 holders; next 25%)`);
    // A treasury holding 85% (set apart) and ten wallets 1.5% each: spread, and the treasury named.
    const reserve = held(Array.from({ length: 10 }, () => 1.5), { holderCount: 11, setApart: [{ address: TREASURY, kind: 'treasury', role: 'first-mint-holder', pct: 85 }] });
    expect(concentrationFactor(reserve, false)).toMatchObject({ severity: 'none', value: 1.5 });
    expect(concentrationFactor(reserve, false).finding).toBe(`holders spread: the largest holder (${addr(0x100)}) has 1.5% of the supply outside pools (11 holders; next 1.5%, 1.5%); set apart as held for others: the treasury ${TREASURY} 85%`);
    expect(concentrationFactor({ available: false, reason: 'replay short' }, false)).toMatchObject({ available: false, reason: 'replay short' });
    expect(concentrationFactor({ available: false, reason: 'numeraire' }, true)).toMatchObject({ available: true, severity: 'none', value: null });
  });

  it(`depth: below $${THIN_LIQUIDITY_USD} high, below $${SHALLOW_LIQUIDITY_USD} medium, summed over the token's pools`, () => {
    const d = (...usd: (number | null)[]) => depthFactor(usd.map((u, i) => ({ pool: addr(0x90 + i), depthUsd: u })), false);
    expect(fired(d(9_999.99))).toEqual(['high', 40]);
    expect(fired(d(10_000))).toEqual(['medium', 20]);
    expect(fired(d(49_999.99))).toEqual(['medium', 20]);
    expect(d(30_000, 20_000)).toMatchObject({ severity: 'none', value: 50_000, unit: 'USD', finding: 'liquidity $50,000 across 2 pools' });
    expect(d(9_000)).toMatchObject({ finding: 'thin liquidity: $9,000 across 1 pool' });
    expect(d(null, 60_000)).toMatchObject({ severity: 'none', value: 60_000 });
    expect(d(null)).toMatchObject({ available: false, reason: 'none of its pools has a USD price' });
    expect(d()).toMatchObject({ available: false, reason: 'no pool of this token is indexed' });
    expect(depthFactor([{ pool: addr(1), depthUsd: 5 }], true)).toMatchObject({ severity: 'none', value: null });
  });

  it(`activity: fewer than ${FEW_TRADES} trades or first liquidity under ${YOUNG_HOURS} h is an unproven market (medium)`, () => {
    const a = (trades: number, ageHours: number | null) => activityFactor({ trades, ageHours, firstLiquidityTs: ageHours === null ? null : 1_700_000_000, historyStart: 1_600_000_000 }, 1, false);
    expect(a(10, 24)).toMatchObject({ severity: 'none', value: 10, finding: '10 trades in its pools, first liquidity 24 h before the checkpoint' });
    expect(a(9, 100)).toMatchObject({ severity: 'medium', points: 20, finding: 'unproven market: only 9 trades in its pools, first liquidity 100 h before the checkpoint' });
    expect(a(500, 23.9)).toMatchObject({ severity: 'medium', finding: 'unproven market: 500 trades in its pools, first liquidity 23.9 h before the checkpoint (young)' });
    expect(a(1, 5.6)).toMatchObject({ severity: 'medium', value: 1, finding: 'unproven market: only 1 trade in its pools, first liquidity 5.6 h before the checkpoint (young)' });
    expect(activityFactor({ trades: 0, ageHours: null, firstLiquidityTs: null, historyStart: null }, 0, false)).toMatchObject({ available: false });
  });

  it('deployer history: any rugged or honeypot sibling is high; an unknown deployer is undetermined', () => {
    expect(deployerHistoryFactor({ address: DEPLOYER, otherTokens: 2 }, [{ token: addr(1), rugged: false, honeypot: true }, { token: addr(2), rugged: false, honeypot: false }])).toMatchObject({ severity: 'high', value: 1, finding: 'the deployer\'s other tokens include 1 rugged or honeypot token(s)' });
    expect(deployerHistoryFactor({ address: DEPLOYER, otherTokens: 0 }, [])).toMatchObject({ severity: 'none', finding: 'the deployer has no other indexed token' });
    expect(deployerHistoryFactor(null, [])).toMatchObject({ available: false, reason: 'no mint of this token is indexed' });
  });
});
