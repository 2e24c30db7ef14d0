/**
 * Paid-request throughput on one embedded Base devnet, in one process (2 cores shared by the
 * load generator, the servers and anvil), with payments pre-signed so client signing is not
 * counted:
 *   - Sibyl's full paid request (validate, verify, replay guard, handler, settle, receipt);
 *   - Sibyl's gate alone: verification + replay guard, and settlement measured separately;
 *   - stock `@x402/express` paymentMiddleware with the same local facilitator (verify + settle);
 *   - bare express with the same handler, the ceiling.
 */
import { benchLogger } from './bench-logger.js';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { bytesToHex, encodeFunctionData, getAddress, parseAbi, parseUnits, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import { x402ResourceServer } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { ExactEvmScheme as ExactEvmServerScheme } from '@x402/evm/exact/server';
import { paymentMiddleware } from '@x402/express';
import { demoAccount } from '../../chain/accounts.js';
import { CHAINS } from '../../chain/chains.js';
import { startDevnet } from '../../chain/devnet.js';
import { ChainRuntime } from '../../chain/runtime.js';
import { loadConfig } from '../../server/config.js';
import { localFacilitator } from '../../payments/facilitator.js';
import { decodePaymentHeader, Paywall } from '../../payments/paywall.js';
import { SettlementLedger } from '../../payments/settlements.js';
import { X402_NETWORK } from '../../payments/terms.js';
import { startSibyl } from '../../server/service.js';
import { defineSkill } from '../../skills/core/registry.js';
import { MemoryStore } from '../../store/memory.js';
import { stockFacilitator } from './stock-facilitator.js';

const PRICE = '0.01';
const ATOMIC = 10_000n;
const answer = { ok: true, figure: 42 };

const echoSkill = defineSkill({
  id: 'bench-echo', title: 'Bench echo', description: 'Constant answer for gate benchmarks.', tags: [], examples: [],
  input: z.strictObject({}), output: z.object({ ok: z.boolean(), figure: z.number() }), price: PRICE, httpPath: '/x402/data/bench-echo', surfaces: ['http'],
  handler: async () => answer,
});

async function rpc(url: string, method: string, params: unknown[] = []) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await res.json()) as { result: unknown }).result;
}

const authorizationTypes = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' }, { name: 'to', type: 'address' }, { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' }, { name: 'validBefore', type: 'uint256' }, { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/** Pre-signed v2 payloads for `accepted`, spread over `keys`. */
async function presign(keys: Hex[], accepted: PaymentRequirements, n: number): Promise<PaymentPayload[]> {
  const now = BigInt(Math.floor(Date.now() / 1000));
  return Promise.all(Array.from({ length: n }, async (_, i) => {
    const account = privateKeyToAccount(keys[i % keys.length]!);
    const authorization = { from: account.address, to: getAddress(accepted.payTo), value: accepted.amount, validAfter: (now - 600n).toString(), validBefore: (now + 1200n).toString(), nonce: bytesToHex(randomBytes(32)) };
    const signature = await account.signTypedData({
      domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: getAddress(accepted.asset) },
      types: authorizationTypes, primaryType: 'TransferWithAuthorization',
      message: { ...authorization, value: BigInt(authorization.value), validAfter: BigInt(authorization.validAfter), validBefore: BigInt(authorization.validBefore) },
    });
    return { x402Version: 2, accepted, payload: { authorization, signature } } as PaymentPayload;
  }));
}

/** Runs `task` over `items` with `concurrency` workers; returns items per second and successes. */
async function drive<T>(items: T[], concurrency: number, task: (item: T) => Promise<boolean>) {
  let next = 0;
  let ok = 0;
  const t = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) if (await task(items[next++]!)) ok++;
  }));
  return { perSec: items.length / ((performance.now() - t) / 1000), ok, total: items.length };
}

async function listen(app: express.Express) {
  return new Promise<{ url: string; close: () => void }>((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve({
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => { server.closeAllConnections(); server.close(); },
    }));
  });
}

export async function benchGate(n = 600, concurrency = Number(process.env.BENCH_CONCURRENCY ?? 64)) {
  const devnet = await startDevnet({ chains: ['base'], basePort: 0 });
  const url = devnet.chains[0]!.rpcUrl;
  const usdc = CHAINS.base.usdc;
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  const keys = Array.from({ length: 8 }, () => generatePrivateKey());
  const mintAbi = parseAbi(['function mint(address, uint256)']);
  for (const key of keys) {
    await rpc(url, 'eth_sendTransaction', [{ from: demoAccount(0).address, to: usdc, data: encodeFunctionData({ abi: mintAbi, functionName: 'mint', args: [privateKeyToAccount(key).address, parseUnits('1000', 6)] }) }]);
  }
  const results: Record<string, { perSec: number; ok: number; total: number }> = {};
  const post = (target: string, header?: [string, string]) => fetch(target, {
    method: 'POST', headers: { 'content-type': 'application/json', ...(header && { [header[0]]: header[1] }) }, body: '{}',
  });

  // Sibyl, full paid request over HTTP.
  const sibyl = await startSibyl(loadConfig({ HOST: '127.0.0.1', PORT: '0', EMBEDDED_CHAINS: '', CHAIN_RPC_URL_BASE: url, X402_PAY_TO: payTo, X402_SETTLER_PRIVATE_KEY: generatePrivateKey() }), { extraSkills: [echoSkill], log: () => {}, logger: benchLogger() });
  await rpc(url, 'anvil_setBalance', [(sibyl.facilitator as unknown as { settler: Address }).settler, '0x56BC75E2D63100000']);
  const sibylAccepted = ((await (await post(`${sibyl.url}/x402/data/bench-echo`)).json()) as { accepts: PaymentRequirements[] }).accepts[0]!;
  results['sibyl: full paid request'] = await drive(await presign(keys, sibylAccepted, n), concurrency, async (p) =>
    (await post(`${sibyl.url}/x402/data/bench-echo`, ['X-PAYMENT', encodePaymentSignatureHeader(p)])).status === 200);
  await sibyl.close();

  // Sibyl's gate alone: verification + replay guard, then settlement separately.
  const chains = new ChainRuntime();
  const chain = chains.add('base', url, 'rpc');
  const settlerKey = generatePrivateKey();
  await rpc(url, 'anvil_setBalance', [privateKeyToAccount(settlerKey).address, '0x56BC75E2D63100000']);
  const facilitator = localFacilitator(chain, settlerKey, 30_000, loadConfig({}).settleBatchMax);
  // The stock middleware gets the SDK facilitator as the x402 examples wire it: one transaction per payment.
  const stockKey = generatePrivateKey();
  await rpc(url, 'anvil_setBalance', [privateKeyToAccount(stockKey).address, '0x56BC75E2D63100000']);
  const sdkFacilitator = stockFacilitator(url, stockKey);
  const store = new MemoryStore();
  const paywall = new Paywall({ asset: usdc, payTo, maxTimeoutSeconds: 300 }, facilitator, store, new SettlementLedger(store, chain, usdc), 8453);
  const resource = { url: 'http://bench/x402/data/bench-echo', description: 'bench', mimeType: 'application/json' };
  const gatePayloads = await presign(keys, sibylAccepted, n);
  const authorized: Awaited<ReturnType<Paywall['authorize']>>[] = [];
  results['sibyl gate: verification + replay guard'] = await drive(gatePayloads, concurrency, async (p) => {
    authorized.push(await paywall.authorize(decodePaymentHeader(encodePaymentSignatureHeader(p)), ATOMIC, resource));
    return true;
  });
  results['sibyl gate: settlement alone'] = await drive(authorized, concurrency, async (a) => (await paywall.settle(a)).settlement.success);
  results['x402 SDK facilitator.verify alone'] = await drive(await presign(keys, sibylAccepted, n), concurrency, async (p) => (await sdkFacilitator.verify(p, sibylAccepted)).isValid);

  // Stock @x402/express with the same local facilitator.
  const stockApp = express();
  const resourceServer = new x402ResourceServer(sdkFacilitator as never).register(X402_NETWORK, new ExactEvmServerScheme());
  stockApp.use(paymentMiddleware({ 'POST /bench': { accepts: { scheme: 'exact', price: `$${PRICE}`, network: X402_NETWORK, payTo }, description: 'bench' } }, resourceServer, undefined, undefined, true));
  stockApp.post('/bench', (_req, res) => void res.json(answer));
  const stock = await listen(stockApp);
  const stockRequired = (await post(`${stock.url}/bench`));
  const stockAccepted = (JSON.parse(Buffer.from(stockRequired.headers.get('payment-required')!, 'base64').toString()) as { accepts: PaymentRequirements[] }).accepts[0]!;
  results['stock @x402/express: full paid request'] = await drive(await presign(keys, stockAccepted, n), concurrency, async (p) =>
    (await post(`${stock.url}/bench`, ['PAYMENT-SIGNATURE', encodePaymentSignatureHeader(p)])).status === 200);
  stock.close();

  // Bare express: the ceiling.
  const bareApp = express();
  bareApp.use(express.json());
  bareApp.post('/bench', (_req, res) => void res.json(answer));
  const bare = await listen(bareApp);
  results['bare express (no payment)'] = await drive(Array.from({ length: n * 5 }), concurrency, async () => (await post(`${bare.url}/bench`)).status === 200);
  bare.close();

  await devnet.stop();
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await benchGate();
  for (const [name, r] of Object.entries(results)) console.log(`${name.padEnd(45)} ${r.perSec.toFixed(1).padStart(8)} /s  (${r.ok}/${r.total} ok)`);
}
