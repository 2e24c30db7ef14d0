import { ExecutionRevertedError } from 'viem';
import { describe, expect, it } from 'vitest';
import { SibylError } from '../core/errors.js';
import { addr, CLEAN_PROBE, probeAnswer, TKN, units, withNative, type ProbeResult } from '../data/testing/fixtures.js';
import { simulateTrade } from './simulate.js';

const clean = CLEAN_PROBE;

/** TKN on a TKN/WETH pool (WETH $2,000); the probe answers `answer`. */
async function simulate(answer: ProbeResult | (() => never), token: string = TKN) {
  const fx = withNative(2_000);
  fx.token(TKN, 'TKN', 18);
  fx.pool(addr(0x9004), TKN, fx.weth, units(1_000_000, 18), units(10, 18));
  fx.onCall = () => (typeof answer === 'function' ? answer() : probeAnswer(answer));
  return simulateTrade(await fx.market(), token, 1n);
}

describe('security/v2 buy-and-sell simulation', () => {
  it('about $50 of WETH straight through the pairs; taxes from what each transfer delivered', async () => {
    // Bought 900 of 1,000 expected: 10% buy tax; 855 of 900 sent arrived: 5% sell tax; 855 returned
    // of the 855·900/855 = 900 a tax-free round trip would: 5% round-trip loss.
    const r = await simulate({ buyExpected: 1_000n, buyReceived: 900n, sellSent: 900n, sellArrived: 855n, sellExpected: 855n, sellReceived: 855n, sellReverted: false });
    expect(r).toMatchObject({ available: true, path: [withNative().weth, TKN], buyReverted: false, buyTaxPct: 10, sellTaxPct: 5, roundTripLossPct: 5, honeypot: false });
    // $50 at $2,000 (parsed from a float: 0.025000000000000001, about $50 as documented).
    expect(r.available && Number(r.spentNative)).toBeCloseTo(0.025, 15);
  });

  it('a sell that loses 90% in transfer, returns nothing, or reverts is a honeypot', async () => {
    expect(await simulate({ ...clean, sellArrived: 100n })).toMatchObject({ sellTaxPct: 90, honeypot: true });
    expect(await simulate({ ...clean, sellArrived: 101n })).toMatchObject({ sellTaxPct: 89.9, honeypot: false });
    expect(await simulate({ ...clean, sellReceived: 0n })).toMatchObject({ honeypot: true });
    expect(await simulate({ ...clean, sellReverted: true })).toMatchObject({ honeypot: true, sellTaxPct: null, roundTripLossPct: 100, reason: 'the sell reverted' });
  });

  it('a buy the EVM reverted: buyReverted, a honeypot', async () => {
    const r = await simulate(() => { throw new ExecutionRevertedError({ message: 'execution reverted: TRADING_CLOSED' }); });
    expect(r).toMatchObject({ available: true, buyReverted: true, honeypot: true });
  });

  it('a trade that reverts while the token says paused() is a pause by its owner, not a honeypot', async () => {
    const fx = withNative(2_000);
    fx.token(TKN, 'TKN', 18);
    fx.pool(addr(0x9004), TKN, fx.weth, units(1_000_000, 18), units(10, 18));
    fx.onCall = () => { throw new ExecutionRevertedError({ message: 'execution reverted: paused' }); };
    fx.answer(TKN, 'paused', () => true);
    expect(await simulateTrade(await fx.market(), TKN, 1n)).toMatchObject({ buyReverted: true, honeypot: false, paused: true, reason: expect.stringContaining('paused()') });
    fx.onCall = () => probeAnswer({ ...clean, sellReverted: true });
    expect(await simulateTrade(await fx.market(), TKN, 1n)).toMatchObject({ sellReverted: true, honeypot: false, paused: true });
    // Not paused: the same reverts are what they were.
    fx.answer(TKN, 'paused', () => false);
    expect(await simulateTrade(await fx.market(), TKN, 1n)).toMatchObject({ sellReverted: true, honeypot: true, paused: false });
  });

  it('a node that did not run the call gives no verdict: upstream_unavailable', async () => {
    const err = await simulate(() => { throw new Error('socket hang up'); }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SibylError);
    expect((err as SibylError).code).toBe('upstream_unavailable');
  });

  it('no route from the wrapped native, or the wrapped native itself: not simulated, with the reason', async () => {
    expect(await simulate(clean, addr(0x5555))).toEqual({ available: false, reason: 'no priced pool route from the wrapped native to this token' });
    expect(await simulate(clean, withNative().weth)).toMatchObject({ available: false, reason: expect.stringContaining('not simulated') });
  });

  it('a USDC-quoted token routes WETH → USDC → token', async () => {
    const fx = withNative(2_000, 100); // WETH/USDC is USDC's deepest pool
    fx.token(TKN, 'TKN', 18);
    fx.pool(addr(0x9005), TKN, fx.usdc, units(60_000, 18), units(60_000, 6));
    fx.onCall = () => probeAnswer(clean);
    expect(await simulateTrade(await fx.market(), TKN, 1n)).toMatchObject({ available: true, path: [fx.weth, fx.usdc, TKN] });
  });

  // USDC's main pool is then TKN/USDC itself: the walk must not go back through the probed token.
  it('a USDC-quoted token deeper than WETH/USDC still has a route', async () => {
    const fx = withNative(2_000, 20);
    fx.token(TKN, 'TKN', 18);
    fx.pool(addr(0x9005), TKN, fx.usdc, units(60_000, 18), units(60_000, 6));
    fx.onCall = () => probeAnswer(clean);
    expect(await simulateTrade(await fx.market(), TKN, 1n)).toMatchObject({ available: true, path: [fx.weth, fx.usdc, TKN] });
  });
});
