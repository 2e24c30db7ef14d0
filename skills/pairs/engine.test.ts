import { describe, expect, it } from 'vitest';
import { addr, Fixture, TKN, units } from '../data/testing/fixtures.js';
import { latestPairs } from './engine.js';

const [DUST, X, Y] = [addr(0xd5), addr(0x58), addr(0x59)];

async function world() {
  const fx = new Fixture();
  fx.token(TKN, 'TKN', 18);
  fx.token(DUST, 'DUST', 18);
  fx.pool(addr(0x101), TKN, fx.usdc, units(1_000, 18), units(5_000, 6), { block: 3 }); // TKN $5
  fx.pool(addr(0x102), DUST, fx.usdc, units(10, 18), units(400, 6), { block: 7 }); // under $1,000: DUST unpriced
  fx.pool(addr(0x103), X, Y, 5n, 5n, { block: 7 }); // neither side an ERC-20 the chain answers for
  return fx.market(10);
}

describe('latest-pairs/v2', () => {
  it('newest first, both sides priced, one side doubled, or neither', async () => {
    const { pairs, fromBlock } = await latestPairs(await world(), 10);
    expect(pairs.map((p) => [p.pair, p.createdBlock, p.liquidityUsd, p.liquidityBasis])).toEqual([
      [addr(0x103), '7', null, null],
      [addr(0x102), '7', 800, 'one_side_doubled'],
      [addr(0x101), '3', 10_000, 'both_sides'],
    ]);
    expect(pairs[0]).toMatchObject({ unpricedReason: 'neither token has a price route', reserves: { token0: null, token1: null } });
    expect(pairs[2]).toMatchObject({ dex: 'uniswap-v2', reserves: { token0: '1000', token1: '5000' } });
    expect(fromBlock).toBe(3);
  });

  it('the limit keeps the newest', async () => {
    const { pairs, fromBlock } = await latestPairs(await world(), 1);
    expect(pairs.map((p) => p.pair)).toEqual([addr(0x103)]);
    expect(fromBlock).toBe(7);
  });
});
