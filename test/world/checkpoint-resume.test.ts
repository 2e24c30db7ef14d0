/**
 * A restart resumes the embedded chain where it was, not where the world cache left it. A
 * world is built and cached, live blocks run and payments settle; the chain and its simulator
 * are checkpointed beside the cache. The next start loads Base from that checkpoint: the
 * payments are still on chain (their transactions, in the same blocks), the simulator goes on
 * from the checkpoint (live blocks whose world transactions succeed) and the index catches up.
 * A checkpoint whose state file was cut never blocks a start: the chain loads from the cache.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, stat, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http, type Hex, type PublicClient } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { loadConfig } from '../../server/config.js';
import { startSibyl, type Sibyl } from '../../server/service.js';
import { indexKeys } from '../../indexer/rows.js';
import { fundedPayer, freshAddress, json, postJson, usdcBalance } from '../helpers/sibyl.js';
import { signedPayment } from '../helpers/payments.js';
import { authorizationUsedBy, fundSettler, until } from '../helpers/settlements.js';

const PRICE = 400_000n;

describe('a restart after live blocks and payments', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
  });

  it('resumes Base from its newest checkpoint, and from the cache when that checkpoint is cut', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sibyl-checkpoints-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const settlerKey = generatePrivateKey();
    const payTo = freshAddress();
    const env = {
      HOST: '127.0.0.1', LOG_LEVEL: 'silent', PORT: '0', EMBEDDED_CHAINS: 'base', EMBEDDED_RPC_PORT: '0',
      WORLD_DAYS: '1', WORLD_BLOCK_SECONDS: '1200', WORLD_LIVE_BLOCK_MS: '1000', WORLD_CHECKPOINT_SECONDS: '1',
      WORLD_SEED: 'checkpoints', WORLD_CACHE_DIR: join(dir, 'cache'), WORLD_LABELS_PATH: join(dir, 'labels.json'),
      CURVE_FEED: 'off', FORECAST: 'off', SNAPSHOT_JOBS: 'off', BITCOIN: 'off', SOCIAL_FEED: 'off',
      X402_SETTLER_PRIVATE_KEY: settlerKey, X402_PAY_TO: payTo,
    };
    let open: Sibyl | undefined;
    cleanup.push(() => open?.close() ?? Promise.resolve());
    const start = async () => {
      const progress: string[] = [];
      const logged: string[] = [];
      open = await startSibyl(loadConfig(env), { log: (m) => logged.push(m), onProgress: (m) => progress.push(m) });
      return { sibyl: open, progress, logged, chain: createPublicClient({ transport: http(open.chains.get('base').rpcUrl) }) as PublicClient };
    };

    // First start: the world is built and cached; live blocks run; two payments settle.
    const first = await start();
    expect(first.sibyl.worldCache).toBe('written');
    const firstUrl = first.sibyl.chains.get('base').rpcUrl;
    const cachedHead = await first.chain.getBlock();
    await fundSettler(firstUrl, settlerKey);
    const { key, account } = await fundedPayer('5', firstUrl);
    const payments = [await signedPayment({ key, payTo, amount: PRICE }), await signedPayment({ key, payTo, amount: PRICE })];
    const receipts: { hash: Hex; block: bigint; blockHash: Hex }[] = [];
    for (const p of payments) {
      const res = await postJson(`${first.sibyl.url}/x402/data/latest-pairs`, { limit: 1 }, { 'X-PAYMENT': p.header });
      expect(res.status).toBe(200);
      const record = await until('the settled record', () => first.sibyl.ledger.get(account.address, p.nonce));
      const receipt = await first.chain.getTransactionReceipt({ hash: record.transaction as Hex });
      receipts.push({ hash: receipt.transactionHash, block: receipt.blockNumber, blockHash: receipt.blockHash });
    }
    const paidAt = Date.now();
    // A checkpoint taken after them, beside the cache.
    const cacheRoot = join(dir, 'cache');
    // The checkpoints' folder appears with the first one written.
    const live = join(cacheRoot, await until('the checkpoints folder', async () => (await readdir(cacheRoot)).find((n) => n.endsWith('.live'))));
    const checkpoint = await until('a checkpoint after the payments', async () => {
      for (const name of await readdir(live)) {
        const meta = JSON.parse(await readFile(join(live, name, 'meta.json'), 'utf8').catch(() => 'null')) as { takenAt: number; head: number } | null;
        if (meta && meta.takenAt > paidAt) return { name, ...meta };
      }
      return null;
    });
    expect(checkpoint.head).toBeGreaterThan(Number(cachedHead.number));
    await first.sibyl.close();
    open = undefined;

    // Second start: Base comes back from the checkpoint, with the payments on it.
    const second = await start();
    expect(second.sibyl.worldCache).toBe('loaded');
    expect(second.progress.join('\n')).toMatch(/base: resumed from its checkpoint of .* \(block \d+\), newer than the world cache/);
    const secondUrl = second.sibyl.chains.get('base').rpcUrl;
    for (const [i, p] of payments.entries()) {
      expect(await authorizationUsedBy(second.chain, account.address)(p.nonce)).toBe(true);
      expect(await second.chain.getTransactionReceipt({ hash: receipts[i]!.hash })).toMatchObject({ blockNumber: receipts[i]!.block, blockHash: receipts[i]!.blockHash, status: 'success' });
    }
    expect(await usdcBalance(account.address, secondUrl)).toBe(5_000_000n - 2n * PRICE);
    expect(await usdcBalance(payTo, secondUrl)).toBe(2n * PRICE);
    expect(await second.chain.getBlockNumber({ cacheTime: 0 })).toBeGreaterThanOrEqual(BigInt(checkpoint.head));
    // The simulator goes on from the checkpoint: live blocks follow, none failing.
    const resumedHead = await second.chain.getBlockNumber({ cacheTime: 0 });
    await until('three live blocks', async () => (await second.chain.getBlockNumber({ cacheTime: 0 })) >= resumedHead + 3n);
    expect(second.logged.filter((m) => /world block failed/.test(m))).toEqual([]);
    // The index (the cache's, brought up to the head) has reached the checkpoint's blocks.
    const indexed = JSON.parse((await second.sibyl.store.get(indexKeys(8453).checkpoint))!) as { block: number };
    expect(indexed.block).toBeGreaterThanOrEqual(checkpoint.head);
    expect((await json(await fetch(`${second.sibyl.url}/readyz`))).ready).toBe(true);
    await second.sibyl.close();
    open = undefined;

    // A cut checkpoint: the chain loads from the cache instead (the payments are not in it).
    const newest = (await readdir(live)).filter((n) => /^base-\d+$/.test(n)).sort().at(-1)!;
    const stateFile = join(live, newest, 'state.json.gz');
    await truncate(stateFile, Math.floor((await stat(stateFile)).size / 2));
    const third = await start();
    expect(third.sibyl.worldCache).toBe('loaded');
    expect(third.progress.join('\n')).toMatch(/base: the state state\.json\.gz did not load \(state\.json\.gz is not a whole gzip file/);
    expect(third.progress.join('\n')).not.toMatch(/resumed from its checkpoint/);
    expect(third.progress.join('\n')).toMatch(/resumed from the cache/);
    expect((await third.chain.getBlock({ blockNumber: cachedHead.number! })).hash).toBe(cachedHead.hash);
    expect(await authorizationUsedBy(third.chain, account.address)(payments[0]!.nonce)).toBe(false);
    expect((await json(await fetch(`${third.sibyl.url}/readyz`))).ready).toBe(true);
  }, 300_000);
});
