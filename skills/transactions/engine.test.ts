import { encodeAbiParameters, encodeEventTopics, encodeFunctionData, erc20Abi, getAddress, type Address, type Hash, type Hex, type TransactionReceipt } from 'viem';
import { describe, expect, it } from 'vitest';
import { EVENTS } from '../../indexer/events.js';
import { addr, TKN, TKN_USDC, tokenUsdc, units, type Fixture } from '../data/testing/fixtures.js';
import { debugTransaction, traceFunds } from './engine.js';

const [W, A, B, C, D, ROUTER] = [addr(0x111), addr(0xa), addr(0xb), addr(0xc), addr(0xd), addr(0x7007)];
const HASH = `0x${'77'.repeat(32)}` as Hash;

/** A transaction in block 10 sending 1 ETH to the router and moving 100 TKN from W to A, as the node returns it. */
function found(fx: Fixture, status: 'success' | 'reverted' = 'success') {
  const log = {
    address: TKN, logIndex: 3, blockNumber: 10n, transactionHash: HASH,
    topics: encodeEventTopics({ abi: [EVENTS.transfer], eventName: 'Transfer', args: { from: W, to: A } }),
    data: encodeAbiParameters([{ type: 'uint256' }], [units(100, 18)]),
  };
  const receipt = { status, blockNumber: 10n, transactionHash: HASH, gasUsed: 60_000n, effectiveGasPrice: 2_000_000_000n, contractAddress: null, logs: [log] } as unknown as TransactionReceipt;
  const input = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [A, units(100, 18)] });
  const tx = { from: W, to: ROUTER as Address | null, value: units(1, 18), input: input as Hex, nonce: 7, gas: 80_000n };
  return { chain: fx.chain(), receipt, tx } as unknown as Parameters<typeof traceFunds>[0];
}

/** TKN at $5. After block 10: A sends 60 to B, 30 to C and 10 into the pool; B sends 60 to D. */
function world() {
  const fx = tokenUsdc(10_000, 50_000);
  fx.transfer(12, TKN, A, B, units(60, 18));
  fx.transfer(13, TKN, A, C, units(30, 18));
  fx.transfer(14, TKN, A, TKN_USDC, units(10, 18));
  fx.transfer(15, TKN, B, D, units(60, 18));
  return fx;
}

describe('fund-flow/v1', () => {
  it('the transaction\'s own transfers, then each recipient\'s later transfers hop by hop, largest first; pools end a path', async () => {
    const fx = world();
    const r = await traceFunds(found(fx), await fx.market(), 2);
    expect(r.edges.map((e) => [e.hop, e.token === 'native' ? 'native' : e.symbol, e.from, e.to, e.amount, e.usd, e.toKind])).toEqual([
      [0, 'native', W, ROUTER, '1', null, 'wallet'],
      [0, 'TKN', W, A, '100', 500, 'wallet'],
      [1, 'TKN', A, B, '60', 300, 'wallet'],
      [1, 'TKN', A, C, '30', 150, 'wallet'],
      [1, 'TKN', A, TKN_USDC, '10', 50, 'pool'],
      [2, 'TKN', B, D, '60', 300, 'wallet'],
    ]);
    expect(r.largestRecipients.map((x) => [x.address, x.receivedUsd])).toEqual([[A, 500], [B, 300], [D, 300], [C, 150], [TKN_USDC, 50], [ROUTER, 0]]);
    expect(r).toMatchObject({ from: getAddress(W), block: '10', hops: 2, edgeCount: 6 });
  });

  it('no hops: the transaction\'s own transfers only', async () => {
    const fx = world();
    expect((await traceFunds(found(fx), await fx.market(), 0)).edgeCount).toBe(2);
  });
});

describe('tx-debug/v1', () => {
  it('decodes the call and the logs, with gas and fee', async () => {
    const fx = world();
    const r = await debugTransaction(found(fx), await fx.market());
    expect(r).toMatchObject({
      status: 'success', from: getAddress(W), to: getAddress(ROUTER), valueNative: '1', nonce: 7, block: '10',
      timestamp: new Date(fx.ts(10) * 1000).toISOString(),
      // 60,000 of 80,000 gas at 2 gwei: 0.00012 ETH.
      gas: { limit: '80000', used: '60000', usedPct: 75, effectiveGasPrice: '2000000000', feeNative: '0.00012' },
      call: { kind: 'call', selector: '0xa9059cbb', function: 'transfer', args: [getAddress(A), units(100, 18).toString()] },
      logs: [{ address: TKN, logIndex: 3, event: 'transfer', symbol: 'TKN', args: { from: getAddress(W), to: getAddress(A), value: units(100, 18).toString() } }],
    });
    expect(r).not.toHaveProperty('revertReason');
  });

  it('a reverted transaction is replayed at its parent block for the reason', async () => {
    const fx = world();
    let replayedAt: bigint | undefined;
    const tx = found(fx, 'reverted');
    const client = tx.chain.client as unknown as { call: (r: { blockNumber: bigint }) => Promise<never> };
    client.call = async (req) => {
      replayedAt = req.blockNumber;
      throw Object.assign(new Error('long message\nwith detail'), { shortMessage: 'execution reverted: TRANSFER_FAILED' });
    };
    const r = await debugTransaction(tx, null);
    expect(r).toMatchObject({ status: 'reverted', revertReason: 'execution reverted: TRANSFER_FAILED' });
    expect(replayedAt).toBe(9n);
  });
});
