import { zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { addr, answerProbes, LP_POOL, LP_PROVIDER, providedPool, pull, TKN, units } from '../data/testing/fixtures.js';
import { scanToken } from './scan.js';

const SIBLING = addr(0x51b);

describe('security/v1 rug-pull scan', () => {
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
    expect(r.findings).toEqual([
      { severity: 'critical', points: 80, finding: `rug pull: the deployer burned 88.9% of the LP it minted and 60% of the liquidity ever added to ${LP_POOL} is gone` },
      { severity: 'high', points: 20, finding: 'the deployer\'s other tokens include 1 rugged or honeypot token(s)' },
    ]);
    expect(r).toMatchObject({ riskScore: 100, verdict: 'critical', rugged: true, honeypot: false });
    expect(r.deployer).toMatchObject({ address: LP_PROVIDER, via: 'first-mint', otherTokens: 1, checked: [{ token: SIBLING, honeypot: true, rugged: false }] });
  });

  it('LP still in its provider\'s hands, nothing pulled, deployer unknown: a medium finding, low verdict', async () => {
    const fx = providedPool();
    fx.code.set(TKN, '0x63a9059cbb');
    answerProbes(fx, {});
    const r = await scanToken(await fx.market(), TKN);
    expect(r.findings).toEqual([{ severity: 'medium', points: 10, finding: `LP not locked: the provider still holds 100% of ${LP_POOL}'s LP` }]);
    expect(r).toMatchObject({ riskScore: 10, verdict: 'low', rugged: false, deployer: { available: false, reason: 'no mint of this token is indexed' } });
  });
});
