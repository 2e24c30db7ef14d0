/**
 * What the service publishes must not leak secrets or internals (docs/testing.md): /healthz
 * shows a provider chain URL only as scheme, host and port (its path and query carry API keys),
 * and a 402 for a payment that fails verification gives a one-line reason, the facilitator's
 * detail (viem's multi-line error with the call and its arguments) going to the server log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundedPayer, json, postJson, rpcUrl, startTestSibyl, type TestSibyl } from '../helpers/sibyl.js';
import { signedPayment } from '../helpers/payments.js';
import { startSlowRpc, type SlowRpc } from '../helpers/slow-rpc.js';

const logged: string[] = [];

describe('no secrets or call dumps in public answers', () => {
  // anvil answers only on `/`: a pass-through proxy (nothing slowed) answers on any path, as
  // providers do with the key in the path or query.
  let proxy: SlowRpc;
  let sibyl: TestSibyl;
  beforeAll(async () => {
    proxy = await startSlowRpc(rpcUrl(), [], 0);
    sibyl = await startTestSibyl({
      env: { CHAIN_RPC_URL_BASE: `${proxy.url}/secret-key-123?apikey=xyz` },
      log: (msg, err) => void logged.push(`${msg} ${err ?? ''}`),
    });
  });
  afterAll(async () => {
    await sibyl?.close();
    await proxy?.close();
  });

  it('/healthz shows a chain read by URL as scheme, host and port only', async () => {
    const res = await fetch(`${sibyl.url}/healthz`);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(text).not.toContain('secret-key-123');
    expect(text).not.toContain('apikey');
    expect(text).not.toContain('xyz');
    const base = (JSON.parse(text) as { chains: { name: string; source: string; rpcUrl: string; ok: boolean }[] }).chains.find((c) => c.name === 'base')!;
    const { protocol, host } = new URL(proxy.url);
    expect(base).toMatchObject({ source: 'rpc', ok: true, rpcUrl: `${protocol}//${host}` });
  });

  it('a payment refused by verification answers 402 with a one-line reason, no call arguments', async () => {
    const { key } = await fundedPayer('0.10');
    const { header } = await signedPayment({ key, payTo: sibyl.payTo, amount: 400_000n });
    const res = await postJson(`${sibyl.url}/x402/data/latest-pairs`, { limit: 1 }, { 'X-PAYMENT': header });
    expect(res.status).toBe(402);
    const body = await json(res);
    expect(body.error).toBe('insufficient_balance');
    expect(typeof body.message).toBe('string');
    expect(body.message).not.toMatch(/[\r\n]/);
    expect(body.message.length).toBeLessThanOrEqual(200);
    expect(body.message).not.toMatch(/args:|Contract Call|Request Arguments|Version: viem|transferWithAuthorization\(/i);
    expect(JSON.stringify(body)).not.toContain('Contract Call');
    // The detail is kept for the operator.
    expect(logged.some((line) => line.includes('insufficient_balance') && /\n/.test(line))).toBe(true);
  });
});
