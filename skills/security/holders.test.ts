import { zeroAddress, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { EMBEDDED_FLASH_LENDER } from '../../chain/chains.js';
import { addr, Fixture, TKN, units } from '../data/testing/fixtures.js';
import { origins } from '../data/origins.js';
import { concentration } from './holders.js';

const [DEPLOYER, TREASURY, A, B, VENUE, POOL] = [addr(0xde9), addr(0x7ea), addr(0xa1), addr(0xb1), addr(0x7e2), addr(0x9001)];
const DEAD = '0x000000000000000000000000000000000000dead' as Address;

/** TKN minted by DEPLOYER to TREASURY (100), handed out: 30 to the pool, 10 burned, 5 to a launchpad venue, 5 to the flash lender, 15 to A, 5 to B, 5 kept by DEPLOYER. */
async function world(totalSupply = 100) {
  const fx = new Fixture();
  fx.token(TKN, 'TKN', 18);
  fx.pool(POOL, TKN, fx.weth, units(30, 18), units(1, 18));
  fx.launched(2, VENUE, addr(0x1a0), addr(0xc4e), 'OTHER');
  fx.transfer(3, TKN, zeroAddress, TREASURY, units(100, 18), fx.tx(DEPLOYER));
  for (const [to, n] of [[POOL, 30], [DEAD, 10], [VENUE, 5], [EMBEDDED_FLASH_LENDER.toLowerCase() as Address, 5], [A, 15], [B, 5], [DEPLOYER, 5], [TKN, 0]] as const) {
    if (n) fx.transfer(4, TKN, TREASURY, to, units(n, 18));
  }
  fx.answer(TKN, 'totalSupply', () => units(totalSupply, 18));
  return fx.market();
}

describe('security/v2 holders', () => {
  it('pools, burn addresses and protocol contracts are left out; the deployer and its first holder count, and count together', async () => {
    const market = await world();
    const c = await concentration(market, TKN, (await origins(market)).get(TKN)!);
    // Counted: TREASURY 25, A 15, B 5, DEPLOYER 5 of 50 outside pools, burn and protocol contracts.
    expect(c).toMatchObject({ available: true, holderCount: 4, circulatingPct: 50 });
    if (!c.available) throw new Error('unreachable');
    expect(c.top.slice(0, 2)).toEqual([{ address: TREASURY, pct: 50 }, { address: A, pct: 30 }]);
    expect(c.top.slice(2)).toEqual(expect.arrayContaining([{ address: DEPLOYER, pct: 10 }, { address: B, pct: 10 }]));
    expect(c.insiders).toEqual({ addresses: [DEPLOYER, TREASURY], pct: 60 });
    expect(Object.fromEntries(c.excluded.map((e) => [e.address, [e.reason, e.supplyPct]]))).toEqual({
      [POOL]: ['liquidity_pool', 30], [DEAD]: ['burn_address', 10], [VENUE]: ['protocol_contract', 5], [EMBEDDED_FLASH_LENDER.toLowerCase()]: ['protocol_contract', 5],
    });
  });

  it('balances that do not add up to totalSupply are not a concentration: the index lacks part of the history', async () => {
    const market = await world(101);
    expect(await concentration(market, TKN, null)).toEqual({ available: false, reason: expect.stringContaining('the index does not hold this token\'s whole transfer history') });
  });
});
