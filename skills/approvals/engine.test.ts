import { describe, expect, it } from 'vitest';
import { encodeFunctionData, erc20Abi, getAddress, type Address, type Hex } from 'viem';
import type { ConnectedChain } from '../../chain/runtime.js';
import { CHAINS } from '../../chain/chains.js';
import { liveApprovals } from './engine.js';
import { addr } from '../data/testing/fixtures.js';

const [OWNER, TOKEN, ROUTER, STRANGER, GONE, NFT, OPERATOR, REVOKED] = [addr(0x0a), addr(0x70c), addr(0x7007), addr(0x5e), addr(0x6e), addr(0x721), addr(0x0b), addr(0x0c)];
/** An operator granted over NFT and still live, and one granted then revoked. */
const operatorLogs = [
  { address: NFT, blockNumber: 20n, transactionHash: `0x${'1'.padStart(64, '0')}`, args: { owner: OWNER, operator: OPERATOR, approved: true } },
  { address: NFT, blockNumber: 21n, transactionHash: `0x${'2'.padStart(64, '0')}`, args: { owner: OWNER, operator: REVOKED, approved: true } },
  { address: NFT, blockNumber: 22n, transactionHash: `0x${'3'.padStart(64, '0')}`, args: { owner: OWNER, operator: REVOKED, approved: false } },
];
const FACTORY = CHAINS.base.dexes[0]!.factory;
const MAX = 2n ** 256n - 1n;

/** A node whose getLogs refuses more than 1,000 blocks at once, as public RPCs do. */
function chainWith(approvals: { spender: Address; block: bigint }[], live: Map<Address, bigint>, code: Map<Address, { now: Hex; then: Hex }>) {
  const asked: [bigint, bigint][] = [];
  const client = {
    async getLogs({ event, args, fromBlock, toBlock }: { event: { name: string }; args: { spender?: Address }; fromBlock: bigint; toBlock: bigint }) {
      if (event.name === 'ApprovalForAll') return operatorLogs.filter((l) => l.blockNumber >= fromBlock && l.blockNumber <= toBlock);
      // The drainer check (drainers/v1): no spender here has ever taken anything from anyone.
      if (event.name === 'Transfer' || args.spender) return [];
      asked.push([fromBlock, toBlock]);
      if (toBlock - fromBlock > 1_000n) throw new Error('query exceeds max block range 1000');
      return approvals.filter((a) => a.block >= fromBlock && a.block <= toBlock).map((a) => ({
        address: TOKEN, topics: ['0x', '0x', '0x'], blockNumber: a.block, transactionHash: `0x${a.block.toString(16).padStart(64, '0')}`, args: { owner: OWNER, spender: a.spender, value: MAX },
      }));
    },
    async multicall({ contracts }: { contracts: { address: Address; functionName: string; args?: readonly unknown[] }[] }) {
      return contracts.map((c) => c.functionName === 'isApprovedForAll' ? { status: 'success', result: (c.args![1] as Address).toLowerCase() === OPERATOR }
        : c.functionName === 'balanceOf' && c.address.toLowerCase() === NFT ? { status: 'success', result: 3n }
        : c.functionName === 'allowance' ? { status: 'success', result: live.get((c.args![1] as Address).toLowerCase() as Address) ?? 0n }
        : c.functionName === 'balanceOf' ? { status: 'success', result: 500n * 10n ** 18n }
        : c.address.toLowerCase() === ROUTER ? { status: 'success', result: FACTORY } : { status: 'failure', error: new Error('no factory()') });
    },
    async readContract() { return 18; },
    async getCode({ address, blockNumber }: { address: Address; blockNumber?: bigint }) {
      const c = code.get(address.toLowerCase() as Address);
      return blockNumber === undefined ? (c?.now ?? '0x') : (c?.then ?? '0x');
    },
  };
  return { chain: { name: 'base', spec: CHAINS.base, client } as unknown as ConnectedChain, asked };
}

describe('approvals/v2', () => {
  it('live approvals only, each spender classified, most at risk first; a refused range is read in halves', async () => {
    const { chain, asked } = chainWith(
      [{ spender: ROUTER, block: 10n }, { spender: STRANGER, block: 2_500n }, { spender: GONE, block: 3_000n }, { spender: addr(0x99), block: 3_500n }],
      new Map([[ROUTER, MAX], [STRANGER, 100n * 10n ** 18n], [GONE, MAX]]), // 0x99's allowance was spent or revoked
      new Map([[GONE, { now: '0x', then: '0x6080' }]]),
    );
    const { approvals, logs } = await liveApprovals(chain, OWNER, null, 4_000n);
    expect(logs).toBe(4 + 3);
    expect(asked[0]).toEqual([0n, 4_000n]); // asked at once first, then in halves the node accepts
    expect(asked.filter(([from, to]) => to - from <= 1_000n).length).toBeGreaterThanOrEqual(4);
    expect(approvals.map((a) => [a.standard, a.spender, a.spenderKind, a.dex, a.unlimited, a.allowance])).toEqual([
      ['erc20', getAddress(ROUTER), 'router', 'uniswap-v2', true, expect.any(String)],
      ['erc20', getAddress(STRANGER), 'eoa', null, false, '100'],
      ['erc20', getAddress(GONE), 'self-destructed', null, true, expect.any(String)],
      // The live operator grant over every NFT held (3); the revoked one is gone.
      ['operator', getAddress(OPERATOR), 'eoa', null, true, 'all'],
    ]);
    expect(approvals[3]).toMatchObject({ token: getAddress(NFT), balance: '3', valueAtRiskUsd: null });
    expect(approvals[3]!.revoke.data).toBe(encodeFunctionData({ abi: [{ type: 'function', name: 'setApprovalForAll', stateMutability: 'nonpayable', inputs: [{ type: 'address' }, { type: 'bool' }], outputs: [] }], functionName: 'setApprovalForAll', args: [getAddress(OPERATOR), false] }));
    // No price without an index: the value at risk is unknown, not zero.
    expect(approvals.every((a) => a.valueAtRiskUsd === null)).toBe(true);
    expect(approvals[1]!.revoke).toEqual({ to: getAddress(TOKEN), data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [getAddress(STRANGER), 0n] }) });
  });
});
