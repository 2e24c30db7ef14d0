/**
 * The wrapped-BTC engine on a hand-built index: supply, holders, mint/burn windows and the peg,
 * each expected figure worked out here from the fixture's own amounts and reserves.
 */
import { zeroAddress, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { addr, T0, units, withNative, type Fixture } from '../../data/testing/fixtures.js';
import { applyMarketReference, deviationBps, readWrappedOnChain, sumSupply, wrappedBtcTokens, type BtcReference } from './engine.js';

const WBTC = addr(0xb7c);
const WBTC_USDC = addr(0xb01);
const WBTC_WETH = addr(0xb02);
const WBTC_DUST = addr(0xb03);
const OTHER = addr(0x070);
const MERCHANT = addr(0x3e1);
const HOLDER = addr(0x401);
const DEAD = '0x000000000000000000000000000000000000dEaD' as Address;
const HOUR = 3_600;
const DAY = 86_400;

/**
 * WETH at $2,000. WBTC (8 decimals): WBTC/USDC 10 WBTC vs $640,000 (64,000); WBTC/WETH 5 WBTC vs
 * 161.6 WETH (64,640: +100 bps of 64,000); a dust WBTC/USDC pool on the other DEX ($500 of USDC).
 * Flows: 100 minted 10 days ago, 3 minted 3 days ago, 2 minted 1 h ago, 1 burned 2 h ago, and
 * 0.5 sent to 0x…dead 30 h ago (no burn: it stays in the supply). The head is at T0.
 */
function world(): Fixture {
  const fx = withNative(2_000, 1_000); // deeper than any WBTC pool, so WETH is priced by USDC
  fx.token(WBTC, 'WBTC', 8);
  fx.token(OTHER, 'LINK', 18);
  fx.at(1, T0 - 10 * DAY).at(50, T0 - 3 * DAY).at(60, T0 - 30 * HOUR).at(80, T0 - 2 * HOUR).at(90, T0 - HOUR).at(100, T0);
  fx.pool(WBTC_USDC, WBTC, fx.usdc, units(10, 8), units(640_000, 6));
  fx.pool(WBTC_WETH, WBTC, fx.weth, units(5, 8), units('161.6', 18));
  fx.pool(WBTC_DUST, WBTC, fx.usdc, units('0.01', 8), units(500, 6), { dex: 'sushi' });
  fx.pool(addr(0xb04), OTHER, fx.usdc, units(1_000, 18), units(14_000, 6));
  fx.transfer(1, WBTC, zeroAddress, MERCHANT, units(100, 8));
  fx.transfer(1, WBTC, MERCHANT, WBTC_USDC, units(10, 8));
  fx.transfer(1, WBTC, MERCHANT, WBTC_WETH, units(5, 8));
  fx.transfer(1, WBTC, MERCHANT, WBTC_DUST, units('0.01', 8));
  fx.transfer(1, WBTC, MERCHANT, HOLDER, units(1, 8));
  fx.transfer(50, WBTC, zeroAddress, MERCHANT, units(3, 8));
  fx.transfer(60, WBTC, MERCHANT, DEAD, units('0.5', 8));
  fx.transfer(80, WBTC, MERCHANT, zeroAddress, units(1, 8));
  fx.transfer(90, WBTC, zeroAddress, MERCHANT, units(2, 8));
  fx.answer(WBTC, 'totalSupply', () => units('104', 8)); // 100 + 3 + 2 - 1
  return fx;
}

const at64k = (): BtcReference => ({ usd: 64_000, source: 'test feed' });

async function read(fx: Fixture, reference: (ts: number) => BtcReference | null = at64k) {
  const market = await fx.market(100);
  const checkpoint = { block: 100, hash: '0x', timestamp: T0 };
  return { market, rows: await readWrappedOnChain(market, checkpoint, reference) };
}

describe('wrapped BTC on one chain', () => {
  it('finds the wrapped BTC tokens of the custody table only, one per symbol: the deepest, not a copycat', async () => {
    const fx = world();
    const copycat = addr(0xfa7e);
    fx.token(copycat, 'WBTC', 18);
    fx.pool(addr(0xfa70), copycat, fx.usdc, units(1, 18), units(20_000, 6));
    const market = await fx.market(100);
    expect(wrappedBtcTokens(market)).toEqual([{ address: WBTC, symbol: 'WBTC', decimals: 8 }]);
  });

  it('supply is totalSupply; holders are the positive balances (pools in, dead out) once they add up to it', async () => {
    const { rows: [row] } = await read(world());
    expect(row).toMatchObject({ chain: 'base', symbol: 'WBTC', totalSupply: '104', supplyRaw: units(104, 8), holdersNote: null });
    // MERCHANT, HOLDER and the three pools; 0x…dead holds 0.5 but is no holder.
    expect(row!.holders).toBe(5);
  });

  it('holders are not counted when the replayed balances miss part of the supply', async () => {
    const fx = world();
    fx.answer(WBTC, 'totalSupply', () => units('105', 8));
    const { rows: [row] } = await read(fx);
    expect(row!.holders).toBeNull();
    expect(row!.holdersNote).toContain('whole transfer history');
  });

  it('mints and burns: zero-address transfers inside each window; a transfer to 0x…dead is none', async () => {
    const { rows: [row] } = await read(world());
    expect(row!.flows['24h']).toMatchObject({ minted: '2', burned: '1', net: '1', mints: 1, burns: 1, coverage: { complete: true } });
    expect(row!.flows['7d']).toMatchObject({ minted: '5', burned: '1', net: '4', mints: 2, burns: 1, coverage: { complete: true } });
  });

  it('peg: each priced pool against the reference in bps, liquidity-weighted; dust pools left out', async () => {
    const { rows: [row] } = await read(world());
    const pools = row!.pools;
    expect(pools.map((p) => p.pool)).toEqual([WBTC_USDC, WBTC_WETH]); // most liquid first, no dust
    const usdcPool = { price: 640_000 / 10, liquidity: 2 * 640_000 };
    // A pool's liquidity values both sides at market prices: WBTC at its main (USDC) pool's 64,000.
    const wethPool = { price: (161.6 * 2_000) / 5, liquidity: 5 * 64_000 + 161.6 * 2_000 };
    expect(pools[0]).toMatchObject({ pair: 'WBTC/USDC', quote: 'USDC', deviationBps: 0 });
    expect(pools[0]!.priceUsd).toBeCloseTo(usdcPool.price, 6);
    expect(pools[1]!.priceUsd).toBeCloseTo(wethPool.price, 6);
    expect(pools[1]!.deviationBps).toBeCloseTo(100, 6);
    expect(pools[1]!.liquidityUsd).toBeCloseTo(wethPool.liquidity, 2);
    const weighted = (100 * wethPool.liquidity) / (usdcPool.liquidity + wethPool.liquidity);
    expect(row!.pegDeviationBps).toBeCloseTo(weighted, 2);
    expect(row!.reference).toEqual(at64k());
  });

  it('without a BTC feed the peg is measured against the market consensus of the wrapped pools', async () => {
    const { rows } = await read(world(), () => null);
    expect(rows[0]!.reference).toBeNull();
    const ref = applyMarketReference(rows)!;
    const consensus = (64_000 * 1_280_000 + 64_640 * 643_200) / (1_280_000 + 643_200);
    expect(ref.usd).toBeCloseTo(consensus, 6);
    expect(ref.source).toContain('no BTC price feed');
    expect(rows[0]!.pools[0]!.deviationBps).toBeCloseTo((64_000 / consensus - 1) * 10_000, 1);
    // The consensus sits between the pools, so their weighted deviation from it is zero.
    expect(rows[0]!.pegDeviationBps).toBeCloseTo(0, 1);
  });
});

describe('sums and units', () => {
  it('sums supplies of different decimals in whole tokens', () => {
    expect(sumSupply([{ supplyRaw: units('1.5', 8), decimals: 8 }, { supplyRaw: units('2.25', 18), decimals: 18 }])).toBe('3.75');
  });

  it('deviation in bps', () => {
    expect(deviationBps(63_936, 64_000)).toBe(-10);
  });
});
