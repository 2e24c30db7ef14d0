import { zeroAddress, type Address, type Hash } from 'viem';
import { describe, expect, it } from 'vitest';
import { LENDING_MARKETS } from '../../chain/chains.js';
import { addr, TKN, TKN_USDC, tokenUsdc, trade, units } from '../data/testing/fixtures.js';
import { entityBook } from '../data/entities.js';
import { holderConcentration } from '../holders/engine.js';
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

describe('whales/v2', () => {
  it('swaps and wallet-to-wallet transfers of $100,000 or more; pool legs, mints and smaller moves left out', async () => {
    const fx = tokenUsdc(100_000, 500_000); // TKN $5
    fx.transfer(1, TKN, zeroAddress, addr(0x7ea), units(1_000, 18), fx.tx(addr(0xde9))); // TKN's first mint, to its treasury
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
    expect(whaleWallets(events, await entityBook(await fx.market()))).toEqual(new Set([WHALE]));
  });

  it('a multi-hop route is one whale swap of its sender (trades/v1), from what it paid in to what it got out', async () => {
    const fx = tokenUsdc(100_000, 500_000); // TKN $5
    fx.pool(addr(0xe0), fx.weth, fx.usdc, units(1_000, 18), units(2_000_000, 6)); // WETH $2,000
    // TKN -> USDC (held by the router) -> WETH, one transaction: $200,000 paid in once, not twice.
    const route = fx.tx(WHALE);
    fx.swap(30, TKN_USDC, { to: ROUTER, router: ROUTER, a0In: units(40_000, 18), a1Out: units(199_000, 6) }, route);
    fx.swap(30, addr(0xe0), { to: WHALE, router: ROUTER, a1In: units(199_000, 6), a0Out: units(90, 18) }, route);
    const events = await whaleActivity(await fx.market(), 0);
    expect(events.map((e) => ({ kind: e.kind, wallet: e.wallet, usd: e.usd, token: e.token, tokenOut: e.tokenOut, tx: e.tx }))).toEqual([
      { kind: 'swap', wallet: WHALE, usd: 200_000, token: TKN, tokenOut: fx.weth, tx: route },
    ]);
  });

  const event = (wallet: Address, kind: WhaleEvent['kind'], block: number, counterparty: Address | null = null): WhaleEvent =>
    ({ kind, wallet, block, counterparty, token: TKN, symbol: 'TKN', tokenOut: null, symbolOut: null, usd: 100_000, time: '', tx: '0x' as Hash });
  const contracts = new Set([addr(0xc0de)]);
  const entities = new Set([addr(4)]);
  const book = { isContract: (a: string) => contracts.has(a as Address), isPlainWallet: (a: string) => !contracts.has(a as Address) && !entities.has(a as Address) };

  it('a whale moves in two blocks or more, at least once by transfer to a wallet, and is no entity', () => {
    const events = [
      event(addr(1), 'swap', 1), event(addr(1), 'transfer', 2, addr(9)), // whale
      event(addr(2), 'swap', 1), event(addr(2), 'swap', 2), // trades only
      event(addr(3), 'swap', 5), event(addr(3), 'transfer', 5, addr(9)), // one block
      event(addr(4), 'transfer', 1, addr(9)), event(addr(4), 'transfer', 9, addr(9)), // an entity (a treasury paying out)
      event(addr(5), 'transfer', 1, addr(0xc0de)), event(addr(5), 'transfer', 9, addr(0xc0de)), // deposits into a contract
      event(addr(0xc0de), 'transfer', 1, addr(5)), event(addr(0xc0de), 'transfer', 9, addr(5)), // a contract paying out
    ];
    expect(whaleWallets(events, book)).toEqual(new Set([addr(1)]));
    expect(whaleWallets([], book)).toEqual(new Set());
  });

  // The world's module actors moved whale-size value too: a vault lending to its strategy and taking
  // it back, a supplier paying into the lending market, the genesis treasury handing out its supply.
  // By whales/v1 (transfers in two blocks, deployers and first holders aside) the vault, its strategy
  // and the supplier were sold as whales; none is one.
  it('protocol contracts, their actors and treasuries are no whales; a wallet that pays wallets is', async () => {
    const fx = tokenUsdc(100_000, 500_000); // TKN $5
    const [treasury, deployer, vault, strategy, supplier, lending] = [addr(0x7ea), addr(0xde9), addr(0x4a17), addr(0x5747), addr(0x5099), LENDING_MARKETS.base!.pool.toLowerCase() as Address];
    for (const c of [vault, lending]) fx.code.set(c, '0x6080604052');
    fx.transfer(2, TKN, zeroAddress, treasury, units(1_000_000, 18), fx.tx(deployer));
    fx.transfer(3, TKN, treasury, WHALE, units(40_000, 18)); // $200,000 each
    fx.transfer(4, TKN, treasury, FRIEND, units(40_000, 18));
    fx.transfer(10, fx.usdc, vault, strategy, units(400_000, 6));
    fx.transfer(20, fx.usdc, strategy, vault, units(150_000, 6));
    fx.transfer(21, fx.usdc, vault, strategy, units(150_000, 6));
    fx.transfer(22, fx.usdc, strategy, vault, units(150_000, 6));
    fx.transfer(11, fx.usdc, supplier, lending, units(200_000, 6));
    fx.transfer(12, fx.usdc, supplier, lending, units(200_000, 6));
    fx.transfer(30, TKN, WHALE, FRIEND, units(30_000, 18));
    fx.transfer(31, TKN, WHALE, FRIEND, units(30_000, 18));
    const market = await fx.market();
    const events = await whaleActivity(market, 0);
    expect(new Set(events.map((e) => e.wallet))).toEqual(new Set([treasury, vault, strategy, supplier, WHALE]));
    const book = await entityBook(market);
    expect(whaleWallets(events, book)).toEqual(new Set([WHALE]));
    expect(Object.fromEntries([treasury, vault, strategy, supplier, lending, WHALE].map((a) => [a, book.kind(a)]))).toEqual({
      [treasury]: 'treasury', [vault]: 'protocol', [strategy]: 'protocol-actor', [supplier]: 'protocol-actor', [lending]: 'protocol', [WHALE]: null,
    });
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
