/**
 * Sibyl never adopts a node it did not start. A foreign anvil (chain 31337, what developers run
 * on 8545) holds the port Sibyl's embedded Base wants. On the default port Sibyl moves to a free
 * one, serves paid requests there and lists it in /healthz, writing nothing into the foreign
 * node; with EMBEDDED_RPC_PORT set it refuses to start with a message naming the variable. A
 * chain whose node answers another chain id is not reported healthy.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createPublicClient, http, type PublicClient } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { anvilBinary, freePort } from '../../chain/anvil.js';
import { CHAINS } from '../../chain/chains.js';
import { ConfigError, loadConfig } from '../../server/config.js';
import { startSibyl } from '../../server/service.js';
import { freshAddress, fundedPayer, json, payingFetch, usdcBalance } from '../helpers/sibyl.js';

const ENV = {
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  PORT: '0',
  EMBEDDED_CHAINS: 'base',
  WORLD_DAYS: '0',
  CURVE_FEED: 'off',
  FORECAST: 'off',
  SNAPSHOT_JOBS: 'off',
};


/** Child anvil processes of this test process (the foreign one included). */
function childAnvils(): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(process.pid), '-f', 'anvil'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

describe('a port held by a node Sibyl did not start', () => {
  let foreign: ChildProcess;
  let foreignPort: number;
  let foreignUrl: string;
  let foreignClient: PublicClient;
  let foreignHead: bigint;

  beforeAll(async () => {
    foreignPort = await freePort();
    foreignUrl = `http://127.0.0.1:${foreignPort}`;
    // Plain anvil as a developer runs it: default chain id 31337.
    foreign = spawn(anvilBinary(), ['--host', '127.0.0.1', '--port', String(foreignPort), '--quiet'], { stdio: 'ignore' });
    foreignClient = createPublicClient({ transport: http(foreignUrl) });
    for (let i = 0; ; i++) {
      const id = await foreignClient.getChainId().catch(() => null);
      if (id !== null) break;
      if (i > 500) throw new Error('the foreign anvil did not start');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await foreignClient.getChainId()).toBe(31337);
    foreignHead = await foreignClient.getBlockNumber({ cacheTime: 0 });
  });
  afterAll(async () => {
    if (foreign && foreign.exitCode === null) {
      const exited = new Promise((r) => foreign.once('exit', r));
      foreign.kill('SIGTERM');
      await exited;
    }
  });

  /** The foreign node is as it was: same chain, no new block, no USDC contract written into it. */
  async function expectForeignUntouched(): Promise<void> {
    expect(await foreignClient.getChainId()).toBe(31337);
    expect(await foreignClient.getBlockNumber({ cacheTime: 0 })).toBe(foreignHead);
    expect(await foreignClient.getCode({ address: CHAINS.base.usdc })).toBeUndefined();
  }

  it('EMBEDDED_RPC_PORT unset: the configuration prefers 8545 and lets a taken port move', () => {
    const config = loadConfig(ENV);
    expect(config.embeddedRpcPort).toBe(8545);
    expect(config.embeddedRpcPortFixed).toBe(false);
    const fixed = loadConfig({ ...ENV, EMBEDDED_RPC_PORT: '9545' });
    expect([fixed.embeddedRpcPort, fixed.embeddedRpcPortFixed]).toEqual([9545, true]);
  });

  it('default port taken: Sibyl runs its chain on a free port, lists it in /healthz and serves paid requests there', async () => {
    const progress: string[] = [];
    // The default configuration, with the preferred port being the one the foreign node holds.
    const config = { ...loadConfig({ ...ENV, X402_PAY_TO: freshAddress() }), embeddedRpcPort: foreignPort, embeddedRpcPortFixed: false };
    const sibyl = await startSibyl(config, { log: () => {}, onProgress: (m) => progress.push(m) });
    let servedUrl: string;
    try {
      const health = await json(await fetch(`${sibyl.url}/healthz`));
      expect(health.status).toBe('ok');
      const base = health.chains.find((c: { name: string }) => c.name === 'base');
      servedUrl = base.rpcUrl;
      expect(base).toMatchObject({ chainId: 8453, source: 'embedded', ok: true });
      expect(new URL(servedUrl).port).not.toBe(String(foreignPort));
      expect(progress.join('\n')).toContain(`port ${foreignPort} is in use by a process Sibyl did not start; chain 8453 runs at ${servedUrl} instead`);

      // The URL health lists is a Base devnet with USDC, and payments settle on it.
      const served = createPublicClient({ transport: http(servedUrl) });
      expect(await served.getChainId()).toBe(8453);
      expect(await served.getCode({ address: CHAINS.base.usdc })).toMatch(/^0x[0-9a-f]{100,}/);
      const { key, account } = await fundedPayer('5', servedUrl);
      const res = await payingFetch(key).pay(`${sibyl.url}/x402/data/latest-pairs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chain: 'base', limit: 5 }),
      });
      expect(res.status).toBe(200);
      const answer = await json(res);
      expect(answer).toMatchObject({ chain: 'base', chainId: 8453, source: 'embedded' });
      expect(answer.pairs.length).toBeGreaterThan(0);
      expect(await usdcBalance(account.address, servedUrl)).toBe(5_000_000n - 400_000n);
      expect(await usdcBalance(config.payTo, servedUrl)).toBe(400_000n);
      await expectForeignUntouched();
    } finally {
      await sibyl.close();
    }
    // Its own node went with it; the foreign one is still there.
    await expect(createPublicClient({ transport: http(servedUrl, { retryCount: 0 }) }).getChainId()).rejects.toThrow();
    expect(childAnvils()).toEqual([foreign.pid]);
    await expectForeignUntouched();
  });

  it('EMBEDDED_RPC_PORT set to the taken port: start-up stops with a configuration error naming the variable', async () => {
    const config = loadConfig({ ...ENV, EMBEDDED_RPC_PORT: String(foreignPort) });
    const failure = await startSibyl(config, { log: () => {} }).then(() => null, (err: unknown) => err);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toMatch(new RegExp(`^EMBEDDED_RPC_PORT: port ${foreignPort} \\(base\\) on 127\\.0\\.0\\.1 is in use by a process Sibyl did not start`));
    expect(childAnvils()).toEqual([foreign.pid]);
    await expectForeignUntouched();
  });

  it('a chain whose node answers another chain id is reported, not ok', async () => {
    const sibyl = await startSibyl(
      loadConfig({
        ...ENV,
        EMBEDDED_CHAINS: '',
        CHAIN_RPC_URL_BASE: inject('rpcUrls').base!,
        CHAIN_RPC_URL_ETHEREUM: foreignUrl,
        X402_SETTLER_PRIVATE_KEY: generatePrivateKey(),
      }),
      { log: () => {} },
    );
    try {
      const health = await json(await fetch(`${sibyl.url}/healthz`));
      expect(health.status).toBe('degraded');
      const byName = Object.fromEntries(health.chains.map((c: { name: string }) => [c.name, c]));
      expect(byName.base).toMatchObject({ ok: true });
      expect(byName.ethereum).toMatchObject({ ok: false, rpcUrl: foreignUrl, error: 'the node answers chain id 31337, not 1' });
    } finally {
      await sibyl.close();
    }
    await expectForeignUntouched();
  });
});
