/**
 * The world's line to its node (world/rpc.ts): a block's transactions are sealed in the order the
 * world sent them however many there are, since the world's market depends on that order between
 * senders (a sandwich's legs around its victim, a listing funded before its liquidity is added).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil, type AnvilNode } from '../../chain/anvil.js';
import { BATCH_LIMIT, WorldRpc } from '../../world/rpc.js';

const SENDERS = Array.from({ length: 200 }, (_, i) => `0x${(0x5000 + i).toString(16).padStart(40, '0')}` as const);

describe('world rpc', () => {
  let node: AnvilNode;
  let rpc: WorldRpc;
  beforeAll(async () => {
    node = await startAnvil({ chainId: 8453, port: 0, order: 'fifo' });
    rpc = new WorldRpc(node.rpcUrl);
    await rpc.call('anvil_autoImpersonateAccount', [true]);
    await rpc.call('evm_setAutomine', [false]);
    await rpc.batch(SENDERS.map((s) => ({ method: 'anvil_setBalance', params: [s, `0x${(10n ** 21n).toString(16)}`] })));
  });
  afterAll(async () => {
    rpc?.close();
    await node?.stop();
  });

  it('a node that stops answering fails the call, naming it, instead of holding the world forever', async () => {
    const frozen = await startAnvil({ chainId: 8453, port: 0 });
    const line = new WorldRpc(frozen.rpcUrl, 1_000);
    try {
      expect(await line.call('eth_chainId')).toBe('0x2105');
      const pid = frozen.status().pid!;
      process.kill(pid, 'SIGSTOP');
      // A stop reaches every thread of the node a moment after the signal: wait until it shows stopped.
      const stopped = () => readdirSync(`/proc/${pid}/task`).every((t) => /^\d+ \(.*\) [Tt]/.test(readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8')));
      for (let i = 0; i < 200 && !stopped(); i++) await new Promise((r) => setTimeout(r, 10));
      expect(stopped()).toBe(true);
      const started = Date.now();
      await expect(line.call('eth_blockNumber')).rejects.toThrow(`the chain node at ${frozen.rpcUrl} did not answer eth_blockNumber within 1 s`);
      await expect(line.batch([{ method: 'eth_blockNumber', params: [] }])).rejects.toThrow('did not answer a batch of 1 calls (eth_blockNumber first)');
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      process.kill(frozen.status().pid!, 'SIGCONT');
      line.close();
      await frozen.stop();
    }
  });

  it('seals a block of many senders\' transactions in the order sent', async () => {
    // anvil itself admits the items of one large batch to its pool out of order (measured from
    // about 65 sends on): 300 transfers, senders interleaved, several nonces each.
    const nonces = new Map<string, number>();
    const calls = Array.from({ length: 300 }, (_, k) => {
      const from = SENDERS[(k * 7) % SENDERS.length]!;
      const nonce = nonces.get(from) ?? 0;
      nonces.set(from, nonce + 1);
      return WorldRpc.sendCall({ from, to: SENDERS[(k + 1) % SENDERS.length]!, value: BigInt(k + 1), gas: 21_000n, nonce });
    });
    expect(calls.length).toBeGreaterThan(2 * BATCH_LIMIT);
    const hashes = await rpc.batch(calls);
    expect(hashes).toHaveLength(calls.length);
    await rpc.call('evm_mine', []);
    const block = await rpc.call<{ transactions: string[] }>('eth_getBlockByNumber', ['latest', false]);
    expect(block.transactions).toEqual(hashes);
  });

  it('answers each call of a batch with its own result, in the order asked', async () => {
    const calls = Array.from({ length: 2 * BATCH_LIMIT + 5 }, (_, i) => ({ method: 'eth_getBalance', params: [SENDERS[i]!, 'latest'] }));
    const balances = (await rpc.batch(calls)) as string[];
    const one = await Promise.all(calls.map((c) => rpc.call<string>(c.method, c.params)));
    expect(balances).toEqual(one);
  });
});
