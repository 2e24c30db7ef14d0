import { zeroAddress, type Address, type Hash } from 'viem';
import { describe, expect, it } from 'vitest';
import { addr, TKN, TKN_USDC, tokenUsdc, trade, units } from '../data/testing/fixtures.js';
import { liquidityShifts, tokenFlow, whaleActivity, whaleWallets, type WhaleEvent } from './flows.js';

const [LP, WHALE, FRIEND, ROUTER] = [addr(0x1b), addr(0x3a1e), addr(0xf1e), addr(0x7007)];

describe('liquidity-shifts/v1', () => {
  it('each Mint and Burn valued at the price of its own block', async () => {
    const fx = tokenUsdc(10_000, 50_000); // TKN $5
    fx.mint(10, TKN_USDC, units(1_000, 18), units(5_000, 6), fx.tx(LP));
    fx.sync(15, TKN_USDC, units(10_000, 18), units(60_000, 6)); // TKN $6
    fx.burn(20, TKN_USDC, units(100, 18), units(600, 6), LP, fx.tx(LP));
    const r = await liquidityShifts(await fx.market(), 0);
    // In: 1,000·$5 + $5,000; out: 100·$6 + $600.
    expect(r.pools).toEqual([{ pool: TKN_USDC, token0: 'TKN', token1: 'USDC', addedUsd: 10_000, removedUsd: 1_200, events: 2, unpriced: 0, netUsd: 8_800 }]);
    expect(r.eventCount).toBe(2);
    expect(r.largestEvents.map((e) => [e.kind, e.usd])).toEqual([['added', 10_000], ['removed', 1_200]]);
  });

  it('the period starts where it says: earlier events are not counted', async () => {
    const fx = tokenUsdc();
    fx.mint(10, TKN_USDC, units(1_000, 18), units(5_000, 6), fx.tx(LP));
    expect(await liquidityShifts(await fx.market(20), 11)).toEqual({ pools: [], largestEvents: [], eventCount: 0 });
  });
});

describe('whales/v1', () => {
  it('swaps and wallet-to-wallet transfers of $100,000 or more; pool legs, mints and smaller moves left out', async () => {
    const fx = tokenUsdc(100_000, 500_000); // TKN $5
    // A $200,000 buy through a router: the whale is the transaction's sender, not the router.
    const buy = fx.tx(WHALE);
    fx.swap(30, TKN_USDC, { to: ROUTER, router: ROUTER, a1In: units(200_000, 6), a0Out: units(39_000, 18) }, buy);
    fx.transfer(30, TKN, TKN_USDC, ROUTER, units(39_000, 18), buy); // a pool leg
    fx.transfer(31, TKN, WHALE, FRIEND, units(30_000, 18)); // $150,000
    fx.transfer(32, TKN, WHALE, FRIEND, units(10_000, 18)); // $50,000: too small
    fx.transfer(33, TKN, zeroAddress, WHALE, units(50_000, 18)); // a mint
    trade(fx, 34, FRIEND, 'buy', 100, 500); // small
    const events = await whaleActivity(await fx.market(), 0);
    expect(events.map((e) => ({ kind: e.kind, wallet: e.wallet, usd: e.usd, block: e.block, token: e.token, tokenOut: e.tokenOut }))).toEqual([
      // Which way: the swap paid USDC in and took TKN out; the transfer sent TKN.
      { kind: 'swap', wallet: WHALE, usd: 200_000, block: 30, token: fx.usdc, tokenOut: TKN },
      { kind: 'transfer', wallet: WHALE, usd: 150_000, block: 31, token: TKN, tokenOut: null },
    ]);
    expect(whaleWallets(events)).toEqual(new Set([WHALE]));
  });

  const event = (wallet: Address, kind: WhaleEvent['kind'], block: number): WhaleEvent =>
    ({ kind, wallet, block, counterparty: null, token: TKN, symbol: 'TKN', tokenOut: null, symbolOut: null, usd: 100_000, time: '', tx: '0x' as Hash });

  it('a whale moves in two blocks or more, at least once by transfer, and is no treasury', () => {
    const events = [
      event(addr(1), 'swap', 1), event(addr(1), 'transfer', 2), // whale
      event(addr(2), 'swap', 1), event(addr(2), 'swap', 2), // trades only
      event(addr(3), 'swap', 5), event(addr(3), 'transfer', 5), // one block
      event(addr(4), 'transfer', 1), event(addr(4), 'transfer', 9), // a treasury paying out
    ];
    expect(whaleWallets(events, new Set([addr(4)]))).toEqual(new Set([addr(1)]));
    expect(whaleWallets([])).toEqual(new Set());
  });
});

describe('token-flow/v1', () => {
  it('a buy takes the token out of its pool, a sell puts it in; each valued at the price of its block', async () => {
    const fx = tokenUsdc(10_000, 50_000);
    fx.sync(5, TKN_USDC, units(10_000, 18), units(50_000, 6)); // TKN $5
    trade(fx, 10, FRIEND, 'buy', 100, 500);
    fx.sync(12, TKN_USDC, units(10_000, 18), units(60_000, 6)); // TKN $6
    trade(fx, 15, WHALE, 'sell', 40, 240);
    trade(fx, 16, WHALE, 'sell', 10, 60);
    expect(await tokenFlow(await fx.market(), TKN, 0)).toEqual({ boughtUsd: 500, soldUsd: 300, netUsd: 200, buys: 1, sells: 2 });
    // From block 11 on, only the sells count.
    expect(await tokenFlow(await fx.market(), TKN, 11)).toMatchObject({ boughtUsd: 0, soldUsd: 300, buys: 0, sells: 2 });
  });
});
