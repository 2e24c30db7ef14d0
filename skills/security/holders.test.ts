import { zeroAddress, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { EMBEDDED_FLASH_LENDER } from '../../chain/chains.js';
import { addr, Fixture, TKN, units } from '../data/testing/fixtures.js';
import { entityBook } from '../data/entities.js';
import { concentration } from './holders.js';

const [DEPLOYER, TREASURY, A, B, VENUE, POOL, LOCKER, EXCHANGE] = [addr(0xde9), addr(0x7ea), addr(0xa1), addr(0xb1), addr(0x7e2), addr(0x9001), addr(0x10c), addr(0xe8c)];
const LENDER = EMBEDDED_FLASH_LENDER.toLowerCase() as Address;
const DEAD = '0x000000000000000000000000000000000000dead' as Address;
const DEPOSITORS = [addr(0xd1), addr(0xd2), addr(0xd3)];

/**
 * TKN minted by DEPLOYER to TREASURY (100), handed out: 30 to the pool, 10 burned, 5 each to a
 * launchpad venue, the flash lender and a locker (contracts), 15 to A, 5 to B, 5 back to DEPLOYER,
 * 10 to EXCHANGE (a wallet three others deposit USDC to themselves); TREASURY keeps 10.
 */
async function world(totalSupply = 100) {
  const fx = new Fixture();
  fx.token(TKN, 'TKN', 18);
  fx.pool(POOL, TKN, fx.weth, units(30, 18), units(1, 18));
  fx.launched(2, VENUE, addr(0x1a0), addr(0xc4e), 'OTHER');
  for (const c of [VENUE, LENDER, LOCKER]) fx.code.set(c, '0x6080604052');
  fx.transfer(3, TKN, zeroAddress, TREASURY, units(100, 18), fx.tx(DEPLOYER));
  for (const [to, n] of [[POOL, 30], [DEAD, 10], [VENUE, 5], [LENDER, 5], [LOCKER, 5], [A, 15], [B, 5], [DEPLOYER, 5], [EXCHANGE, 10]] as const) fx.transfer(4, TKN, TREASURY, to, units(n, 18));
  for (const d of DEPOSITORS) fx.transfer(5, fx.usdc, d, EXCHANGE, units(1_000, 6));
  fx.answer(TKN, 'totalSupply', () => units(totalSupply, 18));
  return fx.market();
}

describe('security/v2 holders, classified by entities/v1', () => {
  it('pools, burn addresses and contracts are left out; treasuries and exchanges are set apart as held for others; wallets and issuers are weighed, each as the entity book has it', async () => {
    const market = await world();
    const c = await concentration(market, TKN);
    // 45 outside pools, burn addresses and contracts: A 15, B 5, DEPLOYER 5 weighed; EXCHANGE 10 and TREASURY 10 set apart.
    expect(c).toMatchObject({ available: true, holderCount: 5, circulatingPct: 45 });
    if (!c.available) throw new Error('unreachable');
    expect(c.top[0]).toEqual({ address: A, pct: 33.3333 });
    expect(c.top.slice(1)).toHaveLength(2);
    expect(c.top.slice(1)).toEqual(expect.arrayContaining([{ address: B, pct: 11.1111 }, { address: DEPLOYER, pct: 11.1111 }]));
    expect(c.setApart.map((h) => [h.address, h.kind, h.pct]).sort()).toEqual([[EXCHANGE, 'exchange', 22.2222], [TREASURY, 'treasury', 22.2222]].sort());
    expect(Object.fromEntries(c.excluded.map((e) => [e.address, [e.reason, e.supplyPct]]))).toEqual({
      [POOL]: ['liquidity_pool', 30], [DEAD]: ['burn_address', 10], [VENUE]: ['protocol_contract', 5], [LENDER]: ['protocol_contract', 5], [LOCKER]: ['protocol_contract', 5],
    });
    // The same addresses as holder-concentration and whale-tracking see them.
    const book = await entityBook(market);
    for (const h of c.setApart) expect(book.of(h.address), h.address).toMatchObject({ kind: h.kind, role: h.role });
    for (const h of c.top) expect([null, 'issuer'], h.address).toContain(book.kind(h.address));
    for (const e of c.excluded.filter((x) => x.reason === 'protocol_contract')) expect(book.isContract(e.address), e.address).toBe(true);
  });

  it('balances that do not add up to totalSupply are not a concentration: the index lacks part of the history', async () => {
    const market = await world(101);
    expect(await concentration(market, TKN)).toEqual({ available: false, reason: expect.stringContaining('the index does not hold this token\'s whole transfer history') });
  });
});
