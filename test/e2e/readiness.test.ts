/**
 * Liveness and readiness apart: /livez answers 200 whenever the process serves HTTP; /readyz (and
 * /healthz) report each part up, slow or down and answer 503 only while one is down. A chain
 * that answers late (what a busy machine looks like) is reported slow with its latency and
 * stays ready; a chain that refuses connections is down and Sibyl not ready.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { json, startTestSibyl, type TestSibyl } from '../helpers/sibyl.js';
import { startSlowRpc, type SlowRpc } from '../helpers/slow-rpc.js';

/** Longer than a health request waits for a probe (500 ms), far shorter than what makes a part down. */
const LATE_MS = 900;

describe('readiness with a slow, then a gone, chain', () => {
  let proxy: SlowRpc;
  let sibyl: TestSibyl;
  beforeAll(async () => {
    proxy = await startSlowRpc(inject('rpcUrls').base!, ['eth_blockNumber', 'eth_chainId'], LATE_MS);
    sibyl = await startTestSibyl({ rpcUrls: { ...inject('rpcUrls'), base: proxy.url } });
  });
  afterAll(async () => {
    await sibyl?.close();
    await proxy?.close();
  });

  it('a slow chain is reported slow with its latency, and Sibyl stays ready (200 on every probe)', async () => {
    for (let i = 0; i < 6; i++) {
      const started = Date.now();
      const res = await fetch(`${sibyl.url}/readyz`);
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(res.status).toBe(200);
      const report = await json(res);
      expect(report).toMatchObject({ status: 'degraded', ready: true, store: { state: 'up', ok: true } });
      const base = report.chains.find((c: { name: string }) => c.name === 'base');
      expect(base).toMatchObject({ state: 'slow', ok: true });
      expect(base.latencyMs).toBeGreaterThanOrEqual(500);
      expect(base.error).toBeUndefined();
      for (const other of report.chains.filter((c: { name: string }) => c.name !== 'base')) expect(other.state, other.name).not.toBe('down');
    }
    // /healthz is the same report.
    const healthz = await fetch(`${sibyl.url}/healthz`);
    expect(healthz.status).toBe(200);
    expect(await json(healthz)).toMatchObject({ ready: true });
  });

  it('a chain that refuses connections is down: 503, while /livez still answers 200', async () => {
    await proxy.close();
    let report: any;
    let status = 0;
    const deadline = Date.now() + 15_000;
    do {
      const res = await fetch(`${sibyl.url}/readyz`);
      status = res.status;
      report = await json(res);
    } while (status !== 503 && Date.now() < deadline);
    expect(status).toBe(503);
    expect(report).toMatchObject({ status: 'degraded', ready: false });
    const base = report.chains.find((c: { name: string }) => c.name === 'base');
    expect(base).toMatchObject({ state: 'down', ok: false });
    expect(base.error).toMatch(/ECONNREFUSED|fetch failed|HTTP request failed|failed/i);

    const live = await fetch(`${sibyl.url}/livez`);
    expect(live.status).toBe(200);
    expect(await json(live)).toMatchObject({ status: 'alive' });
  });
});
