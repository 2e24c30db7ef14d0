/**
 * Test servers and wallets on the run's shared devnet. Every server gets its own settler key
 * and payment recipient, and every payer is a fresh funded wallet, so test files running in
 * parallel never see each other's balances or nonces.
 */
import { afterAll, beforeAll, inject } from 'vitest';
import { randomUUID } from 'node:crypto';
import {
  createPublicClient, encodeFunctionData, http, parseAbi, parseEther, parseUnits, type Address, type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { demoAccount } from '../../chain/accounts.js';
import { CHAINS, EMBEDDED_SERVICE_TOKEN } from '../../chain/chains.js';
import { GENESIS_TREASURY } from '../../chain/genesis.js';
import { viemChain } from '../../chain/runtime.js';
import { loadConfig } from '../../server/config.js';
import { startSibyl, type Sibyl, type StartOptions } from '../../server/service.js';
import { X402_NETWORK } from '../../payments/terms.js';
import { formatUsd } from '../../skills/core/money.js';
import { createRegistry } from '../../skills/catalog/index.js';
import type { DeploymentPart } from '../../skills/core/registry.js';
import { TEST_REDIS_URL } from './env.js';

export const USDC = CHAINS.base.usdc;

/** The parts a test server has (startTestSibyl on the run's devnet): the embedded prediction venues, Polygon and the stock chain (the perp, records and calls feeds are off unless a test asks for them) (bare: no stock issuer on it); no Bitcoin chain, no QRNG. */
export const TEST_SERVER_PARTS: ReadonlySet<DeploymentPart> = new Set(['prediction', 'prediction-funding', 'stocks']);
const usdcAbi = parseAbi(['function balanceOf(address) view returns (uint256)', 'function mint(address, uint256)']);

export function rpcUrl(chain = 'base'): string {
  return inject('rpcUrls')[chain]!;
}

export const baseClient = () => createPublicClient({ chain: viemChain('base', rpcUrl()), transport: http(rpcUrl()), pollingInterval: 50 });

export async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const json = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (json.error) throw new Error(`${method}: ${json.error.message}`);
  return json.result;
}

/**
 * Sends from the devnet's unlocked minter (demo #0) or another account anvil impersonates,
 * letting anvil assign the nonce. Sends are serialised in this process and retried when another
 * test process took the same nonce.
 */
let minterQueue: Promise<unknown> = Promise.resolve();
function sendAsMinter(url: string, to: Address, data: Hex, from: Address = demoAccount(0).address): Promise<void> {
  const send = async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        const hash = (await rpc(url, 'eth_sendTransaction', [{ from, to, data }])) as Hex;
        const receipt = await createPublicClient({ transport: http(url), pollingInterval: 20 }).waitForTransactionReceipt({ hash });
        if (receipt.status !== 'success') throw new Error('minting reverted');
        return;
      } catch (err) {
        // Another test process sent from the minter with the same nonce: anvil refuses one of the two.
        if (attempt >= 5 || !/nonce|underpriced|already known/i.test((err as Error).message)) throw err;
      }
    }
  };
  const result = minterQueue.then(send, send);
  minterQueue = result.catch(() => {});
  return result;
}

export async function mintUsdc(to: Address, usd: string, url = rpcUrl()): Promise<void> {
  await sendAsMinter(url, USDC, encodeFunctionData({ abi: usdcAbi, functionName: 'mint', args: [to, parseUnits(usd, 6)] }));
}

/** Sends `tokens` service tokens (SIBYL, 18 decimals) from the genesis treasury (impersonated) to `to`. */
export async function giveServiceTokens(to: Address, tokens: string, url = rpcUrl()): Promise<void> {
  await rpc(url, 'anvil_impersonateAccount', [GENESIS_TREASURY]);
  await sendAsMinter(url, EMBEDDED_SERVICE_TOKEN, encodeFunctionData({ abi: parseAbi(['function transfer(address, uint256) returns (bool)']), functionName: 'transfer', args: [to, parseUnits(tokens, 18)] }), GENESIS_TREASURY);
}

export async function usdcBalance(of: Address, url = rpcUrl()): Promise<bigint> {
  const client = createPublicClient({ transport: http(url) });
  return client.readContract({ address: USDC, abi: usdcAbi, functionName: 'balanceOf', args: [of] });
}

/** A fresh wallet holding `usd` USDC on the devnet's Base. */
export async function fundedPayer(usd = '10', url = rpcUrl()) {
  const key = generatePrivateKey();
  const account = privateKeyToAccount(key);
  if (usd !== '0') await mintUsdc(account.address, usd, url);
  return { key, account };
}

export function freshAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address;
}

export interface TestServerOptions extends StartOptions {
  env?: Record<string, string>;
  redis?: boolean | string;
  /** Point at a devnet other than the shared one (e.g. one a test stops mining on). */
  rpcUrls?: Record<string, string>;
}

export async function startTestSibyl(options: TestServerOptions = {}): Promise<Sibyl & { payTo: Address }> {
  const urls = options.rpcUrls ?? inject('rpcUrls');
  const settlerKey = generatePrivateKey();
  await rpc(urls.base!, 'anvil_setBalance', [privateKeyToAccount(settlerKey).address, `0x${parseEther('100').toString(16)}`]);
  const payTo = freshAddress();
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    PORT: '0',
    EMBEDDED_CHAINS: '',
    X402_SETTLER_PRIVATE_KEY: settlerKey,
    X402_PAY_TO: payTo,
    // The background forecasts cost every test server CPU; the forecast tests switch them on.
    FORECAST_JOBS: 'off',
    SNAPSHOT_JOBS: 'off',
    // The off-chain feeds cost every server a plan drawn and served, and every snapshot run a read:
    // the tests of those domains switch them on.
    PERPS: 'off',
    RECORDS: 'off',
    CALLS: 'off',
    // Request lines only when asked for (TEST_LOG=1); a test that reads them passes its own logger.
    LOG_LEVEL: process.env.TEST_LOG ? 'info' : 'silent',
    ...Object.fromEntries(Object.entries(urls).map(([name, url]) => [`CHAIN_RPC_URL_${name.toUpperCase()}`, url])),
    ...(options.redis && {
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: typeof options.redis === 'string' ? options.redis : `sibyl-test:${randomUUID()}:`,
    }),
    ...options.env,
  };
  const sibyl = await startSibyl(loadConfig(env), { log: process.env.TEST_LOG ? (...a: unknown[]) => console.error(...a) : () => {}, ...options });
  await untilIndexed(sibyl.url);
  return Object.assign(sibyl, { payTo });
}

/**
 * Chains reached by URL are indexed in the background: wait until each is indexed up to the head
 * its node has now (asked of the node itself: /healthz reports the last head its background probe
 * saw, which can be older than a block the test just wrote).
 */
export async function untilIndexed(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  type Health = { chains: { name: string; rpcUrl: string; headBlock: string | null; indexedBlock: string | null }[] };
  const health = async () => (await (await fetch(`${url}/healthz`)).json()) as Health;
  const nodeHead = async (rpcUrl: string, reported: string | null) => {
    try {
      const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }) });
      return Number(BigInt(((await res.json()) as { result: string }).result));
    } catch {
      return reported === null ? Number.POSITIVE_INFINITY : Number(reported); // a node the test cannot reach: as /healthz saw it
    }
  };
  const targets = new Map<string, number>();
  for (const c of (await health()).chains) targets.set(c.name, await nodeHead(c.rpcUrl, c.headBlock));
  for (;;) {
    const { chains } = await health();
    if (chains.every((c) => c.indexedBlock !== null && Number(c.indexedBlock) >= (targets.get(c.name) ?? Number(c.headBlock)))) return;
    if (Date.now() > deadline) throw new Error(`chains not indexed within ${timeoutMs} ms: ${JSON.stringify(chains)} (heads ${JSON.stringify([...targets])})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The official x402 fetch client paying from `key`; `seen` records every payment header sent. */
export function payingFetch(key: Hex) {
  const seen: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const header = request.headers.get('payment-signature') ?? request.headers.get('x-payment');
    if (header) seen.push(header);
    return fetch(request);
  };
  const pay = wrapFetchWithPaymentFromConfig(recording, {
    schemes: [{ network: X402_NETWORK, client: new ExactEvmScheme(privateKeyToAccount(key)) }],
    // The client's default cap is $1 a payment; Sibyl's dearest operation sets it.
    spendControls: { maxAmountPerPayment: formatUsd(createRegistry().httpPriceBounds()!.max) },
  });
  return { pay, seen };
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

/** A response body as loosely typed JSON, for assertions. */
export async function json(res: Response): Promise<any> {
  return res.json();
}

/** POSTs JSON to `baseUrl + path`, paying with the official client from a fresh wallet holding `usd`. */
export async function paidPoster(baseUrl: () => string, usd = '20') {
  const { pay } = payingFetch((await fundedPayer(usd)).key);
  return (path: string, body: unknown) =>
    pay(`${baseUrl()}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** A fresh wallet holding `usd` that pays with the official client, and can read its own balance. */
export async function walletPoster(baseUrl: string, usd = '20', url = rpcUrl()) {
  const { key, account } = await fundedPayer(usd, url);
  const { pay } = payingFetch(key);
  return {
    address: account.address,
    balance: () => usdcBalance(account.address, url),
    post: (path: string, body: unknown) => pay(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  };
}

export type TestSibyl = Awaited<ReturnType<typeof startTestSibyl>>;

/**
 * A test server started before the file's tests and closed after them. The returned object
 * stands for the server once it is up (property reads go to it).
 */
export function useTestSibyl(options: TestServerOptions = {}): TestSibyl {
  let server: TestSibyl | undefined;
  beforeAll(async () => {
    server = await startTestSibyl(options);
  });
  afterAll(() => server?.close());
  return new Proxy({} as TestSibyl, {
    get(_target, property) {
      if (!server) throw new Error('the test server is not started yet (use it inside a test or hook)');
      const value = Reflect.get(server, property);
      return typeof value === 'function' ? value.bind(server) : value;
    },
  });
}

/** Signs in to `baseUrl` with Ethereum as `key` (the server's own nonce, domain and URI); the bearer header it grants. */
export async function signInBearer(baseUrl: string, key: Hex, statement?: string): Promise<{ authorization: string }> {
  const account = privateKeyToAccount(key);
  const { nonce, domain, uri, chainId } = await json(await fetch(`${baseUrl}/api/auth/nonce`));
  const message = createSiweMessage({ domain, address: account.address, uri, version: '1', chainId, nonce, ...(statement && { statement }) });
  const { accessToken } = await json(await postJson(`${baseUrl}/api/auth/siwe`, { message, signature: await account.signMessage({ message }) }));
  return { authorization: `Bearer ${accessToken}` };
}
