/**
 * A batch whose settler nonce the shared store cannot hand out was never signed or sent: it is
 * answered `store_unavailable` (the paywall's 503, nothing charged), never `transaction_failed`
 * (a 402 settlement_failed for a good payment) nor pending. viem wraps the store's error in its
 * own; the nonce comes from the real shared nonce manager on a store that does not answer.
 */
import { describe, expect, it } from 'vitest';
import { SocketClosedUnexpectedlyError } from 'redis';
import { createPublicClient, createWalletClient, custom, getAddress, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { MemoryStore } from '../store/memory.js';
import { StoreTimeoutError } from '../store/deadline.js';
import { BatchSettler, STORE_UNAVAILABLE } from './batch-settler.js';
import { sharedNonceManager } from './settler-nonces.js';
import type { SettlerFees } from './settler-fees.js';

const USDC = getAddress('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');

describe('batch settlement with the store out', () => {
  it.each([
    ['silent past its deadline', () => new StoreTimeoutError('store: no answer to takeNext within 5000 ms')],
    ['gone mid-command (node-redis names it by its class only)', () => new SocketClosedUnexpectedlyError()],
  ])('answers store_unavailable and sends nothing: a store %s', async (_what, outage) => {
    const store = new MemoryStore();
    store.takeNext = async () => {
      throw outage();
    };
    const asked: string[] = [];
    const transport = custom({
      async request({ method }: { method: string }) {
        asked.push(method);
        if (method === 'eth_getTransactionCount') return '0x0';
        if (method === 'eth_chainId') return '0x2105';
        throw new Error(`not expected here: ${method}`);
      },
    });
    const settler = privateKeyToAccount(generatePrivateKey(), { nonceManager: sharedNonceManager(store) });
    const wallet = createWalletClient({ account: settler, chain: base, transport });
    const client = createPublicClient({ chain: base, transport });
    const fees = { current: async () => ({ maxFeePerGas: 2n, maxPriorityFeePerGas: 1n }), forget: () => {} } as unknown as SettlerFees;
    const batcher = new BatchSettler(wallet as never, client as never, USDC, 1_000, 10, (send) => send(), fees);

    const payer = privateKeyToAccount(generatePrivateKey());
    const signature = (await payer.signMessage({ message: 'any 65-byte signature' })) as Hex;
    const now = Math.floor(Date.now() / 1000);
    const result = await batcher.settle({ from: payer.address, to: USDC, value: '1', validAfter: '0', validBefore: String(now + 300), nonce: `0x${'11'.repeat(32)}` }, signature);

    expect(result).toMatchObject({ success: false, errorReason: STORE_UNAVAILABLE, transaction: '' });
    expect(asked).not.toContain('eth_sendRawTransaction');
  });
});
