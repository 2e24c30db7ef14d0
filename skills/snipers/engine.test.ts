import { describe, expect, it } from 'vitest';
import { addr, BLOCK_SECONDS, units, withNative } from '../data/testing/fixtures.js';
import { detectSnipers } from './engine.js';

const TKN = addr(0x70c);
const POOL = addr(0x9002);
const DEPLOYER = addr(0xde9);
const [EARLY, A, B, LATE, SELLER, FRIEND] = [addr(0xea), addr(0xa1), addr(0xb1), addr(0x1a7e), addr(0x5e1), addr(0xf1e)];
const tkn = (n: number) => units(n, 18);

/**
 * Pool TKN (token0) / WETH: first liquidity at block 10 by the deployer. Buys: one in block 10 before
 * the Mint, the deployer's own after it, A at +1 block, B twice at +2, LATE at +3; SELLER sells at +1.
 */
function world(secondsPerBlock?: number) {
  const fx = withNative();
  fx.token(TKN, 'TKN', 18);
  fx.pool(POOL, TKN, fx.weth, tkn(1_000_000), units(10, 18), { block: 2 });
  if (secondsPerBlock !== undefined) for (const k of [1, 2, 3]) fx.at(10 + k, fx.ts(10) + k * secondsPerBlock);
  const buy = (block: number, who: string, amount: number) => {
    fx.swap(block, POOL, { to: who as `0x${string}`, router: addr(0x7007), a1In: units(0.01, 18), a0Out: tkn(amount) });
    fx.transfer(block, TKN, POOL, who as `0x${string}`, tkn(amount));
  };
  buy(10, EARLY, 50);
  fx.mint(10, POOL, tkn(1_000_000), units(10, 18), fx.tx(DEPLOYER));
  buy(10, DEPLOYER, 70);
  buy(11, A, 1_000);
  fx.swap(11, POOL, { to: SELLER, a0In: tkn(20), a1Out: units(0.0001, 18) });
  buy(12, B, 500);
  buy(12, B, 250);
  buy(13, LATE, 400);
  // A sells 400 back into the pool later and gives 100 to a friend (not a sale).
  fx.transfer(20, TKN, A, POOL, tkn(400));
  fx.transfer(21, TKN, A, FRIEND, tkn(100));
  return fx;
}

describe('snipers/v1', () => {
  it('buys within 2 blocks and 60 s of first liquidity, never the provider, with holdings and sales since', async () => {
    const fx = world();
    const market = await fx.market();
    const r = await detectSnipers(market.chain, market, TKN);
    expect(r.pools).toEqual([{ pool: POOL, liquidityBlock: 10, liquidityAt: new Date(fx.ts(10) * 1000).toISOString(), liquidityProvider: DEPLOYER }]);
    expect(r.snipers.map((s) => s.wallet)).toEqual([A, B]);
    const [a, b] = r.snipers;
    expect(a).toMatchObject({ pool: POOL, firstBuyBlock: 11, blocksAfterLiquidity: 1, secondsAfterLiquidity: BLOCK_SECONDS, bought: 1_000, holdsNow: 500, soldSince: 400 });
    expect(b).toMatchObject({ firstBuyBlock: 12, blocksAfterLiquidity: 2, secondsAfterLiquidity: 2 * BLOCK_SECONDS, bought: 750, holdsNow: 750, soldSince: 0 });
    expect(b!.buyTxs).toHaveLength(2);
  });

  it('a buy within 2 blocks but more than 60 s after liquidity is not a snipe', async () => {
    const market = await world(61).market();
    expect((await detectSnipers(market.chain, market, TKN)).snipers).toEqual([]);
  });

  it('exactly 60 s still counts; 62 s does not', async () => {
    const late = await world(31).market();
    expect((await detectSnipers(late.chain, late, TKN)).snipers.map((s) => s.wallet)).toEqual([A]);
    const market = await world(30).market();
    expect((await detectSnipers(market.chain, market, TKN)).snipers.map((s) => s.wallet)).toEqual([A, B]);
  });

  it('a wider window takes the buy at +3 blocks', async () => {
    const market = await world().market();
    const r = await detectSnipers(market.chain, market, TKN, { blocks: 3, seconds: 60 });
    expect(r.snipers.map((s) => s.wallet)).toEqual([A, B, LATE]);
  });

  it('a token whose pool never got liquidity has no snipers', async () => {
    const fx = withNative();
    fx.token(TKN, 'TKN', 18);
    fx.pool(POOL, TKN, fx.weth, 0n, 0n);
    const market = await fx.market();
    expect(await detectSnipers(market.chain, market, TKN)).toEqual({ pools: [], snipers: [] });
  });

  it('routes (trades/v1): a multi-hop buy ending in the token is one snipe of its sender; a route passing the token on to another pool bought nothing', async () => {
    const fx = world();
    const [ROUTER, ROUTED, PASSER, TKN_USDC] = [addr(0x7007), addr(0x40e), addr(0x9a5), addr(0x9004)];
    fx.pool(TKN_USDC, TKN, fx.usdc, tkn(100_000), units(1_000, 6), { block: 2 });
    // USDC -> WETH (the WETH/USDC pool pays POOL) -> TKN to the buyer, one transaction.
    const routed = fx.tx(ROUTED);
    fx.swap(11, addr(0xe0), { to: POOL, router: ROUTER, a1In: units(20, 6), a0Out: units(0.01, 18) }, routed);
    fx.swap(11, POOL, { to: ROUTED, router: ROUTER, a1In: units(0.01, 18), a0Out: tkn(900) }, routed);
    // WETH -> TKN on POOL, paid to TKN/USDC, sold there for USDC: the sender never held TKN.
    const passing = fx.tx(PASSER);
    fx.swap(11, POOL, { to: TKN_USDC, router: ROUTER, a1In: units(0.01, 18), a0Out: tkn(800) }, passing);
    fx.swap(11, TKN_USDC, { to: PASSER, router: ROUTER, a0In: tkn(800), a1Out: units(8, 6) }, passing);
    const market = await fx.market();
    const r = await detectSnipers(market.chain, market, TKN);
    expect(r.snipers.map((s) => s.wallet)).toEqual([A, ROUTED, B]);
    expect(r.snipers.find((s) => s.wallet === ROUTED)).toMatchObject({ bought: 900, buyTxs: [routed] });
  });
});
