import { zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { addr, TKN, tokenUsdc, units } from '../data/testing/fixtures.js';
import { forgottenAssets } from './engine.js';

const [W, SHALLOW, DST, NOLIQ] = [addr(0x111), addr(0x5a1), addr(0xd57), addr(0x4e4)];

describe('forgotten/v1', () => {
  it('an LP share of a dead pool with what it redeems, a token no pool prices, dust; a liquid holding is not forgotten', async () => {
    const fx = tokenUsdc(10_000, 50_000); // TKN $5, $100,000 deep
    // A second TKN/USDC pool with $400 of liquidity: dead. The wallet holds half its LP supply.
    fx.token(SHALLOW, 'SHALLOW-LP', 18);
    fx.pool(SHALLOW, TKN, fx.usdc, units(40, 18), units(200, 6), { dex: 'sushi' });
    fx.answer(SHALLOW, 'totalSupply', () => units(10, 18));
    fx.transfer(2, SHALLOW, zeroAddress, W, units(5, 18));
    // DST at $0.05: 10 of them are dust. NOLIQ has no pool at all.
    fx.token(DST, 'DST', 18);
    fx.pool(addr(0xd50), DST, fx.usdc, units(1_000_000, 18), units(50_000, 6));
    fx.transfer(2, DST, zeroAddress, W, units(10, 18));
    fx.token(NOLIQ, 'NOLIQ', 18);
    fx.transfer(2, NOLIQ, zeroAddress, W, units(3, 18));
    fx.transfer(2, TKN, zeroAddress, W, units(20, 18)); // $100, liquid
    const market = await fx.market();
    const r = await forgottenAssets(market, (await market.reader.checkpoint())!, W);
    expect(r.items.map((i) => [i.kind, i.symbol, i.valueUsd])).toEqual(expect.arrayContaining([
      ['dead-lp', 'SHALLOW-LP', 200], // half of 40 TKN ($5) + 200 USDC
      ['dust', 'DST', 0.5],
      ['no-liquidity', 'NOLIQ', null],
    ]));
    expect(r.items).toHaveLength(3);
    expect(r.items.find((i) => i.kind === 'dead-lp')).toMatchObject({ sharePct: 50, redeemable: { token0: '20', token1: '100' }, pool: { token0: 'TKN', token1: 'USDC', liquidityUsd: 400 } });
    expect(r.valueUsd).toBe(200.5);
  });

  it('shares of a deprecated ERC-4626 vault with what they redeem, valued; a live vault\'s shares are not forgotten', async () => {
    const fx = tokenUsdc(10_000, 50_000);
    const [OLD, LIVE] = [addr(0x4626a), addr(0x4626b)];
    const vault = (v: typeof OLD, name: string, deprecated: boolean) => {
      fx.token(v, name, 6);
      fx.answer(v, 'asset', () => fx.usdc).answer(v, 'name', () => name).answer(v, 'symbol', () => name).answer(v, 'decimals', () => 6)
        .answer(v, 'totalAssets', () => units(105, 6)).answer(v, 'totalSupply', () => units(100, 6)).answer(v, 'maxDeposit', () => (deprecated ? 0n : 2n ** 255n))
        .answer(v, 'deprecated', () => deprecated).answer(v, 'convertToAssets', ([shares]) => ((shares as bigint) * 105n) / 100n);
      fx.transfer(2, v, zeroAddress, W, units(40, 6));
    };
    vault(OLD, 'slUSDC', true);
    vault(LIVE, 'spUSDC', false);
    fx.answer(fx.usdc, 'symbol', () => 'USDC').answer(fx.usdc, 'decimals', () => 6).answer(fx.usdc, 'balanceOf', () => units(105, 6));
    const market = await fx.market();
    const r = await forgottenAssets(market, (await market.reader.checkpoint())!, W);
    expect(r.items).toEqual([expect.objectContaining({
      kind: 'deprecated-vault', symbol: 'slUSDC', balance: '40', redeemable: '42', valueUsd: 42,
      vault: { name: 'slUSDC', deprecated: true, depositsOpen: false }, asset: { address: expect.stringMatching(new RegExp(fx.usdc, 'i')), symbol: 'USDC' },
    })]);
  });
});
