/** Published documents agree with what the server really charges and accepts. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRegistry } from '../../skills/catalog/index.js';
import { httpPaths } from '../../skills/core/registry.js';
import { formatUsd } from '../../skills/core/money.js';
import { postJson, useTestSibyl, json } from '../helpers/sibyl.js';
import { startWorldSibyl, type WorldSibyl } from '../helpers/world.js';
import { createWalletClient, erc20Abi, http, parseAbi, parseAbiItem, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { demoPrivateKey } from '../../chain/accounts.js';
import { CHAINS, EMBEDDED_VAULT_FACTORY } from '../../chain/chains.js';
import { viemChain } from '../../chain/runtime.js';

/** Demo account #1 deposits 10 USDC into the world's first USDC vault that takes deposits; that vault. */
async function depositIntoAVault(w: WorldSibyl): Promise<Address> {
  const created = await w.client.getLogs({ address: EMBEDDED_VAULT_FACTORY, event: parseAbiItem('event VaultCreated(address indexed vault, address indexed asset, address indexed curator, string name, string symbol)'), args: { asset: CHAINS.base.usdc }, fromBlock: 0n });
  const vaultAbi = parseAbi(['function maxDeposit(address) view returns (uint256)', 'function deposit(uint256 assets, address receiver) returns (uint256)']);
  const account = privateKeyToAccount(demoPrivateKey(1));
  for (const log of created) {
    const vault = log.args.vault!;
    if ((await w.client.readContract({ address: vault, abi: vaultAbi, functionName: 'maxDeposit', args: [account.address] })) === 0n) continue;
    const wallet = createWalletClient({ account, chain: viemChain('base', w.rpcUrl), transport: http(w.rpcUrl) });
    await w.client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: CHAINS.base.usdc, abi: erc20Abi, functionName: 'approve', args: [vault, 10_000_000n] }) });
    await w.client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: vault, abi: vaultAbi, functionName: 'deposit', args: [10_000_000n, account.address] }) });
    return vault;
  }
  throw new Error('the world has no USDC vault taking deposits');
}

/** A live USDC vault of the price server's world, in which demo account #1 holds shares (plans name it). */
let sampleVault: Address | undefined;

/** Prices the server asked in its 402s, filled by the OpenAPI test. */
const asked: bigint[] = [];
const boundsOf = (amounts: bigint[]) => ({
  minPriceUsd: formatUsd(amounts.reduce((a, b) => (b < a ? b : a))).slice(1),
  maxPriceUsd: formatUsd(amounts.reduce((a, b) => (b > a ? b : a))).slice(1),
});

/** The published catalogue: service → [rate limit per minute, response-time target in seconds]. */
const SPEC_CATALOG: Record<string, [number, number]> = {
  'general-analysis': [60, 60], 'whale-tracking': [30, 30], 'smart-money': [30, 30], 'top-gainers': [60, 15], 'security-scan': [20, 30],
  'mev-detection': [20, 30], 'bitcoin-mempool': [60, 15], 'brc20-analytics': [30, 30], 'flashloan-opportunities': [10, 60],
  'arbitrage-scanner': [20, 30], 'chart-forecast': [20, 60], 'forecast-inference-api': [20, 30], 'technical-analysis': [30, 30],
  'wallet-trust-score': [30, 30], 'copy-trading-leaderboard': [20, 30], 'pqc-wallet-scan': [10, 60], 'quantum-wallet-generation': [5, 120],
  'smart-contract-audit': [5, 120], 'strategy-backtest': [5, 120], 'defi-yield-analysis': [10, 60], 'liquidation-monitor': [10, 60],
  'cross-chain-arbitrage': [10, 60], 'copy-trading-intel': [10, 60], 'mev-protection': [20, 30],
};
const SPEC_PRICES: Record<string, string> = { 'whale-tracking': '0.45', 'smart-money': '0.50', 'top-gainers': '0.35', 'mev-detection': '0.60', 'chart-forecast': '0.65', 'strategy-backtest': '1.50', 'forecast-inference-api': '1.00' };

/**
 * The smallest body a published schema accepts that the server can serve: its required fields,
 * each with a value of its kind (a token and a chain the index knows: anything else is refused
 * before any 402).
 */
function sampleBody(schema: any): Record<string, unknown> {
  const sample = (prop: any, name: string): unknown => {
    if (prop.type === 'array') return [prop.items.enum?.[0] ?? sample(prop.items, name)];
    if (prop.enum) return prop.enum[0];
    if (prop.pattern?.includes('{64}')) return `0x${'ab'.repeat(32)}`;
    // A plan is refused before payment when the wallet cannot fund it: one USDC, which demo account #1 holds.
    if (name === 'amount') return '1';
    if (name === 'asset') return 'USDC';
    if (/vault/i.test(name) && sampleVault) return sampleVault;
    // A contract to review or audit: an address with no code is refused before payment.
    if (name === 'address') return CHAINS.base.usdc;
    if (prop.pattern?.includes('[A-Za-z0-9]')) return 'WETH';
    // A free-form question is judged before payment: its published example, not filler.
    if (prop.type === 'string' && prop.examples?.length) return prop.examples[0];
    if (prop.type === 'string' && !prop.pattern && prop.minLength) return 'x'.repeat(prop.minLength);
    return '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  };
  const body = Object.fromEntries((schema.required ?? []).map((f: string) => [f, sample(schema.properties[f], f)]));
  // The price server indexes base: ask there even where another chain is the default.
  return schema.properties?.chain?.enum?.includes('base') ? { ...body, chain: 'base' } : body;
}

/** The amount a way's unpaid request is asked, whatever protocol carries it. */
async function askedPrice(way: any, fields: Record<string, unknown>): Promise<string> {
  if (way.protocol === 'a2a-jsonrpc') {
    const res = await fetch(way.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-A2A-Extensions': way.extension },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'data', data: { skill: way.message.skill, params: fields } }] } } }),
    });
    return (await json(res)).result.metadata['x402.payment.required'].accepts[0].amount;
  }
  const body = way.protocol === 'mcp-tool' ? { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: way.tool, arguments: fields } }
    : way.protocol === 'a2a' ? { params: fields } : { ...fields, ...way.body };
  const res = await postJson(way.url, body, { accept: 'application/json, text/event-stream' });
  expect(res.status, `${way.protocol} ${way.path} ${JSON.stringify(body)}`).toBe(402);
  return (await json(res)).accepts[0].amount;
}

describe.sequential('discovery and health', () => {
  const sibyl = useTestSibyl();
  // Prices are asked on a server with a day of history, so even a forecast's body is servable (and asked for payment).
  let world: WorldSibyl;
  beforeAll(async () => {
    world = await startWorldSibyl('discovery', 1);
    sampleVault = await depositIntoAVault(world);
  });
  afterAll(() => world?.close());
  const priced = () => world.sibyl;

  it('OpenAPI lists every paid operation with the price its 402 really asks', async () => {
    const doc = await json(await fetch(`${priced().url}/openapi.json`));
    expect(doc.openapi).toBe('3.1.0');
    const registry = createRegistry();
    const paths = registry.list('http').flatMap((s) => httpPaths(s));
    // Besides the paid operations, only the paid MCP tools' account routes (sign-in, credits; documents.test).
    const operations = Object.entries<any>(doc.paths).filter(([, item]) => item.post?.['x-payment-requirement']);
    expect(operations.map(([p]) => p).sort()).toEqual([...paths].sort());
    expect(Object.keys(doc.paths).filter((p) => !paths.includes(p)).sort()).toEqual([
      '/.well-known/agent-card.json', '/api/a2a/skills', '/api/auth/nonce', '/api/auth/siwe', '/api/credits', '/api/credits/topup', '/api/marketplace/catalog', '/api/mcp/tools',
      '/api/svc/v1/forecast', '/api/svc/v1/forecast/accuracy', '/api/svc/v1/models', '/healthz', '/livez', '/openapi.json', '/readyz',
    ]);
    for (const [path, item] of operations) {
      const op = item.post;
      expect(op['x-payment-requirement']).toMatchObject({ required: true, scheme: 'exact', network: 'eip155:8453', asset: 'USDC', decimals: 6 });
      expect(op['x-price']).toMatchObject({ protocol: 'x402', mode: 'fixed', currency: 'USD' });
      expect(op.requestBody.content['application/json'].schema.additionalProperties).toBe(false);
      // Ask the server with the defaults it publishes and compare its price.
      const schema = op.requestBody.content['application/json'].schema;
      const body = sampleBody(schema);
      const res = await postJson(`${priced().url}${path}`, body);
      expect(res.status, `${path} ${JSON.stringify(body)}: ${res.status === 402 ? '' : await res.clone().text()}`).toBe(402);
      const challenge = await json(res);
      asked.push(BigInt(challenge.accepts[0].amount));
      const atomic = String(Math.round(Number(op['x-price'].amount) * 1_000_000));
      expect(challenge.accepts[0].amount).toBe(atomic);
      // Each published price variant is what the server asks for a body with its fields.
      for (const variant of op['x-price-variants'] ?? []) {
        const asks = await json(await postJson(`${priced().url}${path}`, { ...body, ...variant.when }));
        asked.push(BigInt(asks.accepts[0].amount));
        expect(asks.accepts[0].amount).toBe(String(Math.round(Number(variant.amount) * 1_000_000)));
      }
      // Each typed capability body is asked the price the document gives it.
      for (const capability of op['x-capability-bodies'] ?? []) {
        const { schema: fields, prices, summary: _summary, answer: _answer, ...selector } = capability;
        const asks = await postJson(`${priced().url}${path}`, { ...sampleBody(fields), ...selector });
        expect(asks.status, JSON.stringify(selector)).toBe(402);
        const amount = (await json(asks)).accepts[0].amount;
        asked.push(BigInt(amount));
        expect(amount).toBe(String(Math.round(Number(prices[0]) * 1_000_000)));
      }
      expect(op['x-payment-requirement'].price).toBe(`$${op['x-price'].amount}`);
      expect(op['x-payment-requirement'].assetAddress).toBe(challenge.accepts[0].asset);
    }
    // The advertised bounds are the cheapest and dearest prices the server actually asked.
    expect(doc['x-x402']).toMatchObject(boundsOf(asked));
  });

  it('the catalogue lists the 24 services of spec 4.5, each way to buy them at the price the server asks, and their limits', async () => {
    const catalog = await json(await fetch(`${priced().url}/api/marketplace/catalog`));
    expect(Object.fromEntries(catalog.services.map((s: any) => [s.id, [s.rateLimitPerMinute, s.responseTimeTargetSeconds]]))).toEqual(SPEC_CATALOG);
    const registry = createRegistry();
    const catalogPrices: bigint[] = [];
    for (const service of catalog.services) {
      expect(service.available).toBe(service.purchase.length > 0);
      for (const way of service.purchase.filter((p: any) => p.method === 'x402')) {
        // Ask the server for the price of this way, with the smallest body it accepts.
        const skillId = way.protocol === 'a2a' ? way.path.split('/').pop()
          : way.protocol === 'a2a-jsonrpc' ? way.message.skill
          : way.protocol === 'mcp-tool' ? registry.byTool(way.tool)!.id
          : way.body?.service ?? registry.byPath(way.path)?.id;
        // A way its owner describes (the forecast inference API) carries its own smallest body.
        const fields = skillId ? sampleBody(z.toJSONSchema(registry.byId(skillId)!.input, { io: 'input' })) : way.exampleBody;
        const amount = await askedPrice(way, fields);
        expect(amount, `${service.id} via ${way.protocol} ${way.path}`).toBe(String(Math.round(Number(way.priceUsd) * 1_000_000)));
        catalogPrices.push(BigInt(amount));
      }
      // Credits ways name a paid MCP tool (and kind) that the tool server lists, at the service's price.
      const tools = (await json(await fetch(`${priced().url}/api/mcp/tools`))).tools;
      for (const way of service.purchase.filter((p: any) => p.method === 'credits')) {
        const tool = tools.find((t: { name: string }) => t.name === way.tool);
        expect(tool, way.tool).toBeDefined();
        expect(way.priceUsd).toBe(service.priceUsd);
        for (const [field, value] of Object.entries(way.arguments)) expect(tool.inputSchema.properties[field].enum).toContain(value);
      }
    }
    // The catalogue's prices are what A2A and typed bodies charge.
    for (const id of Object.keys(SPEC_PRICES)) {
      expect(catalog.services.find((s: any) => s.id === id).priceUsd).toBe(SPEC_PRICES[id]);
    }
    expect(catalog).toMatchObject(boundsOf(catalogPrices));
  });

  it('healthz reports the store and every chain with its RPC URL and head block', async () => {
    const res = await fetch(`${sibyl.url}/healthz`);
    expect(res.status).toBe(200);
    const health = await json(res);
    expect(health.status).toBe('ok');
    expect(health.store).toMatchObject({ kind: 'memory', ok: true, persistence: 'process' }); // one instance's memory: gone when it stops
    expect(health.chains.map((c: { name: string }) => c.name)).toEqual(['base', 'ethereum', 'bsc', 'arbitrum', 'polygon', 'optimism', 'stockchain']);
    for (const chain of health.chains) {
      expect(chain.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(Number(chain.headBlock)).toBeGreaterThan(0);
      expect(Number(chain.indexedBlock)).toBeGreaterThan(0);
    }
    expect(health.payments).toMatchObject({ network: 'eip155:8453', payTo: sibyl.payTo, facilitator: 'local' });
  });
});
