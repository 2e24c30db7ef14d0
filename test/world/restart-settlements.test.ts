/**
 * A process restart that takes the embedded Base back (here to the world cache: no
 * checkpoints) loses the payments settled after it from the chain, while Redis still records
 * them settled. The next start checks every settlement still watched against the chain: each
 * authorization it finds unused is submitted again, so every payment lands once and the ledger
 * says which transaction was lost.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { demoPrivateKey } from '../../chain/accounts.js';
import { loadConfig } from '../../server/config.js';
import { startSibyl, type Sibyl } from '../../server/service.js';
import { freshAddress, postJson, usdcBalance } from '../helpers/sibyl.js';
import { TEST_REDIS_URL } from '../helpers/env.js';
import { signedPayment } from '../helpers/payments.js';
import { authorizationUsedBy, authorizationUses, resettled, until } from '../helpers/settlements.js';

const PRICE = 400_000n;

describe('a restart that takes the chain back', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
  });

  it('submits again, at start, the settlements the chain no longer has', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sibyl-restart-settlements-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    // Accounts the cache already holds (genesis funds them): the settler (demo #0, the default) and a demo payer.
    const key = demoPrivateKey(5);
    const account = privateKeyToAccount(key);
    const payTo = freshAddress();
    const env = {
      HOST: '127.0.0.1', LOG_LEVEL: 'silent', PORT: '0', EMBEDDED_CHAINS: 'base', EMBEDDED_RPC_PORT: '0',
      WORLD_DAYS: '1', WORLD_BLOCK_SECONDS: '1200', WORLD_LIVE_BLOCK_MS: '0', WORLD_CHECKPOINT_SECONDS: '0',
      WORLD_SEED: 'restart-settlements', WORLD_CACHE_DIR: join(dir, 'cache'), WORLD_LABELS_PATH: join(dir, 'labels.json'),
      CURVE_FEED: 'off', FORECAST: 'off', SNAPSHOT_JOBS: 'off', BITCOIN: 'off', SOCIAL_FEED: 'off',
      X402_PAY_TO: payTo, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `sibyl-test:${randomUUID()}:`,
    };
    let open: Sibyl | undefined;
    cleanup.push(() => open?.close() ?? Promise.resolve());
    const logged: string[] = [];
    const start = async () => {
      open = await startSibyl(loadConfig(env), { log: (m) => logged.push(m), reconcileIntervalMs: 3_600_000 });
      const url = open.chains.get('base').rpcUrl;
      return { sibyl: open, url, chain: createPublicClient({ transport: http(url) }) as PublicClient };
    };

    const first = await start();
    expect(first.sibyl.worldCache).toBe('written');
    const balance = await usdcBalance(account.address, first.url);
    const payments = [await signedPayment({ key, payTo, amount: PRICE }), await signedPayment({ key, payTo, amount: PRICE })];
    const lost: Hex[] = [];
    for (const p of payments) {
      const res = await postJson(`${first.sibyl.url}/x402/data/latest-pairs`, { limit: 1 }, { 'X-PAYMENT': p.header });
      expect(res.status).toBe(200);
      lost.push((await until('the settled record', () => first.sibyl.ledger.get(account.address, p.nonce))).transaction as Hex);
    }
    await first.sibyl.close();
    open = undefined;

    // The chain is the cache's again, without the payments; the ledger in Redis says settled.
    const second = await start();
    expect(second.sibyl.worldCache).toBe('loaded');
    const used = authorizationUsedBy(second.chain, account.address);
    for (const p of payments) await until(`authorization ${p.nonce} used again`, () => used(p.nonce));
    expect(await authorizationUses(second.chain, account.address, payments.map((p) => p.nonce))).toEqual([1, 1]);
    expect(await usdcBalance(payTo, second.url)).toBe(2n * PRICE);
    expect(await usdcBalance(account.address, second.url)).toBe(balance - 2n * PRICE);
    for (const [i, p] of payments.entries()) {
      expect(await resettled(second.sibyl.ledger, account.address, p.nonce, 'decided again')).toMatchObject({ reason: 'resubmitted', lostTransaction: lost[i] });
    }
    expect(logged.join('\n')).toMatch(/settlements rechecked after a start: 2 checked, 2 no longer on chain and submitted again, 0 lost/);
  }, 240_000);
});
