import { describe, expect, it } from 'vitest';
import { getAddress, toFunctionSelector, type Address, type Hex } from 'viem';
import { HookProxy, LoyaltyHook, OwnerFeeHook, VolumeOracleHook, ZeroFeeSwapHook } from '../../chain/artifacts/index.js';
import { CHAINS } from '../../chain/chains.js';
import type { ConnectedChain } from '../../chain/runtime.js';
import { codeRisks, hookPermissions, scanHookLayer } from './engine.js';
import type { Market } from '../data/market.js';
import { namedOpcodes, pushedSelectors } from '../security/bytecode.js';
import { addr } from '../data/testing/fixtures.js';

const hex = (...parts: string[]) => `0x${parts.join('')}`;

describe('hook permissions from the address bits', () => {
  it('decodes v4\'s own examples and the extremes', () => {
    // v4's documentation: 0x…2400 is before-initialize and after-add-liquidity; 0x…00C0 before- and after-swap.
    expect(hookPermissions('0x0000000000000000000000000000000000002400')).toEqual(['beforeInitialize', 'afterAddLiquidity']);
    expect(hookPermissions('0x00000000000000000000000000000000000000C0')).toEqual(['beforeSwap', 'afterSwap']);
    expect(hookPermissions('0x0000000000000000000000000000000000003fff')).toHaveLength(14);
    expect(hookPermissions('0x0000000000000000000000000000000000003fff')[13]).toBe('afterRemoveLiquidityReturnDelta');
    // The "no-op" shape: before-swap with before-swap-returns-delta; bits above the lowest 14 do not count.
    expect(hookPermissions('0xffffffffffffffffffffffffffffffffffffc088')).toEqual(['beforeSwap', 'beforeSwapReturnDelta']);
    expect(hookPermissions('0x1234567890123456789012345678901234560000')).toEqual([]);
    expect(hookPermissions('0x0000000000000000000000000000000000000001')).toEqual(['afterRemoveLiquidityReturnDelta']);
  });
});

describe('the opcode walk', () => {
  it('never takes PUSH data or the metadata trailer for opcodes', () => {
    const selector = toFunctionSelector('function pause()').slice(2);
    // PUSH1 0xff, PUSH32 full of f4/ff/f2 and a PUSH4-looking 63…, PUSH4 pause(), STOP; then a CBOR trailer holding ff and f4.
    const trailer = `a2${'ff'.repeat(4)}${'f4'.repeat(4)}`;
    const code = hex('60ff', '7f', 'f4ff63'.padEnd(64, 'f2'), '63', selector, '00', trailer, (trailer.length / 2).toString(16).padStart(4, '0'));
    expect(namedOpcodes(code)).toEqual([]);
    expect([...pushedSelectors(code)]).toEqual([`0x${selector}`]);
    expect(codeRisks(code)).toEqual({ opcodes: [], functions: ['pause()'], risks: ['owner-pause'] });
    // The same opcodes as instructions are found.
    expect(namedOpcodes(hex('60ff', 'f4', 'ff', 'f2'))).toEqual(['CALLCODE', 'DELEGATECALL', 'SELFDESTRUCT']);
  });

  it('reads the hooks the world deploys as they are: risky ones flagged, benign ones clean', () => {
    expect(codeRisks(VolumeOracleHook.deployedBytecode).risks).toEqual([]);
    expect(codeRisks(ZeroFeeSwapHook.deployedBytecode).risks).toEqual([]);
    expect(codeRisks(OwnerFeeHook.deployedBytecode)).toMatchObject({ functions: ['setFee(uint24)', 'pause()'], risks: ['owner-fee', 'owner-pause'] });
    expect(codeRisks(HookProxy.deployedBytecode)).toMatchObject({ opcodes: ['DELEGATECALL'], risks: expect.arrayContaining(['upgradeable', 'delegatecall']) });
    expect(codeRisks(LoyaltyHook.deployedBytecode)).toMatchObject({ opcodes: ['SELFDESTRUCT'], risks: ['selfdestruct'] });
  });
});

const MANAGER = addr(0x4444);
const [TOKEN0, TOKEN1] = [addr(0xa0), addr(0xb0)];
const DRAIN = getAddress('0x000000000000000000000000000000000000c088'); // before-swap + before-swap-returns-delta (bits above 13 ignored)
const PROXY = getAddress('0x0000000000000000000000000000000000001040'); // after-initialize + after-swap
const IMPLEMENTATION = addr(0x1111);
const [POOL_A, POOL_B, POOL_C]: Hex[] = ['0xaa', '0xbb', '0xcc'].map((p) => p.padEnd(66, '0') as Hex);

/** A node whose getLogs refuses more than 500 blocks, holding three pools (one hookless) and their swaps. */
function node() {
  const inits = [
    { pool: POOL_A, hooks: DRAIN, fee: 0, block: 10n },
    { pool: POOL_B, hooks: PROXY, fee: 0x800000, block: 20n },
    { pool: POOL_C, hooks: addr(0), fee: 3_000, block: 30n },
  ];
  const swaps = [
    { pool: POOL_A, amount0: 0n, amount1: 0n, fee: 0, block: 700n }, // the hook kept the input
    { pool: POOL_A, amount0: -5n * 10n ** 18n, amount1: 4n * 10n ** 6n, fee: 0, block: 900n },
    { pool: POOL_B, amount0: -2n * 10n ** 18n, amount1: 1_990_000n, fee: 3_000, block: 800n },
    { pool: POOL_B, amount0: 10n ** 18n, amount1: -1_000_000n, fee: 10_000, block: 1_200n },
    { pool: POOL_C, amount0: -(10n ** 18n), amount1: 1_000_000n, fee: 3_000, block: 1_300n },
    { pool: POOL_B, amount0: -(10n ** 18n), amount1: 1_000_000n, fee: 3_000, block: 100n }, // before the period
  ];
  const client = {
    async getLogs({ event, fromBlock, toBlock }: { event: { name: string }; fromBlock: bigint; toBlock: bigint }) {
      if (toBlock - fromBlock > 500n) throw new Error('query exceeds max block range 500');
      if (event.name === 'Initialize') {
        return inits.filter((l) => l.block >= fromBlock && l.block <= toBlock).map((l) => ({
          blockNumber: l.block, logIndex: 0, args: { id: l.pool, currency0: TOKEN0, currency1: TOKEN1, fee: l.fee, tickSpacing: 60, hooks: l.hooks, sqrtPriceX96: 2n ** 96n, tick: 0 },
        }));
      }
      return swaps.filter((s) => s.block >= fromBlock && s.block <= toBlock).map((s) => ({
        blockNumber: s.block, logIndex: 1, args: { id: s.pool, sender: addr(0x5), amount0: s.amount0, amount1: s.amount1, sqrtPriceX96: 2n ** 96n, liquidity: 1n, tick: 0, fee: s.fee },
      }));
    },
    async multicall({ contracts }: { contracts: { address: Address; functionName: string }[] }) {
      const meta = { [TOKEN0]: ['WETH', 18], [TOKEN1]: ['USDC', 6] } as Record<string, [string, number]>;
      return contracts.map((c) => {
        const [symbol, decimals] = meta[c.address.toLowerCase()]!;
        return { status: 'success', result: c.functionName === 'decimals' ? decimals : c.functionName === 'symbol' ? symbol : `${symbol} token` };
      });
    },
    async getCode({ address }: { address: Address }) {
      if (address === DRAIN) return ZeroFeeSwapHook.deployedBytecode;
      if (address === PROXY) return HookProxy.deployedBytecode;
      if (address === IMPLEMENTATION) return OwnerFeeHook.deployedBytecode; // what the proxy now runs
      return '0x';
    },
    async getStorageAt({ address, slot }: { address: Address; slot: Hex }) {
      if (address === PROXY && slot.startsWith('0x3608')) return `0x${IMPLEMENTATION.slice(2).padStart(64, '0')}`;
      return `0x${'0'.repeat(64)}`;
    },
    async readContract() {
      throw new Error('no owner()');
    },
  };
  return { name: 'base', spec: CHAINS.base, client } as unknown as ConnectedChain;
}

describe('hooks/v1 over a node', () => {
  it('pools by hook with permissions, code risks (a proxy\'s implementation read too) and the period\'s volume and fees; a range the node refuses is read in halves', async () => {
    const layer = await scanHookLayer(node(), MANAGER, { head: 1_400n, volumeFrom: 500n, market: null });
    expect(layer).toMatchObject({ poolsRead: 3, hooklessPools: 1, hookCount: 2, initializeLogs: 3, swapLogs: 5 });
    // Newest hook first.
    expect(layer.hooks.map((h) => h.hook)).toEqual([PROXY, DRAIN]);
    const [proxy, drain] = layer.hooks;

    expect(drain).toMatchObject({ flags: '0x0088', permissions: ['beforeSwap', 'beforeSwapReturnDelta'], riskLevel: 'high', proxy: null, owner: null });
    expect(drain!.risks.map((r) => r.kind)).toEqual(['takes-input']);
    expect(drain!.risks[0]!.evidence).toContain('1 of its pools\' 2 swaps');
    expect(drain!.pools[0]).toMatchObject({ swaps: 2, untradedSwaps: 1, volume0: '5', volume1: '4', fees0: '0', fee: 0, volumeUsd: null });

    expect(proxy).toMatchObject({ permissions: ['afterInitialize', 'afterSwap'], proxy: { implementation: IMPLEMENTATION, admin: null }, riskLevel: 'medium' });
    expect(proxy!.risks.map((r) => r.kind)).toEqual(['owner-fee', 'owner-pause', 'upgradeable', 'delegatecall']);
    expect(proxy!.code.functions).toEqual(expect.arrayContaining(['upgradeTo(address)', 'setFee(uint24)', 'pause()']));
    // 2 + 1 WETH and 1.99 + 1 USDC; fees on the input side: 2 WETH x 0.3%, 1 USDC x 1%.
    expect(proxy!.pools[0]).toMatchObject({ fee: 'dynamic', swaps: 2, volume0: '3', volume1: '2.99', fees0: '0.006', fees1: '0.01' });
  });

  it('values each swap at its moment\'s price: its input side, else its output side', async () => {
    const prices: Record<string, number> = { [TOKEN0]: 3_000, [TOKEN1]: 1 };
    const market = { timeline: async (token: string) => [{ score: 0, ts: 0, usd: prices[token]! }] } as unknown as Market;
    const layer = await scanHookLayer(node(), MANAGER, { head: 1_400n, volumeFrom: 500n, market });
    const proxy = layer.hooks.find((h) => h.hook === PROXY)!;
    // 2 WETH in at $3,000 (fee 0.3%), then 1 USDC in at $1 (fee 1%).
    expect(proxy.pools[0]!.volumeUsd).toBe(6_001);
    expect(proxy.pools[0]!.feesUsd).toBe(18.01);
    expect(proxy.volumeUsd).toBe(6_001);
  });
});
