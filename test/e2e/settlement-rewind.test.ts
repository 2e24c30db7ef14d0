/**
 * A paid answer's settlement is on chain even after the chain loses it. Sibyl embeds Base,
 * whose node dumps its state every few seconds; right after a dump three paid requests are
 * answered and settled, then the node is killed with SIGKILL and restarted by its supervisor
 * from that dump, without their transactions. The ledger had recorded them settled: after the
 * restart it finds each authorization unused and submits it again, so each payment lands
 * once (one AuthorizationUsed per authorization), the ledger names the lost transaction and
 * the new one, and nothing is left pending.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { createPublicClient, http, type Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { loadConfig } from '../../server/config.js';
import { startSibyl, type Sibyl } from '../../server/service.js';
import { freshAddress, fundedPayer, json, postJson, usdcBalance } from '../helpers/sibyl.js';
import { signedPayment } from '../helpers/payments.js';
import { afterNextDump, authorizationUsedBy, authorizationUses, fundSettler, resettled, settledRecord, until } from '../helpers/settlements.js';

const PRICE = 400_000n;
const path = '/x402/data/latest-pairs';

describe('settled payments the embedded Base lost when its node died', () => {
  let sibyl: Sibyl;
  const logged: string[] = [];
  const payTo = freshAddress();
  beforeAll(async () => {
    const settlerKey = generatePrivateKey();
    sibyl = await startSibyl(loadConfig({
      HOST: '127.0.0.1', LOG_LEVEL: 'silent', PORT: '0', EMBEDDED_CHAINS: 'base', EMBEDDED_RPC_PORT: '0', WORLD_DAYS: '0',
      CURVE_FEED: 'off', FORECAST: 'off', SNAPSHOT_JOBS: 'off', X402_SETTLER_PRIVATE_KEY: settlerKey, X402_PAY_TO: payTo,
    }), { log: (m) => logged.push(m), embeddedStateIntervalSeconds: 4, reconcileIntervalMs: 3_600_000 });
    await fundSettler(sibyl.chains.get('base').rpcUrl, settlerKey);
  });
  afterAll(() => sibyl?.close());

  it('are submitted again after the restart and land once each', async () => {
    const chainUrl = sibyl.chains.get('base').rpcUrl;
    const client = createPublicClient({ transport: http(chainUrl) });
    const { key, account } = await fundedPayer('5', chainUrl);
    const used = authorizationUsedBy(client, account.address);
    const payments = await Promise.all([0, 1, 2].map(() => signedPayment({ key, payTo, amount: PRICE })));

    const node = () => sibyl.chains.get('base').node!();
    const pid = node().pid!;
    const { dump, dumpedAt } = await afterNextDump(pid);
    const lost: Hex[] = [];
    for (const p of payments) {
      const res = await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': p.header });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-settlement-status')).toBeNull();
      const record = await until('the settled record', () => sibyl.ledger.get(account.address, p.nonce));
      expect(record).toMatchObject({ status: 'settled' });
      lost.push(record.transaction as Hex);
    }
    for (const p of payments) expect(await used(p.nonce)).toBe(true);
    process.kill(pid, 'SIGKILL');
    expect(statSync(dump).mtimeMs).toBe(dumpedAt); // no dump holds them

    await until('the restart', async () => node().restarts === 1 && node().status === 'running');
    for (const p of payments) await until(`authorization ${p.nonce} used again`, () => used(p.nonce));
    expect(await authorizationUses(client, account.address, payments.map((p) => p.nonce))).toEqual([1, 1, 1]);
    expect(await usdcBalance(account.address, chainUrl)).toBe(5_000_000n - 3n * PRICE);
    expect(await usdcBalance(payTo, chainUrl)).toBe(3n * PRICE);
    for (const [i, p] of payments.entries()) {
      const record = await resettled(sibyl.ledger, account.address, p.nonce, 'the record decided again');
      expect(record).toMatchObject({ reason: 'resubmitted', lostTransaction: lost[i] });
      expect(await client.getTransactionReceipt({ hash: record.transaction as Hex })).toMatchObject({ status: 'success' });
    }
    expect((await json(await fetch(`${sibyl.url}/healthz`))).settlements).toMatchObject({ pending: 0, lost: 0 });
    expect(logged.join('\n')).toMatch(/settlements rechecked after the node was restarted: 3 checked, 3 no longer on chain and submitted again, 0 lost/);
  });

  it('one the chain lost after its authorization expired is counted lost on /healthz and in the metrics', async () => {
    const { key, account } = await fundedPayer('1', sibyl.chains.get('base').rpcUrl);
    const p = await signedPayment({ key, payTo, amount: PRICE, validBefore: BigInt(Math.floor(Date.now() / 1000) + 60) });
    // Recorded settled by a transaction the chain does not have (it was lost before the last dump).
    await sibyl.ledger.record(settledRecord(p, { transaction: `0x${'ab'.repeat(32)}`, payer: account.address, amount: PRICE, resource: `${sibyl.url}${path}`, requirements: p.payload.accepted }));
    expect(await sibyl.ledger.recheckSettled('a test', Date.now() + 61_000)).toMatchObject({ reopened: 0, lost: 1 });
    expect((await json(await fetch(`${sibyl.url}/healthz`))).settlements).toMatchObject({ pending: 0, lost: 1 });
    expect(await (await fetch(`${sibyl.url}/metrics`)).text()).toMatch(/^sibyl_settlements_lost 1$/m);
  });
});
