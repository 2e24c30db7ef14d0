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
import { statSync } from 'node:fs';
import { createPublicClient, http, type Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { startDevnet } from '../../chain/devnet.js';
import { ChainRuntime } from '../../chain/runtime.js';
import { CHAINS } from '../../chain/chains.js';
import { localFacilitator, type LocalFacilitator } from '../../payments/facilitator.js';
import { SettlementLedger } from '../../payments/settlements.js';
import { startReconciler } from '../../payments/reconciler.js';
import { requirementsV2 } from '../../payments/terms.js';
import { MemoryStore } from '../../store/memory.js';
import { freshAddress, fundedPayer, rpc, usdcBalance } from '../helpers/sibyl.js';
import { signedPayment } from '../helpers/payments.js';
import { afterNextDump, authorizationUsedBy, authorizationUses, fundSettler, resettled, settledRecord, until } from '../helpers/settlements.js';

const PRICE = 400_000n;
const USDC = CHAINS.base.usdc;

describe('settlements the chain lost in a restart', () => {
  const cleanup: (() => unknown)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  /**
   * A devnet Base (seen as embedded, or as a plain RPC with no node to watch), a funded settler,
   * a ledger that submits again through it, and a funded payer; `settle` settles a payment and
   * records it settled, as the paywall does.
   */
  async function settling(options: { source: 'embedded' | 'rpc'; stateIntervalSeconds?: number }) {
    let facilitator: LocalFacilitator | undefined;
    const devnet = await startDevnet({
      chains: ['base'], basePort: 0, stateIntervalSeconds: options.stateIntervalSeconds,
      onRestart: () => void facilitator?.forgetNonces(),
    });
    cleanup.push(() => devnet.stop());
    const rpcUrl = devnet.chains[0]!.rpcUrl;
    const node = devnet.chains[0]!.node;
    const base = new ChainRuntime().add('base', rpcUrl, options.source, options.source === 'embedded' ? node : undefined);
    const store = new MemoryStore();
    const settlerKey = generatePrivateKey();
    await fundSettler(rpcUrl, settlerKey);
    const settler = localFacilitator(base, settlerKey, 30_000, 50, store);
    facilitator = settler;
    const log: string[] = [];
    const ledger = new SettlementLedger(store, base, USDC, { resubmit: (p, r) => settler.settle(p, r), log: (m) => log.push(m) });
    const payTo = freshAddress();
    const { key, account } = await fundedPayer('5', rpcUrl);
    const requirements = requirementsV2({ asset: USDC, payTo, maxTimeoutSeconds: 300 }, PRICE);
    const client = createPublicClient({ transport: http(rpcUrl) });
    const settle = async (p: Awaited<ReturnType<typeof signedPayment>>): Promise<Hex> => {
      const result = await settler.settle(p.payload, requirements);
      expect(result.success).toBe(true);
      const transaction = result.transaction as Hex;
      await ledger.record(settledRecord(p, { transaction, payer: account.address, amount: PRICE, resource: 'http://sibyl.test/x402/data/latest-pairs', requirements }));
      return transaction;
    };
    return { node: node!, rpcUrl, store, facilitator: settler, ledger, log, payTo, key, account, client, used: authorizationUsedBy(client, account.address), settle };
  }

  it('are found unused after the node restarts from an older dump, and submitted again once each', async () => {
    const { node, rpcUrl, ledger, log, payTo, key, account, client, used, settle } = await settling({ source: 'embedded', stateIntervalSeconds: 4 });
    const reconciler = startReconciler(ledger, 3_600_000, (m) => log.push(m));
    cleanup.push(() => reconciler.stop());
    const payments = await Promise.all([0, 1, 2].map(() => signedPayment({ key, payTo, amount: PRICE })));

    // Right after a dump (the payer's funding in it), the three settle and the node dies before the next.
    const pid = node().pid!;
    const { dump, dumpedAt } = await afterNextDump(pid);
    const transactions: Hex[] = [];
    for (const p of payments) transactions.push(await settle(p));
    for (const p of payments) expect(await used(p.nonce)).toBe(true);
    process.kill(pid, 'SIGKILL');
    expect(statSync(dump).mtimeMs).toBe(dumpedAt); // no dump holds them

    // Restarted from that dump: the settlements are gone from the chain.
    await until('the restart', async () => node().restarts === 1 && node().status === 'running');
    // ... and are submitted again by the reconciler, each landing once.
    for (const p of payments) await until(`authorization ${p.nonce} used again`, () => used(p.nonce));
    expect(await usdcBalance(account.address, rpcUrl)).toBe(5_000_000n - 3n * PRICE);
    expect(await usdcBalance(payTo, rpcUrl)).toBe(3n * PRICE);
    expect(await authorizationUses(client, account.address, payments.map((p) => p.nonce))).toEqual([1, 1, 1]);
    for (const [i, p] of payments.entries()) {
      const record = await resettled(ledger, account.address, p.nonce, 'the record decided');
      expect(record).toMatchObject({ status: 'settled', reason: 'resubmitted', lostTransaction: transactions[i] });
      expect(record.transaction).not.toBe(transactions[i]);
      expect(await client.getTransactionReceipt({ hash: record.transaction as Hex })).toMatchObject({ status: 'success' });
    }
    expect(await ledger.pending()).toEqual([]);
    expect(log.join('\n')).toMatch(/settlements rechecked after the node was restarted: 3 checked, 3 no longer on chain and submitted again, 0 lost/);
  });

  it('are found after the head went back; one that expired meanwhile is recorded lost', async () => {
    const { rpcUrl, store, facilitator, ledger, log, payTo, key, account, used, settle } = await settling({ source: 'embedded' });
    const now = BigInt(Math.floor(Date.now() / 1000));
    const lasting = await signedPayment({ key, payTo, amount: PRICE, validBefore: now + 300n });
    const brief = await signedPayment({ key, payTo, amount: PRICE, validBefore: now + 60n });

    const snapshot = await rpc(rpcUrl, 'evm_snapshot', []);
    const settled: Record<string, Hex> = {};
    for (const p of [lasting, brief]) settled[p.nonce] = await settle(p);
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
    const { rpcUrl, facilitator, ledger, payTo, key, account, used: usedBy, settle } = await settling({ source: 'rpc' });
    const payment = await signedPayment({ key, payTo, amount: PRICE });
    const used = () => usedBy(payment.nonce);

    expect(await ledger.chainWentBack()).toBeNull(); // a look: head H
    expect(await ledger.recheckRecent()).toEqual({ checked: 0, reopened: 0, lost: 0 }); // nothing before the first look's window
    const snapshot = await rpc(rpcUrl, 'evm_snapshot', []);
    const transaction = await settle(payment);
    // The blocks above H are lost (block H stays) and the chain moves on past the old head.
    expect(await rpc(rpcUrl, 'evm_revert', [snapshot])).toBe(true);
    await facilitator.forgetNonces();
    await rpc(rpcUrl, 'anvil_mine', ['0x5']);
    expect(await used()).toBe(false);
    expect(await ledger.chainWentBack()).toBeNull(); // no sign: the head is past H, and H is unchanged
    expect(await ledger.recheckRecent()).toEqual({ checked: 1, reopened: 1, lost: 0 });
    expect(await used()).toBe(true);
    expect(await ledger.get(account.address, payment.nonce)).toMatchObject({ status: 'settled', reason: 'resubmitted', lostTransaction: transaction });
    // The next look checks only what was recorded since the one before.
    expect(await ledger.chainWentBack()).toBeNull();
    expect((await ledger.recheckRecent()).reopened).toBe(0);
  });
});
