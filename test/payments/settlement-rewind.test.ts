/**
 * Settled means on chain. Payments are settled on an embedded Base whose node dumps its state
 * every few seconds; right after a dump, three payments settle and the node is killed with
 * SIGKILL, so its supervisor restarts it from the dump taken before them: the chain no longer
 * has their transactions, while the ledger recorded them settled. The reconciler notices the
 * restart, finds each authorization unused (authorizationState false), reopens the record as
 * pending with its signed authorization and submits it again: each lands once more, exactly
 * one AuthorizationUsed per authorization on the chain, and the ledger names both transactions.
 * A chain that goes back without a restart (its head reverted) is noticed the same way; a lost
 * settlement whose authorization has expired can no longer land and is recorded lost.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { createPublicClient, http, parseAbi, parseAbiItem, parseEther, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { ChainRuntime } from '../../chain/runtime.js';
import { CHAINS } from '../../chain/chains.js';
import { localFacilitator, type LocalFacilitator } from '../../payments/facilitator.js';
import { SettlementLedger, type SettlementRecord } from '../../payments/settlements.js';
import { startReconciler } from '../../payments/reconciler.js';
import { requirementsV2 } from '../../payments/terms.js';
import { MemoryStore } from '../../store/memory.js';
import { freshAddress, fundedPayer, rpc, usdcBalance } from '../helpers/sibyl.js';
import { signedPayment } from '../helpers/payments.js';

const PRICE = 400_000n;
const USDC = CHAINS.base.usdc;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const authorizationState = parseAbi(['function authorizationState(address, bytes32) view returns (bool)']);
const authorizationUsed = parseAbiItem('event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)');

async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('settlements the chain lost in a restart', () => {
  const cleanup: (() => unknown)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it('are found unused after the node restarts from an older dump, and submitted again once each', async () => {
    let facilitator: LocalFacilitator | undefined;
    const devnet: Devnet = await startDevnet({
      chains: ['base'], basePort: 0, stateIntervalSeconds: 4,
      onRestart: () => void facilitator?.forgetNonces(),
    });
    cleanup.push(() => devnet.stop());
    const rpcUrl = devnet.chains[0]!.rpcUrl;
    const chains = new ChainRuntime();
    const base = chains.add('base', rpcUrl, 'embedded', devnet.chains[0]!.node);
    const store = new MemoryStore();
    const settlerKey = generatePrivateKey();
    await rpc(rpcUrl, 'anvil_setBalance', [privateKeyToAccount(settlerKey).address, `0x${parseEther('100').toString(16)}`]);
    facilitator = localFacilitator(base, settlerKey, 30_000, 50, store);
    const log: string[] = [];
    const ledger = new SettlementLedger(store, base, USDC, { resubmit: (p, r) => facilitator!.settle(p, r), log: (m) => log.push(m) });
    const reconciler = startReconciler(ledger, 3_600_000, (m) => log.push(m));
    cleanup.push(() => reconciler.stop());

    const payTo = freshAddress();
    const { key, account } = await fundedPayer('5', rpcUrl);
    const requirements = requirementsV2({ asset: USDC, payTo, maxTimeoutSeconds: 300 }, PRICE);
    const payments = await Promise.all([0, 1, 2].map(() => signedPayment({ key, payTo, amount: PRICE })));
    const client = createPublicClient({ transport: http(rpcUrl) });
    const used = (nonce: Hex) => client.readContract({ address: USDC, abi: authorizationState, functionName: 'authorizationState', args: [account.address, nonce] });

    // Right after a dump (the payer's funding in it), the three settle and the node dies before the next.
    const pid = devnet.chains[0]!.node!().pid!;
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const dump = argv[argv.indexOf('--dump-state') + 1]!;
    const fundedAt = Date.now();
    await until('a dump after the funding', async () => (statSync(dump, { throwIfNoEntry: false })?.mtimeMs ?? 0) > fundedAt + 100);
    await sleep(500); // the dump is written whole
    const dumpedAt = statSync(dump).mtimeMs;
    const transactions: Hex[] = [];
    for (const p of payments) {
      const result = await facilitator.settle(p.payload, requirements);
      expect(result.success).toBe(true);
      transactions.push(result.transaction as Hex);
      const record: SettlementRecord = {
        status: 'settled', transaction: result.transaction as Hex, payer: account.address, nonce: p.nonce, amount: PRICE.toString(),
        validBefore: (p.payload.payload as { authorization: { validBefore: string } }).authorization.validBefore,
        resource: 'http://sibyl.test/x402/data/latest-pairs', recordedAt: new Date().toISOString(), payload: p.payload, requirements,
      };
      await ledger.record(record);
    }
    for (const p of payments) expect(await used(p.nonce)).toBe(true);
    process.kill(pid, 'SIGKILL');
    expect(statSync(dump).mtimeMs).toBe(dumpedAt); // no dump holds them

    // Restarted from that dump: the settlements are gone from the chain.
    await until('the restart', async () => devnet.chains[0]!.node!().restarts === 1 && devnet.chains[0]!.node!().status === 'running');
    // ... and are submitted again by the reconciler, each landing once.
    for (const p of payments) await until(`authorization ${p.nonce} used again`, () => used(p.nonce));
    expect(await usdcBalance(account.address, rpcUrl)).toBe(5_000_000n - 3n * PRICE);
    expect(await usdcBalance(payTo, rpcUrl)).toBe(3n * PRICE);
    const events = await client.getLogs({ address: USDC, event: authorizationUsed, args: { authorizer: account.address }, fromBlock: 0n });
    for (const p of payments) expect(events.filter((e) => e.args.nonce === p.nonce)).toHaveLength(1);
    for (const [i, p] of payments.entries()) {
      const record = await until('the record decided', async () => {
        const r = await ledger.get(account.address, p.nonce);
        return r?.status === 'settled' && r.reopenedAt ? r : null;
      });
      expect(record).toMatchObject({ status: 'settled', reason: 'resubmitted', lostTransaction: transactions[i] });
      expect(record.transaction).not.toBe(transactions[i]);
      expect(await client.getTransactionReceipt({ hash: record.transaction as Hex })).toMatchObject({ status: 'success' });
    }
    expect(await ledger.pending()).toEqual([]);
    expect(log.join('\n')).toMatch(/settlements rechecked after the node was restarted: 3 checked, 3 no longer on chain and submitted again, 0 lost/);
  });

  it('are found after the head went back; one that expired meanwhile is recorded lost', async () => {
    const devnet: Devnet = await startDevnet({ chains: ['base'], basePort: 0 });
    cleanup.push(() => devnet.stop());
    const rpcUrl = devnet.chains[0]!.rpcUrl;
    const base = new ChainRuntime().add('base', rpcUrl, 'embedded', devnet.chains[0]!.node);
    const store = new MemoryStore();
    const settlerKey = generatePrivateKey();
    await rpc(rpcUrl, 'anvil_setBalance', [privateKeyToAccount(settlerKey).address, `0x${parseEther('100').toString(16)}`]);
    const facilitator = localFacilitator(base, settlerKey, 30_000, 50, store);
    const log: string[] = [];
    const ledger = new SettlementLedger(store, base, USDC, { resubmit: (p, r) => facilitator.settle(p, r), log: (m) => log.push(m) });
    const payTo = freshAddress();
    const { key, account } = await fundedPayer('5', rpcUrl);
    const requirements = requirementsV2({ asset: USDC, payTo, maxTimeoutSeconds: 300 }, PRICE);
    const now = BigInt(Math.floor(Date.now() / 1000));
    const lasting = await signedPayment({ key, payTo, amount: PRICE, validBefore: now + 300n });
    const brief = await signedPayment({ key, payTo, amount: PRICE, validBefore: now + 60n });
    const client = createPublicClient({ transport: http(rpcUrl) });
    const used = (nonce: Hex) => client.readContract({ address: USDC, abi: authorizationState, functionName: 'authorizationState', args: [account.address, nonce] });

    const snapshot = await rpc(rpcUrl, 'evm_snapshot', []);
    const settled: Record<string, Hex> = {};
    for (const p of [lasting, brief]) {
      const result = await facilitator.settle(p.payload, requirements);
      expect(result.success).toBe(true);
      settled[p.nonce] = result.transaction as Hex;
      await ledger.record({
        status: 'settled', transaction: result.transaction as Hex, payer: account.address, nonce: p.nonce, amount: PRICE.toString(),
        validBefore: (p.payload.payload as { authorization: { validBefore: string } }).authorization.validBefore,
        resource: 'http://sibyl.test/x402/data/latest-pairs', recordedAt: new Date().toISOString(), payload: p.payload, requirements,
      });
    }
    expect(await ledger.chainWentBack()).toBeNull(); // the first look
    expect(await ledger.chainWentBack()).toBeNull(); // nothing moved back
    expect(await rpc(rpcUrl, 'evm_revert', [snapshot])).toBe(true);
    await facilitator.forgetNonces();
    expect(await used(lasting.nonce)).toBe(false);
    const why = await ledger.chainWentBack();
    expect(why).toMatch(/^the head went back from block \d+ to \d+$/);

    // Checked as if 61 s later: the brief authorization has expired, the lasting one has not.
    const outcome = await ledger.recheckSettled(why!, Date.now() + 61_000);
    expect(outcome).toEqual({ checked: 2, reopened: 1, lost: 1 });
    expect(await used(lasting.nonce)).toBe(true);
    expect(await used(brief.nonce)).toBe(false);
    expect(await ledger.get(account.address, lasting.nonce)).toMatchObject({ status: 'settled', reason: 'resubmitted', lostTransaction: settled[lasting.nonce] });
    const lost = await ledger.get(account.address, brief.nonce);
    expect(lost).toMatchObject({ status: 'expired', transaction: '', lostTransaction: settled[brief.nonce] });
    expect(lost!.reason).toMatch(/^settlement_lost: settlement 0x[0-9a-f]{64} no longer on chain \(the head went back/);
    expect((await ledger.lostReport()).map((r) => r.nonce)).toEqual([brief.nonce]);
    expect(await store.get('settlements:count')).toBe('1');
    expect(log.join('\n')).toContain('can no longer be submitted (authorization expired): recorded lost');
    // Checked again: nothing more to do.
    expect(await ledger.recheckSettled('a second look')).toEqual({ checked: 1, reopened: 0, lost: 0 });
  });

  it('are found when the chain lost only blocks above the head last looked at (no other sign): the settlements recorded since are checked again', async () => {
    const devnet: Devnet = await startDevnet({ chains: ['base'], basePort: 0 });
    cleanup.push(() => devnet.stop());
    const rpcUrl = devnet.chains[0]!.rpcUrl;
    const base = new ChainRuntime().add('base', rpcUrl, 'rpc');
    const store = new MemoryStore();
    const settlerKey = generatePrivateKey();
    await rpc(rpcUrl, 'anvil_setBalance', [privateKeyToAccount(settlerKey).address, `0x${parseEther('100').toString(16)}`]);
    const facilitator = localFacilitator(base, settlerKey, 30_000, 50, store);
    const ledger = new SettlementLedger(store, base, USDC, { resubmit: (p, r) => facilitator.settle(p, r) });
    const payTo = freshAddress();
    const { key, account } = await fundedPayer('5', rpcUrl);
    const requirements = requirementsV2({ asset: USDC, payTo, maxTimeoutSeconds: 300 }, PRICE);
    const payment = await signedPayment({ key, payTo, amount: PRICE });
    const client = createPublicClient({ transport: http(rpcUrl) });
    const used = () => client.readContract({ address: USDC, abi: authorizationState, functionName: 'authorizationState', args: [account.address, payment.nonce] });

    expect(await ledger.chainWentBack()).toBeNull(); // a look: head H
    expect(await ledger.recheckRecent()).toEqual({ checked: 0, reopened: 0, lost: 0 }); // nothing before the first look's window
    const snapshot = await rpc(rpcUrl, 'evm_snapshot', []);
    const result = await facilitator.settle(payment.payload, requirements);
    expect(result.success).toBe(true);
    await ledger.record({
      status: 'settled', transaction: result.transaction as Hex, payer: account.address, nonce: payment.nonce, amount: PRICE.toString(),
      validBefore: (payment.payload.payload as { authorization: { validBefore: string } }).authorization.validBefore,
      resource: 'http://sibyl.test/x402/data/latest-pairs', recordedAt: new Date().toISOString(), payload: payment.payload, requirements,
    });
    // The blocks above H are lost (block H stays) and the chain moves on past the old head.
    expect(await rpc(rpcUrl, 'evm_revert', [snapshot])).toBe(true);
    await facilitator.forgetNonces();
    await rpc(rpcUrl, 'anvil_mine', ['0x5']);
    expect(await used()).toBe(false);
    expect(await ledger.chainWentBack()).toBeNull(); // no sign: the head is past H, and H is unchanged
    expect(await ledger.recheckRecent()).toEqual({ checked: 1, reopened: 1, lost: 0 });
    expect(await used()).toBe(true);
    expect(await ledger.get(account.address, payment.nonce)).toMatchObject({ status: 'settled', reason: 'resubmitted', lostTransaction: result.transaction });
    // The next look checks only what was recorded since the one before.
    expect(await ledger.chainWentBack()).toBeNull();
    expect((await ledger.recheckRecent()).reopened).toBe(0);
  });
});
