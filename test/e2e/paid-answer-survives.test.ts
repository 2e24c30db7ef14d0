/**
 * A paid answer survives the server's death, and an outage of the store says what failed.
 *
 * Instance A runs as `npm start` does, in a process of its own, on the shared Redis (a key prefix
 * of its own) with its Base behind a proxy; instance B runs in this process on the same Redis,
 * chain and recipient. A is killed with SIGKILL at one exact step of a paid request made with
 * the official x402 client, whose connection then dies with it:
 *   - right after the node took A's settlement transaction: the payer resends the same payment
 *     for the same request to B and gets the answer A kept, with the receipt of that transaction;
 *     one Transfer on chain, never a second one;
 *   - while A verifies the payment (its authorization reserved, nothing answered or sent): the
 *     same payment pays on B once A's heartbeat is gone.
 * And on a private Redis behind a proxy that kills it the moment the settler asks it for a
 * transaction nonce: 503 upstream_unavailable with Retry-After, no Transfer, and the same
 * payment pays once Redis is back.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keccak256, parseAbi, parseEther, toFunctionSelector, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { decodePaymentResponseHeader, decodePaymentSignatureHeader } from '@x402/core/http';
import { TEST_REDIS_URL } from '../helpers/env.js';
import { startPrivateRedis, type PrivateRedis } from '../helpers/redis-server.js';
import { startRedisTrip, type RedisTrip } from '../helpers/redis-trip.js';
import { startRpcProxy, type RpcProxy } from '../helpers/rpc-proxy.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { baseClient, fundedPayer, json, payingFetch, postJson, rpc, rpcUrl, startTestSibyl, untilIndexed, usdcBalance, USDC, type TestSibyl } from '../helpers/sibyl.js';

const PRICE = 400_000n;
const PATH = '/x402/data/latest-pairs';
const START_MS = 120_000;
const transfer = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);
const authorizationState = parseAbi(['function authorizationState(address, bytes32) view returns (bool)']);
/** The token's own check of a signed transfer, which verification simulates. */
const SIMULATED_TRANSFER = toFunctionSelector('function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)').slice(2);

function nonceOf(header: string): Hex {
  return (decodePaymentSignatureHeader(header) as unknown as { payload: { authorization: { nonce: Hex } } }).payload.authorization.nonce;
}

async function transfersFrom(payer: Address): Promise<number> {
  return (await baseClient().getLogs({ address: USDC, event: transfer[0], args: { from: payer }, fromBlock: 0n })).length;
}

/** Sends the same payment for the same request until it is no longer 409 payment_in_progress (its instance's heartbeat lives 10 s). */
async function resendUntilAnswered(send: () => Promise<Response>, timeoutMs = 40_000): Promise<{ res: Response; waited: number }> {
  let waited = 0;
  for (const deadline = Date.now() + timeoutMs; ; ) {
    const res = await send();
    if (res.status !== 409) return { res, waited };
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await json(res)).toMatchObject({ error: { code: 'payment_in_progress' } });
    waited++;
    if (Date.now() > deadline) throw new Error('still payment_in_progress');
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe("a paid request whose instance dies", () => {
  const prefix = `sibyl-test:${randomUUID()}:`;
  let b: TestSibyl;
  let proxy: RpcProxy;
  const processes: ServiceProcess[] = [];

  /** Instance A: `npm start` in its own process, on B's Redis prefix and recipient, its Base behind the proxy. */
  async function startA(): Promise<{ a: ServiceProcess; url: string }> {
    const settlerKey = generatePrivateKey();
    await rpc(rpcUrl('base'), 'anvil_setBalance', [privateKeyToAccount(settlerKey).address, `0x${parseEther('10').toString(16)}`]);
    const a = startServiceProcess({
      HOST: '127.0.0.1', PORT: '0', EMBEDDED_CHAINS: '', CHAIN_RPC_URL_BASE: proxy.url,
      REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix, X402_SETTLER_PRIVATE_KEY: settlerKey, X402_PAY_TO: b.payTo,
      BITCOIN: 'off', CURVE_FEED: 'off', SOCIAL_FEED: 'off', FORECAST: 'off', FORECAST_JOBS: 'off', SNAPSHOT_JOBS: 'off', LOG_LEVEL: 'info',
    });
    processes.push(a);
    const ready = await a.waitFor(/^Sibyl ready in/, START_MS);
    const url = String(ready.url);
    await untilIndexed(url);
    return { a, url };
  }

  beforeAll(async () => {
    proxy = await startRpcProxy(rpcUrl('base'));
    b = await startTestSibyl({ redis: prefix });
  }, START_MS);
  afterAll(async () => {
    proxy.afterSend = undefined;
    proxy.beforeCall = undefined;
    for (const p of processes) await p.kill();
    await b?.close();
    await proxy?.close();
  });

  it('after its settlement was sent: the same payment resent to another instance gets the kept answer and receipt, and pays once', async () => {
    const { a, url } = await startA();
    const { key, account } = await fundedPayer('5');
    const before = await usdcBalance(account.address);
    const { pay, seen } = payingFetch(key);
    let killed = false;
    proxy.afterSend = async () => {
      if (killed) return;
      killed = true;
      await a.kill();
    };
    // The client's connection dies with A: no answer, no receipt.
    await expect(pay(`${url}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"limit":1}' })).rejects.toThrow();
    expect(killed).toBe(true);
    const header = seen.at(-1)!;
    const sent = keccak256(proxy.forwarded.at(-1)! as Hex);
    await baseClient().waitForTransactionReceipt({ hash: sent });
    expect(await usdcBalance(account.address)).toBe(before - PRICE);

    const resend = () => postJson(`${b.url}${PATH}`, { limit: 1 }, { 'PAYMENT-SIGNATURE': header });
    const { res, waited } = await resendUntilAnswered(resend);
    // A's heartbeat outlived it for a few seconds: meanwhile the resend was told to come back, never to pay again.
    expect(waited).toBeGreaterThan(0);
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await json(res);
    expect(body.pairs).toHaveLength(1);
    const receipt = decodePaymentResponseHeader(res.headers.get('payment-response')!);
    expect(receipt).toMatchObject({ success: true, transaction: sent, payer: account.address });
    expect(res.headers.get('x-payment-response')).toBe(res.headers.get('payment-response'));

    // Once more: the same answer and receipt; one Transfer, one charge.
    const again = await resend();
    expect(again.status).toBe(200);
    expect(await json(again)).toEqual(body);
    expect(again.headers.get('payment-response')).toBe(res.headers.get('payment-response'));
    // Another request with it is still refused, and does not see the answer.
    const other = await postJson(`${b.url}${PATH}`, { limit: 2 }, { 'PAYMENT-SIGNATURE': header });
    expect(other.status).toBe(402);
    expect(await json(other)).toMatchObject({ code: 'nonce_already_used' });
    expect(await transfersFrom(account.address)).toBe(1);
    expect(await usdcBalance(account.address)).toBe(before - PRICE);
    expect(await b.outbox.drained(10_000)).toBe(true);
    expect(await b.ledger.get(account.address, nonceOf(header))).toMatchObject({ status: 'settled', transaction: sent });
  }, 3 * START_MS);

  it('while it verified the payment: the reserved, unanswered authorization pays on another instance', async () => {
    const { a, url } = await startA();
    const { key, account } = await fundedPayer('5');
    const before = await usdcBalance(account.address);
    const { pay, seen } = payingFetch(key);
    let killed = false;
    proxy.beforeCall = async (calls) => {
      if (killed || !calls.some((c) => c.method === 'eth_call' && JSON.stringify(c.params).includes(SIMULATED_TRANSFER))) return;
      killed = true;
      await a.kill();
    };
    await expect(pay(`${url}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"limit":1}' })).rejects.toThrow();
    expect(killed).toBe(true);
    const header = seen.at(-1)!;
    expect(await baseClient().readContract({ address: USDC, abi: authorizationState, functionName: 'authorizationState', args: [account.address, nonceOf(header)] })).toBe(false);

    const { res } = await resendUntilAnswered(() => postJson(`${b.url}${PATH}`, { limit: 1 }, { 'PAYMENT-SIGNATURE': header }));
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await json(res)).pairs).toHaveLength(1);
    expect(decodePaymentResponseHeader(res.headers.get('payment-response')!)).toMatchObject({ success: true });
    expect(await transfersFrom(account.address)).toBe(1);
    expect(await usdcBalance(account.address)).toBe(before - PRICE);
  }, 3 * START_MS);

  it('over A2A HTTP, the same payment sent again gets the same answer and receipt, charged once', async () => {
    const { key, account } = await fundedPayer('5');
    const before = await usdcBalance(account.address);
    const { pay, seen } = payingFetch(key);
    const path = '/api/a2a/skills/latest-pairs';
    const first = await pay(`${b.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ params: { limit: 1 } }) });
    expect(first.status, await first.clone().text()).toBe(200);
    const again = await postJson(`${b.url}${path}`, { params: { limit: 1 } }, { 'PAYMENT-SIGNATURE': seen.at(-1)! });
    expect(again.status).toBe(200);
    expect(await json(again)).toEqual(await json(first));
    expect(again.headers.get('payment-response')).toBe(first.headers.get('payment-response'));
    const charged = before - (await usdcBalance(account.address));
    expect(charged).toBeGreaterThan(0n);
    expect(await transfersFrom(account.address)).toBe(1);
  });

  it('over MCP per call, the same payment sent again (another JSON-RPC id) gets the same result and receipt, charged once', async () => {
    const { key, account } = await fundedPayer('5');
    const before = await usdcBalance(account.address);
    const { pay, seen } = payingFetch(key);
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'latest_pairs', arguments: { chain: 'base', limit: 1 } } });
    const accept = { accept: 'application/json, text/event-stream' };
    const first = await pay(`${b.url}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', ...accept }, body: JSON.stringify(call(1)) });
    expect(first.status, await first.clone().text()).toBe(200);
    const again = await postJson(`${b.url}/api/mcp`, call(2), { ...accept, 'PAYMENT-SIGNATURE': seen.at(-1)! });
    expect(again.status).toBe(200);
    expect(await json(again)).toEqual({ ...(await json(first)), id: 2 });
    expect(again.headers.get('payment-response')).toBe(first.headers.get('payment-response'));
    expect(await transfersFrom(account.address)).toBe(1);
    expect(await usdcBalance(account.address)).toBe(before - PRICE);
  });
});

describe('Redis dies while a payment is being settled', () => {
  let redis: PrivateRedis;
  let trip: RedisTrip;
  let sibyl: TestSibyl;
  let down = false;
  beforeAll(async () => {
    redis = await startPrivateRedis({ aof: true });
    trip = await startRedisTrip(redis.port);
    sibyl = await startTestSibyl({ redis: true, env: { REDIS_URL: trip.url, REDIS_PREFIX: 'trip:' } });
  }, START_MS);
  afterAll(async () => {
    trip.trip = undefined;
    if (down) await redis.restart().catch(() => {}); // a failed test may leave it down: up again, so the server closes cleanly
    await sibyl?.close();
    await trip?.close();
    await redis?.stop();
  });

  it('is 503 upstream_unavailable with Retry-After, moves nothing, and the same payment pays once Redis is back', async () => {
    const { key, account } = await fundedPayer('5');
    const before = await usdcBalance(account.address);
    const { pay, seen } = payingFetch(key);
    // The answer is kept; the settler then asks the store for its transaction's nonce, and Redis dies.
    trip.trip = /settler:nonce:/;
    trip.onTrip = async () => {
      down = true;
      await redis.kill();
    };
    const res = await pay(`${sibyl.url}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"limit":1}' });
    expect(trip.tripped).toBe(1);
    expect(res.status, await res.clone().text()).toBe(503);
    expect(await json(res)).toMatchObject({ error: { code: 'upstream_unavailable' } });
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(res.headers.get('payment-response')).toBeNull();
    const header = seen.at(-1)!;
    expect(await baseClient().readContract({ address: USDC, abi: authorizationState, functionName: 'authorizationState', args: [account.address, nonceOf(header)] })).toBe(false);
    expect(await transfersFrom(account.address)).toBe(0);
    expect(await usdcBalance(account.address)).toBe(before);

    await redis.restart();
    down = false;
    expect(await sibyl.outbox.drained(20_000)).toBe(true);
    let paid: Response | undefined;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 300))) {
      paid = await postJson(`${sibyl.url}${PATH}`, { limit: 1 }, { 'PAYMENT-SIGNATURE': header });
      if (paid.status !== 503) break;
    }
    expect(paid!.status, await paid!.clone().text()).toBe(200);
    expect(await transfersFrom(account.address)).toBe(1);
    expect(await usdcBalance(account.address)).toBe(before - PRICE);
  }, 90_000);
});
