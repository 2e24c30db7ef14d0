import { zeroAddress, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { addr, answerProbes, Fixture, LP_POOL, LP_PROVIDER, providedPool, pull, TKN, units, withNative } from '../data/testing/fixtures.js';
import { scanToken } from './scan.js';

const SIBLING = addr(0x51b);
const DEAD = '0x000000000000000000000000000000000000dead' as Address;
const SUPPLY = 1_000_000;

/**
 * TKN as the issue found it: its deployer (LP_PROVIDER) mints 1,000,000, adds 700,000 TKN + 35
 * WETH ($2,000) to its only pool and keeps the LP; one buyer takes 100,000 in one trade. Outside
 * the pool: the deployer 300,000 (75%), the buyer 100,000 (25%). `settle` runs before the index is read.
 */
function listed(settle: (fx: Fixture) => void = () => {}) {
  const fx = withNative(2_000);
  fx.token(TKN, 'TKN', 18);
  fx.code.set(TKN, '0x63a9059cbb');
  fx.answer(TKN, 'totalSupply', () => units(SUPPLY, 18));
  fx.transfer(3, TKN, zeroAddress, LP_PROVIDER, units(SUPPLY, 18), fx.tx(LP_PROVIDER));
  fx.pool(LP_POOL, TKN, fx.weth, 0n, 0n, { block: 4 });
  const add = fx.tx(LP_PROVIDER);
  fx.transfer(10, TKN, LP_PROVIDER, LP_POOL, units(700_000, 18), add);
  fx.transfer(10, LP_POOL, zeroAddress, zeroAddress, 1_000n, add);
  fx.transfer(10, LP_POOL, zeroAddress, LP_PROVIDER, 9_000n, add);
  fx.sync(10, LP_POOL, units(700_000, 18), units(35, 18), add);
  fx.mint(10, LP_POOL, units(700_000, 18), units(35, 18), add);
  settle(fx);
  answerProbes(fx, {});
  return fx;
}

/** `buyer` takes `tokens` TKN out of the pool in `block`, the pool's reserves after it as given. */
function buy(fx: Fixture, block: number, buyer: Address, tokens: number, reserveTkn: number, reserveWeth: string) {
  const tx = fx.tx(buyer);
  fx.transfer(block, TKN, LP_POOL, buyer, units(tokens, 18), tx);
  fx.swap(block, LP_POOL, { to: buyer, a1In: units(1, 18), a0Out: units(tokens, 18) }, tx);
  fx.sync(block, LP_POOL, units(reserveTkn, 18), units(reserveWeth, 18), tx);
}

const byFactor = (r: Awaited<ReturnType<typeof scanToken>>) => Object.fromEntries(r.factors.map((f) => [f.factor, f]));

const [ISSUER, TREASURY, HOLDER] = [addr(0x155), addr(0x7ea), addr(0x401d)];

/**
 * TKN as a bridged major's supply sits: ISSUER sends its first mint of 1,000,000 to TREASURY (the
 * reserve it is handed out from), which puts 700,000 and 35 WETH in the only pool and burns the
 * LP; ten wallets buy 10,000 each over a day, $160k deep. The 300,000 left (75% of the supply
 * outside the pool) stay with TREASURY, or go to HOLDER, a wallet acting for itself.
 */
async function handedOut(keeper: 'treasury' | 'wallet') {
  const fx = withNative(2_000);
  fx.token(TKN, 'TKN', 18);
  fx.code.set(TKN, '0x63a9059cbb');
  fx.answer(TKN, 'totalSupply', () => units(SUPPLY, 18));
  fx.transfer(3, TKN, zeroAddress, TREASURY, units(SUPPLY, 18), fx.tx(ISSUER));
  fx.pool(LP_POOL, TKN, fx.weth, 0n, 0n, { block: 4 });
  const add = fx.tx(TREASURY);
  fx.transfer(10, TKN, TREASURY, LP_POOL, units(700_000, 18), add);
  fx.transfer(10, LP_POOL, zeroAddress, zeroAddress, 1_000n, add);
  fx.transfer(10, LP_POOL, zeroAddress, TREASURY, 9_000n, add);
  fx.sync(10, LP_POOL, units(700_000, 18), units(35, 18), add);
  fx.mint(10, LP_POOL, units(700_000, 18), units(35, 18), add);
  fx.transfer(11, LP_POOL, TREASURY, DEAD, 9_000n);
  if (keeper === 'wallet') fx.transfer(11, TKN, TREASURY, HOLDER, units(300_000, 18));
  for (let i = 0; i < 10; i++) buy(fx, 20 + i, addr(0xb00 + i), 10_000, 690_000 - 10_000 * i, (35 * 700_000 / (690_000 - 10_000 * i)).toFixed(18));
  fx.at(100, fx.ts(10) + 25 * 3600);
  fx.sync(100, addr(0xe0), units(100, 18), units(200_000, 6));
  answerProbes(fx, {});
  return scanToken(await fx.market(100), TKN);
}

/** The LP of providedPool (LP_PROVIDER's 9,000, all outside the zero address) handed to `to`, whose code is `code`. */
async function lpHeldBy(to: Address, code?: `0x${string}`) {
  const fx = providedPool();
  fx.code.set(TKN, '0x63a9059cbb');
  if (code) fx.code.set(to, code);
  if (to !== LP_PROVIDER) fx.transfer(12, LP_POOL, LP_PROVIDER, to, 9_000n);
  answerProbes(fx, {});
  return byFactor(await scanToken(await fx.market(), TKN))['lp-lock']!;
}

describe('security/v2 verdict', () => {
  it('the issue\'s token: LP all with its provider and unlocked, two holders 75/25, one trade: high, and the LP factor says it can be pulled', async () => {
    const r = await scanToken(await listed((fx) => buy(fx, 12, addr(0xb1), 100_000, 600_000, '40.833333333333333333')).market(), TKN);
    const f = byFactor(r);
    // Every LP token outside the zero address (where the pair keeps its minimum) is the provider's.
    expect(f['lp-lock']).toMatchObject({ severity: 'medium', value: 100, evidence: { wallet: LP_PROVIDER } });
    expect(f['lp-lock']!.finding).toBe(`LP can be pulled: one wallet (${LP_PROVIDER}) can withdraw 100% of the token's $163,333 of pool liquidity, holding 100% of its only pool's LP; not locked (0% of ${LP_POOL}'s LP burned, 0% held by contracts)`);
    expect(f['holder-concentration']).toMatchObject({ severity: 'medium', value: 75, evidence: { holderCount: 2, top: [{ address: LP_PROVIDER, pct: 75 }, { address: addr(0xb1), pct: 25 }] } });
    expect(f['trading-activity']).toMatchObject({ severity: 'medium', value: 1 });
    expect(f['liquidity-depth']).toMatchObject({ severity: 'none' });
    expect(f['liquidity-depth']!.value).toBeCloseTo(163_333.33, 1);
    expect(f['sell-simulation']).toMatchObject({ severity: 'none', value: 0 });
    expect(f['deployer-history']).toMatchObject({ severity: 'none', value: 0 });
    // Three medium factors: 60, high (the rule in verdict.ts), never the old "low, 10/100".
    expect(r).toMatchObject({ riskScore: 60, verdict: 'high', rugged: false, undetermined: [] });
    expect(r.findings.map((x) => x.factor)).toEqual(['lp-lock', 'holder-concentration', 'trading-activity']);
    for (const x of r.factors) expect(x.threshold.length * x.source.length, x.factor).toBeGreaterThan(0);
  });

  it('LP burned, ten holders of 10%, ten trades over two days, $150k deep, no powers: every factor none, low 0', async () => {
    const fx = listed((fx) => {
      fx.transfer(11, LP_POOL, LP_PROVIDER, DEAD, 9_000n);
      fx.transfer(11, TKN, LP_PROVIDER, DEAD, units(300_000, 18));
      for (let i = 0; i < 10; i++) buy(fx, 20 + i, addr(0xb00 + i), 10_000, 690_000 - 10_000 * i, (35 * 700_000 / (690_000 - 10_000 * i)).toFixed(18));
      fx.at(100, fx.ts(10) + 25 * 3600);
      fx.sync(100, addr(0xe0), units(100, 18), units(200_000, 6));
    });
    const r = await scanToken(await fx.market(100), TKN);
    expect(r.factors.filter((x) => x.severity !== 'none' || !x.available)).toEqual([]);
    expect(r).toMatchObject({ riskScore: 0, verdict: 'low', findings: [] });
    const f = byFactor(r);
    expect(f['lp-lock']).toMatchObject({ value: 0, finding: expect.stringMatching(/^LP cannot be pulled by one wallet/) });
    expect(f['holder-concentration']).toMatchObject({ value: 10, evidence: { holderCount: 10 } });
    expect(f['holder-concentration']!.evidence!.excluded).toEqual(expect.arrayContaining([{ address: LP_POOL, reason: 'liquidity_pool', supplyPct: 60 }, { address: DEAD, reason: 'burn_address', supplyPct: 30 }]));
    expect(f['trading-activity']).toMatchObject({ value: 10, evidence: { ageHours: 25 } });
  });

  it('the deployer provided the liquidity and took it back, and its other token is a honeypot: critical, score capped at 100', async () => {
    const fx = providedPool();
    fx.transfer(3, TKN, zeroAddress, LP_PROVIDER, units(20_000, 18), fx.tx(LP_PROVIDER));
    pull(fx);
    // Another token LP_PROVIDER deployed, with a pool, whose sells lose 95%.
    fx.token(SIBLING, 'SIB', 18);
    fx.transfer(4, SIBLING, zeroAddress, LP_PROVIDER, units(1, 18), fx.tx(LP_PROVIDER));
    fx.pool(addr(0x51c), SIBLING, fx.weth, units(1_000, 18), units(10, 18), { block: 5 });
    for (const t of [TKN, SIBLING]) fx.code.set(t, '0x63a9059cbb');
    answerProbes(fx, { [SIBLING]: 95n });
    const r = await scanToken(await fx.market(), TKN);
    // 8,000 of its 9,000 LP gone: 88.9% burned; 6 of 10 WETH removed.
    expect(r.findings[0]).toEqual({ factor: 'liquidity-pulled', severity: 'critical', points: 100, finding: `rug pull: the deployer burned 88.9% of the LP it minted and 60% of the liquidity ever added to ${LP_POOL} is gone` });
    expect(r.findings).toContainEqual({ factor: 'deployer-history', severity: 'high', points: 40, finding: 'the deployer\'s other tokens include 1 rugged or honeypot token(s)' });
    // What is left: 4 WETH at $1,000 and 4,000 TKN at its pool price, $8,000.
    expect(r.findings).toContainEqual({ factor: 'liquidity-depth', severity: 'high', points: 40, finding: 'thin liquidity: $8,000 across 1 pool' });
    expect(r).toMatchObject({ riskScore: 100, verdict: 'critical', rugged: true, honeypot: false });
    expect(r.deployer).toMatchObject({ address: LP_PROVIDER, via: 'first-mint', otherTokens: 1, checked: [{ token: SIBLING, honeypot: true, rugged: false }] });
  });

  it('what cannot be read is named, weighs nothing, and is never a pass by silence', async () => {
    const fx = providedPool();
    fx.code.set(TKN, '0x63a9059cbb');
    answerProbes(fx, {});
    const r = await scanToken(await fx.market(), TKN);
    expect(r.undetermined).toEqual([
      { factor: 'holder-concentration', reason: 'totalSupply() did not answer' },
      { factor: 'deployer-history', reason: 'no mint of this token is indexed' },
    ]);
    expect(r.deployer).toEqual({ available: false, reason: 'no mint of this token is indexed' });
    // What could be read still weighs: LP all with its provider, 0 trades in a young $40k pool.
    expect(r.findings.map((x) => [x.factor, x.severity])).toEqual([['lp-lock', 'medium'], ['liquidity-depth', 'medium'], ['trading-activity', 'medium']]);
    expect(r).toMatchObject({ riskScore: 60, verdict: 'high' });
  });

  it('a treasury holding most of the supply (its first mint, from another deployer) does not by itself make the token risky; a wallet holding 75% still does', async () => {
    const reserve = await handedOut('treasury');
    const held = byFactor(reserve)['holder-concentration']!;
    // The largest holder weighed is a buyer, 10,000 of the 400,000 outside the pool; the treasury is set apart, named with its share.
    expect(held).toMatchObject({ severity: 'none', value: 2.5, evidence: { holderCount: 11, setApart: [{ address: TREASURY, kind: 'treasury', pct: 75 }] } });
    expect(held.finding).toMatch(/^holders spread: the largest holder \(0x0000000000000000000000000000000000000b0\d\) has 2\.5% /);
    expect(reserve).toMatchObject({ riskScore: 0, verdict: 'low', findings: [] });

    const wallet = await handedOut('wallet');
    expect(byFactor(wallet)['holder-concentration']).toMatchObject({ severity: 'medium', value: 75, evidence: { holderCount: 11, top: expect.arrayContaining([{ address: HOLDER, pct: 75 }]), setApart: [] } });
    expect(wallet.findings).toEqual([expect.objectContaining({ factor: 'holder-concentration', severity: 'medium', finding: expect.stringMatching(new RegExp(`^holders concentrated: the largest holder \\(${HOLDER}\\) has 75%`)) })]);
    expect(wallet).toMatchObject({ riskScore: 20, verdict: 'medium' });
  });

  it('LP held by a protocol contract cannot be pulled by one wallet; LP with one provider without code, or with an EIP-7702 delegation, can', async () => {
    const [VAULT, DELEGATED] = [addr(0x4a17), addr(0x7702)];
    expect(await lpHeldBy(VAULT, '0x6080604052')).toMatchObject({ severity: 'none', value: 0, evidence: { wallet: null, pools: [{ contractHeldPct: 100, burnedPct: 0 }] }, finding: expect.stringMatching(/^LP cannot be pulled by one wallet/) });
    for (const [holder, code] of [[LP_PROVIDER, undefined], [DELEGATED, `0xef0100${'11'.repeat(20)}` as const]] as const) {
      const lp = await lpHeldBy(holder, code);
      expect(lp, holder).toMatchObject({ severity: 'medium', value: 100, evidence: { wallet: holder, pools: [{ contractHeldPct: 0 }] } });
      expect(lp.finding).toMatch(new RegExp(`^LP can be pulled: one wallet \\(${holder}\\) can withdraw 100%`));
    }
  });

  it('the chain\'s numeraires are not weighed on their pools: WETH has no LP, depth, holder or activity finding', async () => {
    const fx = listed();
    fx.code.set(fx.weth, '0x63a9059cbb');
    const r = await scanToken(await fx.market(), fx.weth);
    expect(r.factors.filter((x) => ['lp-lock', 'holder-concentration', 'liquidity-depth', 'trading-activity'].includes(x.factor)).map((x) => [x.severity, x.value])).toEqual([['none', null], ['none', null], ['none', null], ['none', null]]);
    expect(r.liquidity).toEqual([]);
  });
});
