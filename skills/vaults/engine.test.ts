import { getAddress, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { CHAINS, EMBEDDED_VAULT_FACTORY } from '../../chain/chains.js';
import type { ConnectedChain } from '../../chain/runtime.js';
import { addr } from '../data/testing/fixtures.js';
import type { Market } from '../data/market.js';
import { bestVaults, listVaults, realisedApy, topHolderPct, type PricePoint } from './engine.js';

const DAY = 86_400;
const T_HEAD = 1_700_000_000 + 40 * DAY;
const [USDC, OWNER_A, OWNER_B, OWNER_C, FOREIGN, NOT_VAULT] = [CHAINS.base.usdc, addr(0xa1), addr(0xb2), addr(0xc3), addr(0xf0), addr(0xdead0)].map((a) => getAddress(a)) as [Address, Address, Address, Address, Address, Address];
const [GROWING, DEPRECATED] = [addr(0x4626a), addr(0x4626b)];

/** Share price of a vault compounding at `apy` a year, `t` seconds after `t0`. */
const priceAt = (apy: number, t0: number, t: number) => Math.pow(1 + apy, (t - t0) / (365 * DAY));

interface FakeVault { asset: Address; name: string; totalAssets: bigint; totalSupply: bigint; price: number; maxDeposit: bigint; deprecated?: boolean; idle: bigint }

/** A node answering what vaults/v1 reads: logs (with blockTimestamp, as anvil and recent nodes give them), contract reads, blocks. */
function fakeChain(vaults: Record<string, FakeVault>, logs: { address: Address; eventName: string; args: Record<string, unknown>; blockNumber: bigint; blockTimestamp?: bigint }[], blockLimit = Infinity) {
  let getLogsCalls = 0;
  const client = {
    getLogs: async (q: { address: Address | Address[]; fromBlock: bigint; toBlock: bigint }) => {
      getLogsCalls++;
      if (Number(q.toBlock - q.fromBlock) + 1 > blockLimit) throw new Error(`block range exceeds ${blockLimit}`);
      const wanted = new Set((Array.isArray(q.address) ? q.address : [q.address]).map((a) => a.toLowerCase()));
      return logs.filter((l) => wanted.has(l.address.toLowerCase()) && l.blockNumber >= q.fromBlock && l.blockNumber <= q.toBlock);
    },
    getBlock: async ({ blockNumber }: { blockNumber: bigint }) => ({ number: blockNumber, timestamp: BigInt(T_HEAD - (1000 - Number(blockNumber)) * 3600) }),
    readContract: async ({ address, functionName, args }: { address: Address; functionName: string; args?: readonly unknown[] }) => {
      const v = vaults[address.toLowerCase()];
      if (address.toLowerCase() === USDC.toLowerCase()) {
        if (functionName === 'symbol') return 'USDC';
        if (functionName === 'decimals') return 6;
        if (functionName === 'balanceOf') return vaults[(args![0] as string).toLowerCase()]?.idle ?? 0n;
      }
      if (!v) throw new Error('execution reverted');
      switch (functionName) {
        case 'asset': return v.asset;
        case 'name': return v.name;
        case 'symbol': return `sv${v.name}`;
        case 'decimals': return 6;
        case 'totalAssets': return v.totalAssets;
        case 'totalSupply': return v.totalSupply;
        case 'maxDeposit': return v.maxDeposit;
        case 'deprecated': if (v.deprecated === undefined) throw new Error('execution reverted'); return v.deprecated;
        case 'convertToAssets': return BigInt(Math.round(Number(args![0]) * v.price));
      }
      throw new Error(`unanswered ${functionName}`);
    },
  };
  const chain = { name: 'base', spec: CHAINS.base, client } as unknown as ConnectedChain;
  return { chain, calls: () => getLogsCalls };
}

const deposit = (vault: Address, owner: Address, block: number, price: number, shares: bigint) => ({
  address: vault, eventName: 'Deposit', blockNumber: BigInt(block), blockTimestamp: BigInt(T_HEAD - (1000 - block) * 3600),
  args: { sender: owner, owner, assets: BigInt(Math.round(Number(shares) * price)), shares },
});
const withdraw = (vault: Address, owner: Address, block: number, price: number, shares: bigint) => ({
  ...deposit(vault, owner, block, price, shares), eventName: 'Withdraw', args: { sender: owner, receiver: owner, owner, assets: BigInt(Math.round(Number(shares) * price)), shares },
});
const tsOf = (block: number) => T_HEAD - (1000 - block) * 3600;

describe('vaults/v1', () => {
  it('realised APY: from the last price at or before the window start to the head, annualised; the history there is when shorter; none under 6 hours', () => {
    const t0 = T_HEAD - 40 * DAY;
    const points: PricePoint[] = [0, 5, 20, 33, 39].map((d, i) => ({ block: i, ts: t0 + d * DAY, price: priceAt(0.08, t0, t0 + d * DAY), kind: 'deposit', owner: OWNER_A, shares: 1n }));
    const head = { ts: T_HEAD, price: priceAt(0.08, t0, T_HEAD) };
    const week = realisedApy(points, head, 7 * DAY)!;
    expect(week.apyPct).toBeCloseTo(8, 6);
    expect(week).toMatchObject({ fullWindow: true, days: 7 }); // the event at day 33 is the last before the window
    expect(realisedApy(points, head, 30 * DAY)).toMatchObject({ fullWindow: true, days: 35 }) // from day 5, the last price before day 10;
    const young = points.slice(3);
    expect(realisedApy(young, head, 30 * DAY)).toMatchObject({ fullWindow: false, days: 7 });
    expect(realisedApy([{ ...points[0]!, ts: T_HEAD - 3600 }], head, 7 * DAY)).toBeNull();
    expect(realisedApy([], head, 7 * DAY)).toBeNull();
  });

  it('the largest holder by deposits less withdrawals', () => {
    const p = (owner: Address, kind: 'deposit' | 'withdraw', shares: bigint): PricePoint => ({ block: 1, ts: 1, price: 1, kind, owner, shares });
    expect(topHolderPct([p(OWNER_A, 'deposit', 60n), p(OWNER_B, 'deposit', 40n), p(OWNER_A, 'withdraw', 30n)], 70n)).toBeCloseTo(57.14, 2);
    expect(topHolderPct([], 0n)).toBeNull();
  });

  it('finds the factory\'s vaults and a given one, prices TVL at the market, ranks the open ones by realised APY and flags a deprecated vault; reads logs in halves where the node refuses the range', async () => {
    const t0 = tsOf(100);
    const vaults: Record<string, FakeVault> = {
      [GROWING.toLowerCase()]: { asset: USDC, name: 'Growing', totalAssets: 600_000_000_000n, totalSupply: 580_000_000_000n, price: priceAt(0.06, t0, T_HEAD), maxDeposit: 2n ** 256n - 1n, idle: 120_000_000_000n },
      [DEPRECATED.toLowerCase()]: { asset: USDC, name: 'Old', totalAssets: 5_000_000_000n, totalSupply: 4_990_000_000n, price: priceAt(0.06, t0, tsOf(700)), maxDeposit: 0n, deprecated: true, idle: 5_000_000_000n },
      [FOREIGN.toLowerCase()]: { asset: USDC, name: 'Foreign', totalAssets: 1_000_000_000n, totalSupply: 1_000_000_000n, price: priceAt(0.12, t0, T_HEAD), maxDeposit: 2n ** 256n - 1n, idle: 10_000_000n },
    };
    const created = (vault: Address, block: number) => ({ address: EMBEDDED_VAULT_FACTORY, eventName: 'VaultCreated', blockNumber: BigInt(block), args: { vault, asset: USDC, curator: OWNER_A, name: 'x', symbol: 'x' } });
    const logs = [
      created(GROWING, 99), created(DEPRECATED, 99),
      ...[100, 300, 500, 700, 850, 990].flatMap((b, i) => [deposit(GROWING, [OWNER_A, OWNER_B, OWNER_C][i % 3]!, b, priceAt(0.06, t0, tsOf(b)), 100_000_000_000n)]),
      deposit(DEPRECATED, OWNER_A, 100, 1, 5_000_000_000n), deposit(DEPRECATED, OWNER_B, 300, priceAt(0.06, t0, tsOf(300)), 4_000_000_000n),
      withdraw(DEPRECATED, OWNER_B, 800, priceAt(0.06, t0, tsOf(700)), 4_010_000_000n),
      deposit(FOREIGN, OWNER_A, 100, 1, 1_000_000_000n),
    ];
    const node = fakeChain(vaults, logs, 400);
    const market = { priceNow: (t: string) => (t.toLowerCase() === USDC.toLowerCase() ? { usd: 1, pool: null, quote: null } : null) } as unknown as Market;
    const { vaults: rows, notVaults } = await listVaults(node.chain, market, { number: 1000n, timestamp: BigInt(T_HEAD) }, [FOREIGN, NOT_VAULT]);
    expect(node.calls()).toBeGreaterThan(2); // 1,001 blocks asked of a node that answers 400 at most
    expect(notVaults).toEqual([NOT_VAULT]);
    expect(rows.map((r) => [r.vault, r.discoveredBy, r.tvlUsd])).toEqual([[GROWING, 'factory', 600_000], [DEPRECATED, 'factory', 5_000], [FOREIGN, 'given', 1_000]]);

    const growing = rows[0]!;
    expect(growing.apy['7d']!.apyPct).toBeCloseTo(6, 3);
    expect(growing.apy['30d']!.apyPct).toBeCloseTo(6, 3);
    expect(growing.apy['30d']!.fullWindow).toBe(true);
    expect(growing.risks.map((r) => r.kind)).toEqual([]);

    const old = rows[1]!;
    expect(old.deprecated).toBe(true);
    // Income stopped at block 700: nothing over the last week.
    expect(old.apy['7d']!.apyPct).toBeCloseTo(0, 3);
    expect(old.risks.map((r) => r.kind)).toEqual(['deprecated', 'no-income', 'concentration']);

    const foreign = rows[2]!;
    expect(foreign.risks.map((r) => r.kind)).toEqual(['concentration', 'low-idle']);
    expect(bestVaults(rows, USDC).map((r) => r.vault)).toEqual([FOREIGN, GROWING]);
  });
});
