import { getAddress, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { CHAINS, EMBEDDED_FIXED_YIELD_FACTORY } from '../../chain/chains.js';
import type { ConnectedChain } from '../../chain/runtime.js';
import { addr } from '../data/testing/fixtures.js';
import { fixedYieldMarkets, impliedApy, ptPool } from './engine.js';
import type { Market, Pool } from '../data/market.js';
import { rankingApy, vaultRows } from '../vaults/engine.js';

const DAY = 86_400;
const HEAD = 1_700_000_000 + 40 * DAY;
const BLOCK = 1000;
const tsOf = (block: number) => HEAD - (BLOCK - block) * 3600;
const USDC = getAddress(CHAINS.base.usdc);
const VAULT = getAddress(addr(0x4626));
const at = (n: number): Address => getAddress(addr(n));
const [PT_LIVE, YT_LIVE, PT_LONG, YT_LONG, PT_OLD, YT_OLD, PT_BARE, YT_BARE] = [at(0x11), at(0x12), at(0x21), at(0x22), at(0x31), at(0x32), at(0x41), at(0x42)];
const [PAIR_DEEP, PAIR_SHALLOW, PAIR_LONG, PAIR_OLD] = [addr(0xa1), addr(0xa2), addr(0xa3), addr(0xa4)];
/** The vault's share price compounds at 6% a year from block 100. */
const priceAt = (t: number) => Math.pow(1.06, (t - tsOf(100)) / (365 * DAY));
const SYMBOLS: Record<string, string> = { [PT_LIVE]: 'PT-syUSDC-a', [YT_LIVE]: 'YT-syUSDC-a', [PT_LONG]: 'PT-syUSDC-b', [YT_LONG]: 'YT-syUSDC-b', [PT_OLD]: 'PT-syUSDC-c', [YT_OLD]: 'YT-syUSDC-c', [PT_BARE]: 'PT-syUSDC-d', [YT_BARE]: 'YT-syUSDC-d' };

/** A node answering what fixed-yield/v1 and vaults/v1 read: the factory's and the vault's logs, and contract reads. */
function fakeChain(logs: { address: Address; eventName: string; args: Record<string, unknown>; blockNumber: bigint; blockTimestamp?: bigint }[]) {
  const client = {
    getLogs: async (q: { address: Address | Address[]; fromBlock: bigint; toBlock: bigint }) => {
      const wanted = new Set((Array.isArray(q.address) ? q.address : [q.address]).map((a) => a.toLowerCase()));
      return logs.filter((l) => wanted.has(l.address.toLowerCase()) && l.blockNumber >= q.fromBlock && l.blockNumber <= q.toBlock);
    },
    getBlock: async ({ blockNumber }: { blockNumber: bigint }) => ({ number: blockNumber, timestamp: BigInt(tsOf(Number(blockNumber))) }),
    readContract: async ({ address, functionName, args }: { address: Address; functionName: string; args?: readonly unknown[] }) => {
      const a = getAddress(address);
      if (a === USDC) return ({ symbol: 'USDC', decimals: 6, balanceOf: 900_000_000_000n } as Record<string, unknown>)[functionName];
      if (SYMBOLS[a]) return ({ symbol: SYMBOLS[a], decimals: 6 } as Record<string, unknown>)[functionName];
      if (a !== VAULT) throw new Error('execution reverted');
      switch (functionName) {
        case 'asset': return USDC;
        case 'name': return 'Sibyl Yield-Bearing USDC';
        case 'symbol': return 'syUSDC';
        case 'decimals': return 6;
        case 'totalAssets': return 1_000_000_000_000n;
        case 'totalSupply': return 990_000_000_000n;
        case 'maxDeposit': return 2n ** 256n - 1n;
        case 'deprecated': return false;
        case 'convertToAssets': return BigInt(Math.round(Number(args![0]) * priceAt(HEAD)));
      }
      throw new Error(`unanswered ${functionName}`);
    },
  };
  return { name: 'base', spec: CHAINS.base, client } as unknown as ConnectedChain;
}

const created = (pt: Address, yt: Address, maturity: number, block: number) => ({
  address: EMBEDDED_FIXED_YIELD_FACTORY, eventName: 'MarketCreated', blockNumber: BigInt(block),
  args: { share: VAULT, underlying: USDC, maturity: BigInt(maturity), pt, yt },
});
const deposit = (block: number, shares: bigint) => ({
  address: VAULT, eventName: 'Deposit', blockNumber: BigInt(block), blockTimestamp: BigInt(tsOf(block)),
  args: { sender: addr(0xb0), owner: addr(0xb0), assets: BigInt(Math.round(Number(shares) * priceAt(tsOf(block)))), shares },
});

/** A pool of `pt` against USDC holding `ptUnits` PT and `usdcUnits` USDC (whole units, 6 decimals each). */
const pool = (pair: string, pt: Address, ptUnits: number, usdcUnits: number): Pool => {
  const [p, u] = [BigInt(Math.round(ptUnits * 1e6)), BigInt(Math.round(usdcUnits * 1e6))];
  return pt.toLowerCase() < USDC.toLowerCase()
    ? { pair, dex: 'uniswap-v2', token0: pt.toLowerCase(), token1: USDC.toLowerCase(), r0: p, r1: u }
    : { pair, dex: 'uniswap-v2', token0: USDC.toLowerCase(), token1: pt.toLowerCase(), r0: u, r1: p };
};

/** The slice of a Market the engine reads: pools, decimals, token metadata and the underlying's USD price. */
const fakeMarket = (pools: Pool[]) => ({
  pools,
  decimals: () => 6,
  tokens: new Map([[USDC.toLowerCase(), { address: USDC, symbol: 'USDC', name: 'USD Coin', decimals: 6 }]]),
  priceNow: (t: string) => (t.toLowerCase() === USDC.toLowerCase() ? { usd: 1, pool: null, quote: null } : null),
}) as unknown as Market;

describe('fixed-yield/v1', () => {
  it('implied APY = (1 / price)^(365 days / time to maturity) - 1', () => {
    expect(impliedApy(0.97, 180 * DAY)).toBeCloseTo(Math.pow(1 / 0.97, 365 / 180) - 1, 12);
    expect(impliedApy(1 / 1.05, 365 * DAY)).toBeCloseTo(0.05, 12);
    // A PT at par fixes nothing; above par, a negative rate.
    expect(impliedApy(1, 30 * DAY)).toBe(0);
    expect(impliedApy(1.001, 30 * DAY)).toBeLessThan(0);
  });

  it('the PT\'s deepest pool against the underlying, by underlying reserve; empty pools and other pairs ignored', () => {
    const other = { ...pool('0xb1', PT_LIVE, 1, 1), token0: PT_LIVE.toLowerCase(), token1: addr(0x99) };
    const empty = { ...pool('0xb2', PT_LIVE, 0, 0) };
    const market = { pools: [pool(PAIR_SHALLOW, PT_LIVE, 1_000, 990), pool(PAIR_DEEP, PT_LIVE, 100_000, 98_000), other, empty] };
    expect(ptPool(market, PT_LIVE, USDC)?.pair).toBe(PAIR_DEEP);
    expect(ptPool(market, PT_BARE, USDC)).toBeNull();
  });

  it('reads every factory market: implied APY from the pool reserves and time to maturity, liquidity, the variable rate vaults/v1 realises, the spread and notes; best implied first, matured and unpriced last', async () => {
    const logs = [
      created(PT_LIVE, YT_LIVE, HEAD + 90 * DAY, 100), created(PT_LONG, YT_LONG, HEAD + 3 * DAY, 100),
      created(PT_OLD, YT_OLD, HEAD - 2 * DAY, 100), created(PT_BARE, YT_BARE, HEAD + 60 * DAY, 101),
      ...[100, 400, 700, 950].map((b) => deposit(b, 10_000_000_000n)),
    ];
    const chain = fakeChain(logs);
    const market = fakeMarket([
      pool(PAIR_DEEP, PT_LIVE, 1_000_000, 985_000), pool(PAIR_SHALLOW, PT_LIVE, 1_000, 999),
      pool(PAIR_LONG, PT_LONG, 5_000, 4_998), pool(PAIR_OLD, PT_OLD, 0.001001, 0.001),
    ]);
    const rows = await fixedYieldMarkets(chain, market, { block: BLOCK, timestamp: HEAD });
    expect(rows.map((r) => r.market)).toEqual([YT_LIVE, YT_LONG, YT_BARE, YT_OLD]);

    // The variable rate is vaults/v1's own reading of the share.
    const { vaults: [row] } = await vaultRows(chain, market, { number: BigInt(BLOCK), timestamp: BigInt(HEAD) }, [VAULT]);
    const variable = rankingApy(row!)!;
    expect(variable.apyPct).toBeCloseTo(6, 3);

    const [live, near, bare, old] = rows as [typeof rows[0], typeof rows[0], typeof rows[0], typeof rows[0]];
    expect(live).toMatchObject({
      pt: { address: PT_LIVE, symbol: 'PT-syUSDC-a', decimals: 6 }, yt: { address: YT_LIVE, symbol: 'YT-syUSDC-a' },
      vault: { address: VAULT, name: 'Sibyl Yield-Bearing USDC', symbol: 'syUSDC' }, underlying: { address: USDC, symbol: 'USDC', decimals: 6 },
      matured: false, daysToMaturity: 90, maturity: new Date((HEAD + 90 * DAY) * 1000).toISOString(),
      pool: { pair: getAddress(PAIR_DEEP), reservePt: '1000000', reserveUnderlying: '985000' }, ptPrice: 0.985,
      variableApy: { ...variable, window: '7d' },
    });
    expect(live.impliedApyPct).toBeCloseTo((Math.pow(1 / 0.985, 365 / 90) - 1) * 100, 3);
    expect(live.liquidityUsd).toBeCloseTo(985_000 * 2, 2);
    expect(live.spreadPct).toBeCloseTo(live.impliedApyPct! - variable.apyPct, 4);
    expect(live.notes).toEqual([]);

    expect(near.notes.map((n) => n.kind)).toEqual(['near-maturity', 'thin-liquidity']);
    expect(near.impliedApyPct).toBeCloseTo((Math.pow(5_000 / 4_998, 365 / 3) - 1) * 100, 3);

    expect(bare).toMatchObject({ pool: null, ptPrice: null, impliedApyPct: null, liquidityUsd: null, spreadPct: null });
    expect(bare.notes.map((n) => n.kind)).toEqual(['no-pool']);

    expect(old).toMatchObject({ matured: true, daysToMaturity: 0, impliedApyPct: null, spreadPct: null });
    expect(old.ptPrice).toBeCloseTo(0.001 / 0.001001, 6);
    expect(old.notes.map((n) => n.kind)).toEqual(['matured', 'thin-liquidity']);
  });

  it('no market, or a share with no price history: nothing guessed', async () => {
    expect(await fixedYieldMarkets(fakeChain([]), fakeMarket([]), { block: BLOCK, timestamp: HEAD })).toEqual([]);
    const rows = await fixedYieldMarkets(fakeChain([created(PT_LIVE, YT_LIVE, HEAD + 90 * DAY, 100)]), fakeMarket([pool(PAIR_DEEP, PT_LIVE, 1_000_000, 985_000)]), { block: BLOCK, timestamp: HEAD });
    expect(rows[0]).toMatchObject({ variableApy: null, spreadPct: null });
    // The fixed rate needs only the pool: PT at 0.985 for 90 days.
    expect(rows[0]!.impliedApyPct).toBeCloseTo((Math.pow(1 / 0.985, 365 / 90) - 1) * 100, 3);
    expect(rows[0]!.notes.map((n) => n.kind)).toEqual(['no-variable-rate']);
  });
});
