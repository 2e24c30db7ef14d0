/**
 * A chain or facilitator that cannot be reached is an outage, not the payer's fault
 * (docs/operations.md, "Faults"): a paid request is answered 503 upstream_unavailable with nothing charged and its
 * authorization given back. An embedded chain whose node dies is restarted from its last state
 * dump on the same port, payments made before the death are still on chain, and /healthz shows it.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import { parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { freePort } from '../../chain/anvil.js';
import { loadConfig } from '../../server/config.js';
import { startSibyl, type Sibyl } from '../../server/service.js';
import { freshAddress, fundedPayer, json, postJson, rpc, startTestSibyl, usdcBalance } from '../helpers/sibyl.js';
import { signedPayment } from '../helpers/payments.js';
import { startBlackholeRpc } from '../helpers/blackhole-rpc.js';

const PRICE = 400_000n;
const path = '/x402/data/latest-pairs';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Holds `port` with a listener that drops every connection, until closed (the node stays down meanwhile). */
async function holdPort(port: number, withinMs: number): Promise<Server> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const server = createServer((socket) => socket.destroy());
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen({ port, host: '127.0.0.1', exclusive: true }, resolve);
      });
      return server;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(5);
    }
  }
}

function dead(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

async function baseHealth(url: string) {
  const health = await json(await fetch(`${url}/healthz`));
  return health.chains.find((c: { name: string }) => c.name === 'base');
}

describe('the embedded Base node dies', () => {
  let sibyl: Sibyl;
  let chainUrl: string;
  const payTo = freshAddress();
  beforeAll(async () => {
    const port = await freePort();
    const settlerKey = generatePrivateKey();
    sibyl = await startSibyl(loadConfig({
      HOST: '127.0.0.1', LOG_LEVEL: 'silent', PORT: '0', EMBEDDED_CHAINS: 'base', EMBEDDED_RPC_PORT: String(port), WORLD_DAYS: '0',
      CURVE_FEED: 'off', FORECAST: 'off', SNAPSHOT_JOBS: 'off', X402_SETTLER_PRIVATE_KEY: settlerKey, X402_PAY_TO: payTo,
    }), { log: () => {}, embeddedStateIntervalSeconds: 1 });
    chainUrl = `http://127.0.0.1:${port}`;
    await rpc(chainUrl, 'anvil_setBalance', [privateKeyToAccount(settlerKey).address, `0x${parseEther('100').toString(16)}`]);
  });
  afterAll(() => sibyl?.close());

  it('answers 503 while it is down, restarts it from its dump, and keeps what was paid before', async () => {
    const { key, account } = await fundedPayer('2', chainUrl);
    const before = await signedPayment({ key, payTo, amount: PRICE });
    const during = await signedPayment({ key, payTo, amount: PRICE });
    expect((await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': before.header })).status).toBe(200);
    await sleep(2_500); // two state dumps later

    const pid = sibyl.chains.get('base').node!().pid!;
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    while (!dead(pid)) await sleep(5);
    // Keep the node down (the supervisor waits 1 s before restarting, then finds the port held).
    const blocker = await holdPort(Number(new URL(chainUrl).port), 900);
    let blocked = true;
    try {
      const started = Date.now();
      const res = await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': during.header });
      const ms = Date.now() - started;
      expect(res.status).toBe(503);
      expect(await json(res)).toMatchObject({ error: { code: 'upstream_unavailable' } });
      console.log(`Base down: paid request 503 in ${ms} ms`);
      const down = await baseHealth(sibyl.url);
      expect(down).toMatchObject({ ok: false, node: { status: 'restarting', restarts: 0 } });
      expect(down.node.lastExit).toMatch(/SIGKILL/);
    } finally {
      await new Promise((r) => blocker.close(r));
      blocked = false;
    }
    expect(blocked).toBe(false);

    const deadline = Date.now() + 30_000;
    let up = await baseHealth(sibyl.url);
    while (!(up.ok && up.node.restarts === 1) && Date.now() < deadline) {
      await sleep(200);
      up = await baseHealth(sibyl.url);
    }
    expect(up).toMatchObject({ ok: true, node: { status: 'running', restarts: 1, stateIntervalSeconds: 1 } });
    // Restarted after the kill, once the port was free again, and before this health answer.
    expect(Date.parse(up.node.lastRestartAt)).toBeGreaterThanOrEqual(killedAt);
    expect(Date.parse(up.node.lastRestartAt)).toBeLessThanOrEqual(Date.now());
    expect(up.node.pid).not.toBe(pid);

    // The payment made before the death is on the restarted chain; the one during it moved nothing.
    expect(await usdcBalance(account.address, chainUrl)).toBe(2_000_000n - PRICE);
    expect(await usdcBalance(payTo, chainUrl)).toBe(PRICE);
    // Its reservation was given back: the same authorization pays now.
    expect((await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': during.header })).status).toBe(200);
    expect(await usdcBalance(account.address, chainUrl)).toBe(2_000_000n - 2n * PRICE);
  });

  it('after a death that loses the last blocks, the settler counts from the chain again, the next payment settles and a lost one is submitted again', async () => {
    const { key, account } = await fundedPayer('2', chainUrl);
    await sleep(2_500); // the payer's funding is in a dump
    const first = await signedPayment({ key, payTo, amount: PRICE });
    const next = await signedPayment({ key, payTo, amount: PRICE });
    expect((await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': first.header })).status).toBe(200);
    const restarts = sibyl.chains.get('base').node!().restarts;
    process.kill(sibyl.chains.get('base').node!().pid!, 'SIGKILL'); // at once: the settlement may not be in a dump yet
    const deadline = Date.now() + 30_000;
    while (!((await baseHealth(sibyl.url)).ok && sibyl.chains.get('base').node!().restarts === restarts + 1) && Date.now() < deadline) await sleep(200);
    const kept = (await usdcBalance(account.address, chainUrl)) === 2_000_000n - PRICE;
    console.log(`settlement made just before the death ${kept ? 'kept' : 'lost with the blocks after the last dump'}`);

    const started = Date.now();
    const res = await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': next.header });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-settlement-status')).toBeNull(); // settled, not left pending behind a nonce gap
    expect(Date.now() - started).toBeLessThan(10_000);
    // One lost with the blocks was recorded settled: the reconciler submits it again, so both land.
    // (The transfer lands on chain before the reconciler, seeing its receipt, records it settled: both are waited for.)
    const until = Date.now() + 20_000;
    const landed = async () => (await usdcBalance(account.address, chainUrl)) === 2_000_000n - 2n * PRICE && (await sibyl.ledger.get(account.address, first.nonce))?.status === 'settled';
    while (!(await landed()) && Date.now() < until) await sleep(200);
    expect(await usdcBalance(account.address, chainUrl)).toBe(2_000_000n - 2n * PRICE);
    expect(await sibyl.ledger.get(account.address, first.nonce)).toMatchObject({ status: 'settled' });
  });
});

describe('a remote facilitator that does not answer', () => {
  it('answers 503 within 10 s and charges nothing', async () => {
    const facilitator = await startBlackholeRpc('http://127.0.0.1:9');
    facilitator.set(true);
    const sibyl = await startTestSibyl({ env: { X402_FACILITATOR_URL: facilitator.url } });
    try {
      const { key, account } = await fundedPayer('1');
      const { header } = await signedPayment({ key, payTo: sibyl.payTo, amount: PRICE });
      const started = Date.now();
      const res = await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': header });
      expect(res.status).toBe(503);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await usdcBalance(account.address)).toBe(1_000_000n);
    } finally {
      await sibyl.close();
      await facilitator.close();
    }
  });
});
