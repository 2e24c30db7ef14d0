/**
 * Faults under load, counted on chain: two instances on one Redis and one Base chain take a
 * burst of paid requests (official x402 client payloads) while one part is killed with SIGKILL
 * mid-burst: Redis (down 3 s, then 10 s), the Base node (its supervisor restarts it from its
 * last state dump, losing the blocks since), and one instance (`npm start` in a process of its
 * own). Every payer that got no answer resends the same payment, as the x402 client would, to
 * an instance that runs. Then, on chain: every answered payment settled, every settled one
 * answered, one Transfer each, and every receipt names a transaction the chain has.
 *
 * The shape of the deployment docs/operations.md describes: Redis with appendonly, fsync every
 * second; both instances settle with one key (their nonces shared through Redis).
 *
 * FAULT_BURST sets the burst and FAULT_DUMP_SECONDS the node's dump interval: 60 and 3 s in the
 * suite (it shares two cores with the other files), 200 and 10 s (the embedded world's) for the
 * figures in docs/operations.md. The counts are printed.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEther, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { burst, countOnChain, serverErrors, paymentRequired, resendUnanswered, signPayments, type FaultCount, type Payment } from '../helpers/fault-burst.js';
import { startPrivateRedis, type PrivateRedis } from '../helpers/redis-server.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { freshAddress, fundedPayer, rpc, startTestSibyl, untilIndexed, type TestSibyl } from '../helpers/sibyl.js';

const BURST = Number(process.env.FAULT_BURST ?? 60);
/** Seconds between the Base node's state dumps (the embedded world's is 10). */
const DUMP_SECONDS = Number(process.env.FAULT_DUMP_SECONDS ?? 3);
const PATH = '/x402/data/latest-pairs';
const BODY = { limit: 1 };
const START_MS = 120_000;
const ROW_MS = 300_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`a burst of ${BURST} paid requests over two instances while a part is killed`, () => {
  let redis: PrivateRedis;
  let devnet: Devnet;
  let chainUrl: string;
  let b: TestSibyl;
  let a: ServiceProcess | undefined;
  let aUrl: string;
  const payTo: Address = freshAddress();
  const settlerKey = generatePrivateKey();
  const prefix = `faults:${randomUUID()}:`;
  const rows: Record<string, FaultCount> = {};
  let redisDown = false;
  let dump: string;

  /** Until the node dumped its state after `since` (the payers' funding must survive its restart, as funds of long ago would). */
  async function untilDumped(since: number): Promise<void> {
    for (const deadline = Date.now() + 30_000; (statSync(dump, { throwIfNoEntry: false })?.mtimeMs ?? 0) <= since + 100; await sleep(200)) {
      if (Date.now() > deadline) throw new Error('no state dump within 30 s');
    }
    await sleep(500); // written whole
  }

  const env = () => ({
    REDIS_URL: redis.url, REDIS_PREFIX: prefix, X402_SETTLER_PRIVATE_KEY: settlerKey, X402_PAY_TO: payTo,
  });

  async function startA(): Promise<void> {
    a = startServiceProcess({
      HOST: '127.0.0.1', PORT: '0', EMBEDDED_CHAINS: '', CHAIN_RPC_URL_BASE: chainUrl, ...env(),
      BITCOIN: 'off', CURVE_FEED: 'off', SOCIAL_FEED: 'off', FORECAST: 'off', FORECAST_JOBS: 'off', SNAPSHOT_JOBS: 'off', LOG_LEVEL: 'info',
    });
    aUrl = String((await a.waitFor(/^Sibyl ready in/, START_MS)).url);
    await untilIndexed(aUrl);
  }

  /** One row: a burst to both instances, `fault` when a quarter of it is answered, resends, then the chain's count. */
  async function row(name: string, fault: () => Promise<void>, urls: () => readonly string[] = () => [aUrl, b.url]): Promise<FaultCount> {
    // Payers of its own: every Transfer from them to the recipient is this row's.
    const payerKeys: Hex[] = [];
    for (let i = 0; i < 10; i++) payerKeys.push((await fundedPayer(String(BURST), chainUrl)).key);
    await untilDumped(Date.now());
    const payments: Payment[] = await signPayments(payerKeys, await paymentRequired(b.url, PATH, BODY), BURST);
    let faulted: Promise<void> | undefined;
    await burst({
      payments, urls, path: PATH, body: BODY, concurrency: 20,
      onProgress: (done) => void (done === Math.floor(BURST / 4) && (faulted = fault())),
    });
    await faulted;
    await resendUnanswered({ payments, url: () => b.url, path: PATH, body: BODY, timeoutMs: 90_000 });
    const count = await countOnChain({ payments, rpcUrl: chainUrl, payTo, settleWithinMs: 60_000, reask: { url: () => b.url, path: PATH, body: BODY } });
    rows[name] = count;
    console.log(`${name}: ${JSON.stringify(count)}`);
    if (serverErrors.length) console.log(`${name}: server errors:\n${[...new Set(serverErrors.splice(0))].slice(0, 5).join('\n')}`);
    return count;
  }

  function expectExactlyOnce(count: FaultCount): void {
    expect(count.chargedNoAnswer).toBe(0);
    expect(count.answeredNeverSettled).toBe(0);
    expect(count.unanswered).toEqual({});
    expect(count.answered).toBe(BURST);
    expect(count.settled).toBe(BURST);
    expect(count.transfers).toBe(BURST);
    expect(count.receiptsNotOnChain).toBe(0);
  }

  beforeAll(async () => {
    redis = await startPrivateRedis({ aof: 'everysec' });
    // The Base node as the embedded world runs it: a state dump every few seconds, restarted from it when it dies.
    devnet = await startDevnet({ chains: ['base'], basePort: 0, stateIntervalSeconds: DUMP_SECONDS });
    chainUrl = devnet.chains[0]!.rpcUrl;
    // Its first dump holds genesis (USDC): a node killed before it would come back empty.
    const argv = readFileSync(`/proc/${devnet.chains[0]!.node!().pid}/cmdline`, 'utf8').split('\0');
    dump = argv[argv.indexOf('--dump-state') + 1]!;
    await untilDumped(Date.now());
    await rpc(chainUrl, 'anvil_setBalance', [privateKeyToAccount(settlerKey).address, `0x${parseEther('100').toString(16)}`]);
    b = await startTestSibyl({ rpcUrls: { base: chainUrl }, env: env() });
    await startA();
  }, 2 * START_MS);

  afterAll(async () => {
    if (Object.keys(rows).length) console.log(`fault counts (burst ${BURST}):\n${JSON.stringify(rows, null, 2)}`);
    if (redisDown) await redis.restart().catch(() => {});
    await a?.kill();
    await b?.close();
    await devnet?.stop();
    await redis?.stop();
  });

  const redisOutage = (seconds: number) => async () => {
    redisDown = true;
    await redis.kill();
    await sleep(seconds * 1_000);
    await redis.restart();
    redisDown = false;
  };

  it('Redis SIGKILLed, down 3 s', async () => {
    expectExactlyOnce(await row('redis-3s', redisOutage(3)));
  }, ROW_MS);

  it('Redis SIGKILLed, down 10 s', async () => {
    expectExactlyOnce(await row('redis-10s', redisOutage(10)));
  }, ROW_MS);

  it('the Base node SIGKILLed (restarted from its last dump)', async () => {
    expectExactlyOnce(await row('base-node', async () => {
      const pid = devnet.chains[0]!.node!().pid!;
      process.kill(pid, 'SIGKILL');
    }));
  }, ROW_MS);

  it('one instance SIGKILLed: its payers resend to the other', async () => {
    let aAlive = true;
    expectExactlyOnce(await row('sibyl-process', async () => {
      aAlive = false;
      await a!.kill();
    }, () => (aAlive ? [aUrl, b.url] : [b.url])));
  }, ROW_MS);
});
