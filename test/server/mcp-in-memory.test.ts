/**
 * The MCP server in process with the official SDK client over its in-memory transport: one tool
 * list (what `tools/list` gives is the `GET /api/mcp/tools` document), every tool with an output
 * schema, and free results the client itself validates against those schemas (the SDK client
 * refuses structuredContent that does not match a tool's outputSchema).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ChainRuntime } from '../../chain/runtime.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { buildMcpToolList, freeToolSkills, mcpTools } from '../../cards/mcp-tools.js';
import { createMcpServer } from '../../server/mcp/server.js';
import type { PaymentPayload } from '@x402/core/types';
import { PaymentsCore, type PaymentMethod } from '../../payments/core.js';
import { CreditLedger } from '../../payments/credits.js';
import { limitHooks, RateLimiter } from '../../payments/limits.js';
import type { Receipt } from '../../payments/paywall.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { FREE_ROWS } from '../../skills/core/params.js';
import { snapshotStoreKey } from '../../skills/core/snapshots.js';
import { moversSnapshot } from '../../skills/movers/tools.js';
import { tokenSafetySnapshot } from '../../skills/security/token-safety.js';
import { MemoryStore } from '../../store/memory.js';

const registry = createRegistry();
/** No call here pays with x402 (paid tools are billed from credits). */
const noX402: PaymentMethod<PaymentPayload, Receipt> = { name: 'x402', verify: () => Promise.reject(new Error('no x402 payments in this test')) };
let store: MemoryStore;
let client: Client;

beforeEach(async () => {
  store = new MemoryStore();
  const server = createMcpServer({ registry, context: { chains: new ChainRuntime(), store }, credits: new CreditLedger(store), payments: new PaymentsCore(noX402).use(limitHooks(new RateLimiter(store))) }, null);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'in-memory-test', version: '1.0.0' });
  await client.connect(clientSide);
  // The client validates results against the output schemas it was given by tools/list.
  await client.listTools();
});
afterEach(async () => {
  await client.close();
});

/** A stored snapshot, as the jobs would leave it. */
const warm = (job: { id: string }, data: Record<string, unknown>) => store.set(snapshotStoreKey(job.id), JSON.stringify({ data, fetchedAt: Date.now() }), 60_000);
const row = (i: number) => ({ chain: 'base', token: `0x${i.toString(16).padStart(40, '0')}`, symbol: `T${i}`, changePct: 50 - i, liquidityUsd: 20_000 });

async function call(name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, body: result.structuredContent as any };
}

describe('MCP server in process (SDK in-memory transport)', () => {
  it('lists one set of tools: the same as the JSON document, every one with an output schema', async () => {
    const { tools } = await client.listTools();
    const document = buildMcpToolList(registry);
    expect(tools).toHaveLength(42);
    expect(tools.map((t) => t.name)).toEqual(document.tools.map((t) => t.name));
    for (const tool of tools) {
      const published = document.tools.find((t) => t.name === tool.name)!;
      expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object', properties: { available: { type: 'boolean' } } });
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      expect(tool.inputSchema, tool.name).toEqual(published.inputSchema);
      expect(tool.outputSchema, tool.name).toEqual(published.outputSchema);
    }
    expect(tools.filter((t) => freeToolSkills(registry).some((s) => s.toolName === t.name))).toHaveLength(19);
    // A paid tool's kind field is its kinds, with its default kind.
    const security = tools.find((t) => t.name === 'analyze_token_security')!.inputSchema.properties!.kind;
    expect(security).toMatchObject({ enum: ['rug_pull', 'holders', 'sniping', 'approvals', 'contract_audit'], default: 'rug_pull' });
    expect(tools.find((t) => t.name === 'scan_launchpads')!.inputSchema.properties!.venue).toMatchObject({ enum: ['curve', 'creator', 'catalog'], default: 'curve' });
  });

  it('tools/list, answered from the list built once, is what the SDK itself lists for the same tools', async () => {
    const sdk = new McpServer({ name: 'sdk-own', version: '1.0.0' });
    for (const tool of mcpTools(registry)) {
      sdk.registerTool(tool.name, { title: tool.title, description: tool.description, inputSchema: tool.input, outputSchema: tool.output, annotations: tool.annotations, ...(tool._meta && { _meta: tool._meta }) }, async () => ({ content: [] }));
    }
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await sdk.connect(serverSide);
    const own = new Client({ name: 'sdk-own-client', version: '1.0.0' });
    await own.connect(clientSide);
    try {
      expect((await client.listTools()).tools).toEqual((await own.listTools()).tools);
    } finally {
      await own.close();
    }
  });

  it('free results validate against their output schemas (checked by the SDK client)', async () => {
    expect((await call('get_top_movers')).body).toMatchObject({ available: false, reason: 'snapshot_not_warm', limit: FREE_ROWS.default });
    const gainers = Array.from({ length: 30 }, (_, i) => row(i));
    await warm(moversSnapshot, {
      source: 'index:base@1', idSource: 'test', perChainUnavailable: [], errors: [],
      crossAsset: { gainers, losers: [...gainers].reverse(), cohortSize: 30, universeSize: 40 },
      perChain: { base: { source: 'index:base@1', cohortSize: 30, gainers, losers: [...gainers].reverse() } },
    });
    const movers = await call('get_top_movers', { limit: 3 });
    expect(movers.body).toMatchObject({ available: true, side: 'gainers', limit: 3, stale: false, truncated: { limit: 3, originalLengths: { 'crossAsset.gainers': 30 } } });
    expect(movers.body.crossAsset.gainers).toHaveLength(3);
    expect(movers.body.crossAsset.losers).toBeUndefined();

    await warm(tokenSafetySnapshot, { rows: { [`base:${row(1).token}`]: { honeypot: true, riskLevel: 'critical', flags: ['cannot sell'], result: { riskScore: 100 } } } });
    expect((await call('check_token_safety', { contract: row(1).token })).body).toMatchObject({ available: true, screened: true, honeypot: true, chain: 'base', limit: null });
    expect((await call('check_token_safety', { contract: row(2).token, chain: 'bsc' })).body).toMatchObject({ available: true, screened: false, honeypot: null });

    expect((await call('get_congress_trades', { limit: 5 })).body).toEqual({ available: false, reason: 'domain_disabled', fetchedAt: null, stale: false, limit: 5 });
    expect((await call('get_forecast_accuracy')).body).toMatchObject({ available: false, reason: 'domain_disabled', limit: 10 });
    expect((await call('get_price_forecast', { asset: 'ETH' })).body).toMatchObject({ available: false, reason: 'snapshot_not_warm', asset: 'ETH', interval: '1d', limit: null });
  });

  it('list_service_capabilities is the tool list itself, with prices from the registry', async () => {
    const { body } = await call('list_service_capabilities');
    const document = buildMcpToolList(registry);
    expect(body.free.map((t: { name: string }) => t.name)).toEqual(document.tools.filter((t) => t.billing === 'free').map((t) => t.name));
    expect(body.paid.map((t: { name: string; priceUsd: string }) => [t.name, t.priceUsd])).toEqual(document.tools.filter((t) => t.billing === 'credits').map((t) => [t.name, t.priceUsd]));
    expect(body.billing).toMatchObject({ model: expect.any(String), signIn: expect.any(String), topUp: expect.any(String) });
  });

  it('the SDK refuses input outside a schema as an error result; a paid tool without an account answers spec 2.4\'s paid record', async () => {
    expect((await call('get_top_movers', { limit: FREE_ROWS.max + 1 })).isError).toBe(true);
    expect((await call('get_smart_money_flow', { chain: 'base' })).isError).toBe(true);
    expect((await call('scan_market', { limit: 101 })).isError).toBe(true);
    const paid = await call('ask_service', { prompt: 'hello' });
    expect(paid.body).toEqual({ available: false, reason: 'unauthorized', analysis: expect.any(String), skill: 'ask_service' });
  });
});
