import { zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { addr, LP_PROVIDER, providedPool, pull, T0, TKN, tokenUsdc, trade, units } from '../data/testing/fixtures.js';
import { walletTrust } from './trust.js';

const [W, VICTIM, FRIEND] = [addr(0xa77), addr(0xb1c), addr(0xf1e)];
const DAY = 86_400;

/** W first seen at T0 (a transfer in), sandwiches VICTIM in block 50; the head is 5 days after T0. */
async function sandwichWorld() {
  const fx = tokenUsdc();
  fx.at(2, T0).at(100, T0 + 5 * DAY);
  fx.transfer(2, TKN, FRIEND, W, units(1, 18));
  const gas = { gasUsed: 100_000n, gasPrice: 1n };
  fx.swap(50, addr(0x7c0), { to: W, a1In: units(500, 6), a0Out: units(100, 18) }, fx.tx(W, gas));
  trade(fx, 50, VICTIM, 'buy', 100, 520);
  fx.swap(50, addr(0x7c0), { to: W, a0In: units(100, 18), a1Out: units(530, 6) }, fx.tx(W, gas));
  return fx.market(100);
}

describe('wallet-trust/v1', () => {
  it('a sandwich attacker: history and activity count, the sandwiches take 40', async () => {
    const market = await sandwichWorld();
    const r = await walletTrust(market.chain, market, W);
    // 5 days × 2 = 10; 2 swaps → 1; −40. Its swaps are same-block round trips: no trading record.
    expect(r.factors.map((f) => [f.factor, f.points])).toEqual([['history', 10], ['activity', 1], ['sandwich attacker', -40]]);
    expect(r).toMatchObject({ available: true, score: 21, grade: 'risky' });
  });

  it('its victim is neutral', async () => {
    const market = await sandwichWorld();
    const r = await walletTrust(market.chain, market, VICTIM);
    expect(r.factors.map((f) => f.factor)).toEqual(['history', 'activity']);
    expect(r).toMatchObject({ score: 60, grade: 'neutral' });
  });

  it('a deployer whose first provider pulled the liquidity loses 50', async () => {
    const fx = providedPool();
    fx.transfer(3, TKN, zeroAddress, LP_PROVIDER, units(20_000, 18), fx.tx(LP_PROVIDER));
    pull(fx);
    const market = await fx.market();
    const r = await walletTrust(market.chain, market, LP_PROVIDER);
    expect(r.factors.find((f) => f.factor === 'deployer')).toMatchObject({ points: -50 });
    expect(r).toMatchObject({ score: 0, grade: 'risky' });
  });

  it('a wallet the index never saw: no score', async () => {
    const market = await sandwichWorld();
    expect(await walletTrust(market.chain, market, addr(0x999))).toEqual({ available: false, reason: 'the index holds no activity of this wallet', factors: [] });
  });
});
