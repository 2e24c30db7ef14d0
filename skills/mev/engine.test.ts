import { describe, expect, it } from 'vitest';
import { addr, units, withNative } from '../data/testing/fixtures.js';
import { detectSandwiches } from './engine.js';

const TKN = addr(0x70c);
const POOL = addr(0x9001);
const ATTACKER = addr(0xa77);
const VICTIM = addr(0xb1c);
const ROUTER = addr(0x7007);
const GWEI = 1_000_000_000n;
/** The fixture's WETH/USDC pool (withNative): WETH is token0, USDC token1. */
const WETH_USDC = addr(0xe0);
const WETH = withNative().weth;
const usdc = (n: number) => units(n, 6);
const USDC = withNative().usdc;
const weth = (n: number) => units(n, 18);
const tkn = (n: number) => units(n, 18);

/** WETH at $2,000; pool WETH (token0) / TKN (token1). */
function world() {
  const fx = withNative(2_000);
  fx.token(TKN, 'TKN', 18);
  fx.pool(POOL, fx.weth, TKN, weth(10), tkn(10_000));
  return fx;
}

describe('sandwich/v2', () => {
  it('front and back legs of one sender around a victim: profit in the paid token, in USD net of both legs\' gas; the router is not the attacker', async () => {
    const fx = world();
    // Every leg goes through the router: the log's sender is the router, the transaction's is the trader.
    fx.swap(5, POOL, { to: ATTACKER, router: ROUTER, a0In: weth(1), a1Out: tkn(1_000) }, fx.tx(ATTACKER, { gasUsed: 100_000n, gasPrice: 10n * GWEI }));
    const victimTx = fx.tx(VICTIM);
    fx.swap(5, POOL, { to: VICTIM, router: ROUTER, a0In: weth(2), a1Out: tkn(1_900) }, victimTx);
    fx.swap(5, POOL, { to: ATTACKER, router: ROUTER, a1In: tkn(1_000), a0Out: weth(1.1) }, fx.tx(ATTACKER, { gasUsed: 120_000n, gasPrice: 10n * GWEI }));
    const market = await fx.market();
    const found = await detectSandwiches(market.chain, market, await market.reader.swaps(0, market.head.block));
    expect(found).toHaveLength(1);
    const s = found[0]!;
    expect(s.attacker).toBe(ATTACKER);
    expect(s.victims).toEqual([{ address: VICTIM, tx: victimTx }]);
    expect(s.profitToken).toBe(fx.weth);
    // Paid 1 WETH, got 1.1 back: 0.1 WETH = $200; gas (100k + 120k) x 10 gwei = 0.0022 ETH = $4.40.
    expect(s.grossProfit).toBeCloseTo(0.1, 12);
    expect(s.gasUsd).toBeCloseTo(4.4, 9);
    expect(s.netProfitUsd).toBeCloseTo(195.6, 9);
  });

  it('three traders through one router are not a sandwich (the router is never an attacker)', async () => {
    const fx = world();
    // The router receives every output itself (to = router), as a multi-hop route does.
    fx.swap(5, POOL, { to: ROUTER, a0In: weth(1), a1Out: tkn(1_000) }, fx.tx(addr(0x101)));
    fx.swap(5, POOL, { to: ROUTER, a0In: weth(2), a1Out: tkn(1_900) }, fx.tx(addr(0x102)));
    fx.swap(5, POOL, { to: ROUTER, a1In: tkn(1_000), a0Out: weth(1.1) }, fx.tx(addr(0x103)));
    const market = await fx.market();
    expect(await detectSandwiches(market.chain, market, await market.reader.swaps(0, market.head.block))).toEqual([]);
  });

  const legs = async (opts: { backOut: number; victimBuysToken: boolean; backBlock: number }) => {
    const fx = world();
    fx.swap(5, POOL, { to: ATTACKER, a0In: weth(1), a1Out: tkn(1_000) }, fx.tx(ATTACKER, { gasUsed: 1n, gasPrice: 1n }));
    fx.swap(5, POOL, opts.victimBuysToken ? { to: VICTIM, a0In: weth(2), a1Out: tkn(1_900) } : { to: VICTIM, a1In: tkn(1_900), a0Out: weth(1.8) });
    fx.swap(opts.backBlock, POOL, { to: ATTACKER, a1In: tkn(1_000), a0Out: weth(opts.backOut) }, fx.tx(ATTACKER, { gasUsed: 1n, gasPrice: 1n }));
    if (opts.backBlock !== 5) fx.swap(opts.backBlock, POOL, { to: addr(0x555), a0In: weth(1), a1Out: tkn(900) });
    const market = await fx.market();
    return detectSandwiches(market.chain, market, await market.reader.swaps(0, market.head.block));
  };

  it('a round trip that returns less than it paid is not a sandwich', async () => {
    expect(await legs({ backOut: 0.9, victimBuysToken: true, backBlock: 5 })).toEqual([]);
  });

  it('a trade in the other direction between the legs is no victim', async () => {
    expect(await legs({ backOut: 1.1, victimBuysToken: false, backBlock: 5 })).toEqual([]);
  });

  it('a back leg two blocks on, or behind another trade in the next block, is no sandwich (joined on blocks, never on time)', async () => {
    expect(await legs({ backOut: 1.1, victimBuysToken: true, backBlock: 7 })).toEqual([]);
    // `legs` puts another trader's buy on the pool in the back leg's block; here it goes first.
    const fx = world();
    fx.swap(5, POOL, { to: ATTACKER, a0In: weth(1), a1Out: tkn(1_000) }, fx.tx(ATTACKER, { gasUsed: 1n, gasPrice: 1n }));
    fx.swap(5, POOL, { to: VICTIM, a0In: weth(2), a1Out: tkn(1_900) });
    fx.swap(6, POOL, { to: addr(0x555), a0In: weth(1), a1Out: tkn(900) });
    fx.swap(6, POOL, { to: ATTACKER, a1In: tkn(1_000), a0Out: weth(1.1) }, fx.tx(ATTACKER, { gasUsed: 1n, gasPrice: 1n }));
    const market = await fx.market();
    expect(await detectSandwiches(market.chain, market, await market.reader.swaps(0, market.head.block))).toEqual([]);
  });

  it('a next-block back-run: the back leg first on the pool in the next block closes the sandwich', async () => {
    const found = await legs({ backOut: 1.1, victimBuysToken: true, backBlock: 6 });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ block: 5, backBlock: 6, attacker: ATTACKER, victims: [{ address: VICTIM }], profitToken: WETH });
    expect(found[0]!.grossProfit).toBeCloseTo(0.1, 12);
  });

  it('a next-block round trip that sells back another amount than the front bought is a trader\'s, not a back-run', async () => {
    const fx = world();
    fx.swap(5, POOL, { to: ATTACKER, a0In: weth(1), a1Out: tkn(1_000) }, fx.tx(ATTACKER, { gasUsed: 1n, gasPrice: 1n }));
    fx.swap(5, POOL, { to: VICTIM, a0In: weth(2), a1Out: tkn(1_900) });
    fx.swap(6, POOL, { to: ATTACKER, a1In: tkn(700), a0Out: weth(1.1) }, fx.tx(ATTACKER, { gasUsed: 1n, gasPrice: 1n }));
    const market = await fx.market();
    expect(await detectSandwiches(market.chain, market, await market.reader.swaps(0, market.head.block))).toEqual([]);
  });

  it('an arbitrageur\'s legs across two blocks, each sold on another pool in its block, are no next-block back-run', async () => {
    const fx = world();
    const OTHER = addr(0x9002);
    fx.pool(OTHER, fx.weth, TKN, weth(10), tkn(9_000));
    const arb = (block: number, legs: Parameters<typeof fx.swap>[2][]) => { for (const leg of legs) fx.swap(block, leg === legs[0] ? POOL : OTHER, leg, fx.tx(ATTACKER, { gasUsed: 1n, gasPrice: 1n })); };
    // Block 5: buys TKN on POOL, sells it on OTHER; the victim buys on POOL after it.
    arb(5, [{ to: ATTACKER, a0In: weth(1), a1Out: tkn(1_000) }, { to: ATTACKER, a1In: tkn(1_000), a0Out: weth(1.05) }]);
    fx.swap(5, POOL, { to: VICTIM, a0In: weth(2), a1Out: tkn(1_900) });
    // Block 6: first on POOL, sells TKN there for more WETH than block 5 paid, having bought it on OTHER.
    arb(6, [{ to: ATTACKER, a1In: tkn(1_000), a0Out: weth(1.1) }, { to: ATTACKER, a0In: weth(1), a1Out: tkn(1_000) }]);
    const market = await fx.market();
    expect(await detectSandwiches(market.chain, market, await market.reader.swaps(0, market.head.block))).toEqual([]);
  });

  it('control: the same legs with a victim in the front\'s direction are found', async () => {
    expect(await legs({ backOut: 1.1, victimBuysToken: true, backBlock: 5 })).toHaveLength(1);
  });

  it('no swaps, no sandwiches', async () => {
    const market = await world().market();
    expect(await detectSandwiches(market.chain, market, [])).toEqual([]);
  });

  describe('routes (trades/v1): a multi-hop swap is one trade of its sender', () => {
    /** The attacker's legs as routes USDC -> WETH -> TKN and back TKN -> WETH -> USDC, through the router. */
    const routed = async (opts: { backUsdc: number; victimRouted: boolean }) => {
      const fx = world();
      const front = fx.tx(ATTACKER, { gasUsed: 100_000n, gasPrice: 10n * GWEI });
      fx.swap(5, WETH_USDC, { to: POOL, router: ROUTER, a1In: usdc(2_000), a0Out: weth(1) }, front);
      fx.swap(5, POOL, { to: ATTACKER, router: ROUTER, a0In: weth(1), a1Out: tkn(1_000) }, front);
      const victimTx = fx.tx(VICTIM);
      if (opts.victimRouted) {
        // The victim pays USDC: its route crosses WETH/USDC, then the sandwiched pool.
        fx.swap(5, WETH_USDC, { to: POOL, router: ROUTER, a1In: usdc(4_100), a0Out: weth(2) }, victimTx);
        fx.swap(5, POOL, { to: VICTIM, router: ROUTER, a0In: weth(2), a1Out: tkn(1_900) }, victimTx);
      } else {
        fx.swap(5, POOL, { to: VICTIM, router: ROUTER, a0In: weth(2), a1Out: tkn(1_900) }, victimTx);
      }
      const back = fx.tx(ATTACKER, { gasUsed: 120_000n, gasPrice: 10n * GWEI });
      fx.swap(5, POOL, { to: WETH_USDC, router: ROUTER, a1In: tkn(1_000), a0Out: weth(1.1) }, back);
      fx.swap(5, WETH_USDC, { to: ATTACKER, router: ROUTER, a0In: weth(1.1), a1Out: usdc(opts.backUsdc) }, back);
      const market = await fx.market();
      return { found: await detectSandwiches(market.chain, market, await market.reader.swaps(0, market.head.block)), front, back, victimTx };
    };

    it('multi-hop legs: profit is the routes\' round trip in the token the attacker paid (USDC), not the pool\'s side', async () => {
      const { found, front, back, victimTx } = await routed({ backUsdc: 2_150, victimRouted: false });
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ block: 5, backBlock: 5, pool: POOL, attacker: ATTACKER, frontTx: front, backTx: back, victims: [{ address: VICTIM, tx: victimTx }], profitToken: USDC });
      // Paid 2,000 USDC, got 2,150 back: $150 less gas (220k x 10 gwei = 0.0022 ETH at $2,000 = $4.40).
      expect(found[0]!.grossProfit).toBeCloseTo(150, 9);
      expect(found[0]!.netProfitUsd).toBeCloseTo(145.6, 6);
    });

    it('multi-hop legs that gain WETH on the pool but return less USDC than they paid are a losing round trip, no sandwich', async () => {
      expect((await routed({ backUsdc: 1_990, victimRouted: false })).found).toEqual([]);
    });

    it('a victim routed through two pools is one victim, its sender (never the router)', async () => {
      const { found, victimTx } = await routed({ backUsdc: 2_150, victimRouted: true });
      expect(found).toHaveLength(1);
      expect(found[0]!.victims).toEqual([{ address: VICTIM, tx: victimTx }]);
      expect(found[0]!.pool).toBe(POOL);
    });
  });
});
