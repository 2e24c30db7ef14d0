/**
 * A hung chain (docs/operations.md, "Faults"): with Base behind a proxy that accepts requests and never
 * answers, a paid request fails 503 upstream_unavailable well inside the catalogue's time targets
 * with nothing charged, and /readyz answers every call in under a second, reporting the chain
 * down (503) once three probes in a row went unanswered (slow, still ready, before); /healthz
 * says the same with 200.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fundedPayer, json, postJson, startTestSibyl, usdcBalance, type TestSibyl } from '../helpers/sibyl.js';
import { signedPayment } from '../helpers/payments.js';
import { startBlackholeRpc, type BlackholeRpc } from '../helpers/blackhole-rpc.js';

const PRICE = 400_000n;
const path = '/x402/data/latest-pairs';

describe('a blackholed chain', () => {
  let proxy: BlackholeRpc;
  let sibyl: TestSibyl;
  beforeAll(async () => {
    proxy = await startBlackholeRpc(inject('rpcUrls').base!);
    sibyl = await startTestSibyl({ rpcUrls: { ...inject('rpcUrls'), base: proxy.url } });
  });
  afterAll(async () => {
    proxy?.set(false);
    await sibyl?.close();
    await proxy?.close();
  });

  it('answers a paid request 503 within 10 s, /readyz within 1 s, and charges nothing', async () => {
    const { key, account } = await fundedPayer('1');
    const { header } = await signedPayment({ key, payTo: sibyl.payTo, amount: PRICE });
    proxy.set(true);

    const started = Date.now();
    const res = await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': header });
    const paidMs = Date.now() - started;
    expect(res.status).toBe(503);
    expect(await json(res)).toMatchObject({ error: { code: 'upstream_unavailable' } });
    expect(paidMs).toBeLessThan(10_000);
    expect(proxy.swallowed).toBeGreaterThan(0);

    // A probe or two unanswered is being slow (ready); three in a row is being down (not ready).
    const healthMs: number[] = [];
    const deadline = Date.now() + 15_000;
    let base: { ok: boolean; state: string };
    let status: number;
    do {
      const t = Date.now();
      const res = await fetch(`${sibyl.url}/readyz`);
      const health = await json(res);
      healthMs.push(Date.now() - t);
      expect(healthMs.at(-1)).toBeLessThan(1_000);
      expect(health.status).toBe('degraded');
      base = health.chains.find((c: { name: string }) => c.name === 'base');
      status = res.status;
      expect(base.state).not.toBe('up');
    } while (base.ok && Date.now() < deadline);
    expect(base).toMatchObject({ ok: false, state: 'down' });
    expect(status).toBe(503);
    const healthz = await fetch(`${sibyl.url}/healthz`);
    expect(healthz.status).toBe(200);
    expect(await json(healthz)).toMatchObject({ ready: false });
    console.log(`blackholed Base: paid request 503 in ${paidMs} ms, /readyz in ${healthMs.join(', ')} ms`);

    // Nothing moved, and the reservation was given back: the same authorization pays once the chain answers.
    proxy.set(false);
    expect(await usdcBalance(account.address)).toBe(1_000_000n);
    const again = await postJson(`${sibyl.url}${path}`, { limit: 1 }, { 'X-PAYMENT': header });
    expect(again.status).toBe(200);
    expect(await usdcBalance(account.address)).toBe(1_000_000n - PRICE);
  });
});
