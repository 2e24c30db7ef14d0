import { zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { addr, Fixture, LP_POOL, LP_PROVIDER, providedPool, TKN, units } from './testing/fixtures.js';
import { origins } from './origins.js';

const [DEPLOYER, TREASURY, LATER, CREATOR, VENUE, LAUNCHED] = [addr(0xde9), addr(0x7ea), addr(0x1a7e), addr(0xc4e), addr(0x7e2), addr(0x1a0)];

async function world() {
  const fx = new Fixture();
  fx.token(TKN, 'TKN', 18);
  // TKN's first mint, sent by DEPLOYER, goes to a treasury; a later mint by someone else changes nothing.
  fx.transfer(5, TKN, zeroAddress, TREASURY, units(1_000_000, 18), fx.tx(DEPLOYER));
  fx.transfer(9, TKN, zeroAddress, LATER, units(1, 18), fx.tx(LATER));
  // A launchpad mints to itself; the creator it names is the deployer.
  fx.transfer(6, LAUNCHED, zeroAddress, VENUE, units(1_000_000_000, 18), fx.tx(addr(0x5e7)));
  fx.launched(6, VENUE, LAUNCHED, CREATOR, 'LAUNCH');
  return fx.market();
}

describe('security/v2 deployers', () => {
  it('the sender of a token\'s first mint, or the creator a launchpad names', async () => {
    const o = await origins(await world());
    expect(o.get(TKN)).toMatchObject({ deployer: DEPLOYER, firstHolder: TREASURY, via: 'first-mint', block: 5 });
    expect(o.get(LAUNCHED)).toMatchObject({ deployer: CREATOR, firstHolder: VENUE, via: 'launchpad', block: 6 });
    expect(o.size).toBe(2);
  });

  it('names the deployers and first holders, and no one else', async () => {
    const named = [...(await origins(await world())).values()].flatMap((o) => [o.deployer, o.firstHolder]);
    expect(new Set(named)).toEqual(new Set([DEPLOYER, TREASURY, CREATOR, VENUE]));
  });

  it('an index without mints knows no deployer', async () => {
    expect((await origins(await new Fixture().market())).size).toBe(0);
  });

  // A V2 pair's LP token is minted from the zero address by its first liquidity provider's
  // addLiquidity; the factory deployed the pair, not the provider.
  it('a pool\'s LP token is not a token its first liquidity provider deployed', async () => {
    const market = await providedPool().market();
    expect((await origins(market)).get(LP_POOL)).toBeUndefined();
    expect([...(await origins(market)).values()].flatMap((o) => [o.deployer, o.firstHolder])).not.toContain(LP_PROVIDER);
  });
});
