/**
 * `kill -9`, then `npm start`: every payment made before is still on chain. Sibyl runs as
 * `npm start` does (its own embedded Base with a one-day world, cached and checkpointed, on a
 * Redis prefix of its own), sells twelve answers paid with the official x402 client, and its
 * whole process group is killed with SIGKILL, checkpoints or not. The next start loads Base from
 * its newest checkpoint, or the cache, which may predate some of the payments: those are found
 * unused at start (the ledger in Redis kept their signed authorizations) and submitted again.
 * Then each authorization is used on chain exactly once, and each payer resending its payment
 * gets its answer with a receipt naming the transaction that settled it.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPublicClient, http, parseAbi, parseAbiItem, type Hex } from 'viem';
import { decodePaymentResponseHeader, decodePaymentSignatureHeader } from '@x402/core/http';
import { demoAccount, demoPrivateKey } from '../../chain/accounts.js';
import { CHAINS } from '../../chain/chains.js';
import { TEST_REDIS_URL } from '../helpers/env.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { freshAddress, payingFetch, postJson } from '../helpers/sibyl.js';

const PATH = '/x402/data/latest-pairs';
const START_MS = 180_000;
const USDC = CHAINS.base.usdc;
const authorizationState = parseAbi(['function authorizationState(address, bytes32) view returns (bool)']);
const authorizationUsed = parseAbiItem('event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether a checkpoint of Base taken after `since` (ms) is under `dir` (`<cache>.live/base-<ms>`). */
async function checkpointsSince(dir: string, since: number): Promise<boolean> {
  for (const entry of await readdir(dir, { recursive: true })) {
    const taken = /\.live\/base-(\d+)$/.exec(entry);
    if (taken && Number(taken[1]) > since) return true;
  }
  return false;
}

describe('kill -9, then npm start', () => {
  const processes: ServiceProcess[] = [];
  let dir: string | undefined;
  afterAll(async () => {
    for (const p of processes) await p.kill();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps every payment made before on chain, once each, and answers their resends', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sibyl-kill-restart-'));
    const env = {
      HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', EMBEDDED_CHAINS: 'base', EMBEDDED_RPC_PORT: '0',
      WORLD_DAYS: '1', WORLD_BLOCK_SECONDS: '1200', WORLD_LIVE_BLOCK_MS: '1000', WORLD_CHECKPOINT_SECONDS: '5',
      WORLD_SEED: 'kill-restart', WORLD_CACHE_DIR: join(dir, 'cache'), WORLD_LABELS_PATH: join(dir, 'labels.json'),
      CURVE_FEED: 'off', FORECAST: 'off', FORECAST_JOBS: 'off', SNAPSHOT_JOBS: 'off', BITCOIN: 'off', SOCIAL_FEED: 'off',
      REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `sibyl-test:${randomUUID()}:`, X402_PAY_TO: freshAddress(),
    };
    const start = async () => {
      const sibyl = startServiceProcess(env);
      processes.push(sibyl);
      const ready = await sibyl.waitFor(/^Sibyl ready in/, START_MS);
      const health = (await (await fetch(`${ready.url}/healthz`)).json()) as { chains: { name: string; rpcUrl: string }[] };
      return { sibyl, url: String(ready.url), rpcUrl: health.chains.find((c) => c.name === 'base')!.rpcUrl };
    };

    const first = await start();
    // Payers funded at genesis (a restart from the cache keeps them), three payments each at a time.
    const sent: { header: string; payer: Hex; nonce: Hex }[] = [];
    const payments = () => Promise.all([1, 2].map(async (n) => {
      const { pay, seen } = payingFetch(demoPrivateKey(n));
      for (let i = 0; i < 3; i++) {
        const res = await pay(`${first.url}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"limit":1}' });
        expect(res.status, await res.text()).toBe(200);
        const header = seen.at(-1)!;
        const { authorization } = (decodePaymentSignatureHeader(header) as unknown as { payload: { authorization: { from: Hex; nonce: Hex } } }).payload;
        sent.push({ header, payer: authorization.from, nonce: authorization.nonce });
      }
    }));
    // Six before a checkpoint of Base, six after it: the kill comes before the next one holds them.
    await payments();
    const paidAt = Date.now();
    for (const deadline = Date.now() + 60_000; !(await checkpointsSince(dir, paidAt)); await sleep(200)) {
      if (Date.now() > deadline) throw new Error('no checkpoint of Base within 60 s');
    }
    await payments();
    expect(sent).toHaveLength(12);
    expect(new Set(sent.map((s) => s.payer))).toEqual(new Set([demoAccount(1).address, demoAccount(2).address]));
    first.sibyl.signal('SIGKILL', 'group');
    await first.sibyl.exited;

    const second = await start();
    const chain = createPublicClient({ transport: http(second.rpcUrl) });
    const used = (s: (typeof sent)[number]) => chain.readContract({ address: USDC, abi: authorizationState, functionName: 'authorizationState', args: [s.payer, s.nonce] });
    for (const deadline = Date.now() + 60_000; !(await Promise.all(sent.map(used))).every(Boolean); await sleep(500)) {
      if (Date.now() > deadline) throw new Error(`unused after the restart: ${(await Promise.all(sent.map(used))).filter((u) => !u).length} of ${sent.length}`);
    }
    const restarted = second.sibyl.lines.map((l) => l.msg).join('\n');
    expect(restarted).toMatch(/base: resumed from its checkpoint of/);
    expect(restarted).toMatch(/settlements rechecked after a start: 12 checked, \d+ no longer on chain and submitted again, 0 lost/);
    for (const s of sent) {
      const events = await chain.getLogs({ address: USDC, event: authorizationUsed, args: { authorizer: s.payer, nonce: s.nonce }, fromBlock: 0n });
      expect(events).toHaveLength(1);
      // The payer resends its payment: its answer, with the receipt of the transaction that settled it.
      const res = await postJson(`${second.url}${PATH}`, { limit: 1 }, { 'PAYMENT-SIGNATURE': s.header });
      expect(res.status, await res.clone().text()).toBe(200);
      const receipt = decodePaymentResponseHeader(res.headers.get('payment-response')!);
      expect(receipt.success).toBe(true);
      expect(receipt.transaction).toBe(events[0]!.transactionHash);
    }
  }, 2 * START_MS);
});
