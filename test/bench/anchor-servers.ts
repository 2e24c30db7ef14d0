/**
 * The two servers the anchor benchmark compares, in their own process (the load generator runs
 * in another, as a real client would): Sibyl as `startSibyl` assembles it, with one constant
 * bench skill beside the registry's, and the stock `@x402/express` middleware with the SDK's
 * own facilitator on the same devnet. Prints one JSON line with their URLs, then serves until
 * SIGTERM.
 *
 * Env: ANCHOR_PAYERS, comma-separated addresses funded with USDC before the servers start.
 */
import { benchLogger } from './bench-logger.js';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { encodeFunctionData, parseAbi, parseUnits, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { x402ResourceServer } from '@x402/core/server';
import { ExactEvmScheme as ExactEvmServerScheme } from '@x402/evm/exact/server';
import { paymentMiddleware } from '@x402/express';
import { demoAccount } from '../../chain/accounts.js';
import { CHAINS } from '../../chain/chains.js';
import { startDevnet } from '../../chain/devnet.js';
import { loadConfig } from '../../server/config.js';
import { X402_NETWORK } from '../../payments/terms.js';
import { startSibyl } from '../../server/service.js';
import { defineSkill } from '../../skills/core/registry.js';
import { ANCHOR_PATHS, ANCHOR_PRICE } from './anchor.js';
import { stockFacilitator } from './stock-facilitator.js';

const answer = { ok: true, figure: 42 };

const echoSkill = defineSkill({
  id: 'bench-echo', title: 'Bench echo', description: 'Constant answer for gate benchmarks.', tags: [], examples: [],
  input: z.strictObject({}), output: z.object({ ok: z.boolean(), figure: z.number() }), price: ANCHOR_PRICE, httpPath: ANCHOR_PATHS.sibyl, surfaces: ['http'],
  handler: async () => answer,
});

async function rpc(url: string, method: string, params: unknown[] = []) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await res.json()) as { result: unknown }).result;
}

const devnet = await startDevnet({ chains: ['base'], basePort: 0 });
const url = devnet.chains[0]!.rpcUrl;
const mintAbi = parseAbi(['function mint(address, uint256)']);
for (const payer of (process.env.ANCHOR_PAYERS ?? '').split(',').filter(Boolean)) {
  await rpc(url, 'eth_sendTransaction', [{ from: demoAccount(0).address, to: CHAINS.base.usdc, data: encodeFunctionData({ abi: mintAbi, functionName: 'mint', args: [payer as Address, parseUnits('10000', 6)] }) }]);
}
const payTo = privateKeyToAccount(generatePrivateKey()).address;
const fund = (key: Hex) => rpc(url, 'anvil_setBalance', [privateKeyToAccount(key).address, '0x56BC75E2D63100000']);

const sibylKey = generatePrivateKey();
await fund(sibylKey);
const sibyl = await startSibyl(loadConfig({ HOST: '127.0.0.1', PORT: '0', EMBEDDED_CHAINS: '', CHAIN_RPC_URL_BASE: url, X402_PAY_TO: payTo, X402_SETTLER_PRIVATE_KEY: sibylKey }), { extraSkills: [echoSkill], log: () => {}, logger: benchLogger() });

// The stock middleware with the SDK facilitator as the x402 examples wire it: one transaction per payment.
const stockKey = generatePrivateKey();
await fund(stockKey);
const sdkFacilitator = stockFacilitator(url, stockKey);
const stockApp = express();
const resourceServer = new x402ResourceServer(sdkFacilitator as never).register(X402_NETWORK, new ExactEvmServerScheme());
stockApp.use(paymentMiddleware({ [`POST ${ANCHOR_PATHS.stock}`]: { accepts: { scheme: 'exact', price: `$${ANCHOR_PRICE}`, network: X402_NETWORK, payTo }, description: 'bench' } }, resourceServer, undefined, undefined, true));
stockApp.post(ANCHOR_PATHS.stock, (_req, res) => void res.json(answer));
const stock = await new Promise<import('node:http').Server>((resolve) => {
  const server = stockApp.listen(0, '127.0.0.1', () => resolve(server));
});

console.log(JSON.stringify({ sibyl: sibyl.url, stock: `http://127.0.0.1:${(stock.address() as AddressInfo).port}`, rpc: url }));

process.once('SIGTERM', async () => {
  stock.closeAllConnections();
  stock.close();
  await sibyl.close();
  await devnet.stop();
  process.exit(0);
});
