import { describe, expect, it } from 'vitest';
import { parseTransaction, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { evmAccountExposure } from './evm.js';

const sender = privateKeyToAccount(`0x${'11'.repeat(32)}`);
const receiver = privateKeyToAccount(`0x${'22'.repeat(32)}`).address;
const SAFE = '0x5afe00000000000000000000000000000000cafe' as Address;
const DELEGATED = '0xde1e000000000000000000000000000000000001' as Address;
const HEAD = 100n;

/** A signed transaction as a node returns it in a block (viem's formatted shape). */
async function sentTx(nonce: number, block: bigint, signed = true) {
  const raw = await sender.signTransaction({ chainId: 8453, type: 'eip1559', to: receiver, value: 1n, nonce, gas: 21_000n, maxFeePerGas: 2n, maxPriorityFeePerGas: 1n });
  const p = parseTransaction(raw);
  return {
    ...p, hash: `0x${(0xa00 + nonce).toString(16).padStart(64, '0')}` as Hex, from: sender.address, input: '0x' as Hex, blockNumber: block, type: 'eip1559' as const,
    // A devnet's impersonated sender: a placeholder signature that recovers nobody.
    ...(!signed && { r: `0x${'01'.padStart(64, '0')}` as Hex, s: `0x${'02'.padStart(64, '0')}` as Hex }),
  };
}

function stubClient(o: { sends: { block: bigint; nonce: number; signed?: boolean }[]; historyFrom?: bigint; owners?: Address[] }) {
  const reads: string[] = [];
  const client = {
    async getCode({ address }: { address: Address }) {
      if (address === SAFE) return '0x6080604052';
      if (address === DELEGATED) return `0xef0100${'ab'.repeat(20)}`;
      return undefined;
    },
    async getTransactionCount({ address, blockNumber }: { address: Address; blockNumber: bigint }) {
      reads.push(`nonce@${blockNumber}`);
      if (o.historyFrom !== undefined && blockNumber < o.historyFrom) throw new Error('BlockOutOfRange: state not available');
      return address === sender.address ? o.sends.filter((s) => s.block <= blockNumber).length : 0;
    },
    async getBlock({ blockNumber }: { blockNumber: bigint }) {
      const txs = await Promise.all(o.sends.filter((s) => s.block === blockNumber).map((s) => sentTx(s.nonce, s.block, s.signed ?? true)));
      return { number: blockNumber, timestamp: 1_700_000_000n + blockNumber * 12n, transactions: txs };
    },
    async readContract({ functionName }: { functionName: string }) {
      if (functionName === 'getOwners' && o.owners) return o.owners;
      throw new Error('execution reverted');
    },
  };
  return { client: client as unknown as PublicClient, reads };
}

describe('EVM exposure (quantum-exposure/v1)', () => {
  it('an account that sent: exposed, its first transaction found by bisection, its public key recovered from the signature', async () => {
    const { client, reads } = stubClient({ sends: [{ block: 37n, nonce: 0 }, { block: 50n, nonce: 1 }] });
    const r = await evmAccountExposure(client, sender.address, HEAD);
    expect(r).toMatchObject({ accountType: 'eoa', nonce: 2, keyRevealed: true, why: 'sent-transaction', owners: null });
    expect(r.evidence).toMatchObject({ block: 37, first: true, verified: true, publicKeys: [sender.publicKey] });
    expect(reads.length).toBeLessThanOrEqual(2 + Math.ceil(Math.log2(Number(HEAD))) + 1);
  });

  it('a receive-only account: nothing revealed', async () => {
    const { client } = stubClient({ sends: [] });
    const r = await evmAccountExposure(client, receiver, HEAD);
    expect(r).toMatchObject({ accountType: 'eoa', nonce: 0, keyRevealed: false, why: null, evidence: null });
  });

  it('a contract wallet has no key: its owners are checked', async () => {
    const { client } = stubClient({ sends: [{ block: 5n, nonce: 0 }], owners: [sender.address, receiver] });
    const r = await evmAccountExposure(client, SAFE, HEAD);
    expect(r).toMatchObject({ accountType: 'contract', keyRevealed: false, why: null, evidence: null });
    expect(r.owners).toEqual([{ address: sender.address, nonce: 1, keyRevealed: true }, { address: receiver, nonce: 0, keyRevealed: false }]);
  });

  it('an EIP-7702 delegated account signed its delegation', async () => {
    const { client } = stubClient({ sends: [] });
    const r = await evmAccountExposure(client, DELEGATED, HEAD);
    expect(r).toMatchObject({ accountType: 'eoa-delegated', keyRevealed: true, why: 'delegation-signed' });
  });

  it('a placeholder signature (devnet impersonation) is not taken as a key', async () => {
    const { client } = stubClient({ sends: [{ block: 12n, nonce: 0, signed: false }] });
    const r = await evmAccountExposure(client, sender.address, HEAD);
    expect(r.keyRevealed).toBe(true);
    expect(r.evidence).toMatchObject({ block: 12, verified: false, publicKeys: [] });
  });

  it('a node without old state: exposed from the nonce, the evidence says why it is missing', async () => {
    const { client } = stubClient({ sends: [{ block: 3n, nonce: 0 }], historyFrom: 90n });
    const r = await evmAccountExposure(client, sender.address, HEAD);
    expect(r.keyRevealed).toBe(true);
    expect(r.evidence).toMatchObject({ tx: '', block: null, verified: false });
    expect(r.evidence!.note).toMatch(/no state/);
  });
});
