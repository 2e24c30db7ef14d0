/**
 * The MCP tool server with the official `@modelcontextprotocol/sdk` client over Streamable HTTP:
 * the tool list and its schemas, free tools served only from snapshots (not warm before the jobs
 * run), their envelope and row caps (`limit` on every result), figures checked against the world,
 * domains without an engine, input refused by the schema, and the server's name and version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { freeToolSkills } from '../../cards/mcp-tools.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { MOVER_MIN_LIQUIDITY_USD } from '../../skills/movers/engine.js';
import { freshAddress, json } from '../helpers/sibyl.js';
import { startSharedWorldSibyl, type WorldSibyl } from '../helpers/world.js';

/** The free tools: the registry's free skills on the tool server (list_service_capabilities among them). */
const FREE_TOOL_NAMES = freeToolSkills(createRegistry()).map((s) => s.toolName!);

let w: WorldSibyl;
let client: Client;
/** What the snapshot tools answered before their jobs first ran (read only after beforeAll). */
let cold: { movers: any; sentiment: any };
beforeAll(async () => {
  // The security tests' world: it holds honeypots with pools.
  // Every free tool's feed on: the tools are all listed and answered.
  w = await startSharedWorldSibyl({ PERPS: 'embedded', RECORDS: 'embedded', CALLS: 'embedded' });
  client = new Client({ name: 'sibyl-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${w.sibyl.url}/api/mcp`)));
  // Every test reads warm snapshots; what they said before is kept for the test that checks it.
  cold = { movers: (await call('get_top_movers', {})).body, sentiment: (await call('get_market_sentiment')).body };
  await w.sibyl.snapshots.runAll();
}, 120_000);
afterAll(async () => {
  await client?.close();
  await w?.close();
});

async function call(name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, body: result.structuredContent as any, text: (result.content as { text: string }[])[0]?.text };
}

describe('MCP tool server (official SDK client)', () => {
  it('lists every tool with an exact schema and its annotations, also as JSON', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining([...FREE_TOOL_NAMES, 'list_service_capabilities']));
    for (const tool of tools) {
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      // Only generate_quantum_key creates something.
      expect(tool.annotations, tool.name).toMatchObject(tool.name === 'generate_quantum_key' ? { readOnlyHint: false, idempotentHint: false } : { readOnlyHint: true, idempotentHint: true });
    }
    const listed = await json(await fetch(`${w.sibyl.url}/api/mcp/tools`));
    expect(listed.tools.map((t: { name: string }) => t.name)).toEqual(names);
  });

  it('publishes six UI cards (forecast, sentiment, movers; MCP App and Apps SDK), linked from their tools, and no prompts', async () => {
    const { resources } = await client.listResources();
    expect(resources).toHaveLength(6);
    expect(resources.filter((r) => r.mimeType === 'text/html;profile=mcp-app')).toHaveLength(3);
    expect(resources.filter((r) => r.mimeType === 'text/html+skybridge')).toHaveLength(3);
    const { tools } = await client.listTools();
    for (const name of ['get_price_forecast', 'get_market_sentiment', 'get_top_movers']) {
      const meta = tools.find((t) => t.name === name)!._meta as any;
      expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining([meta.ui.resourceUri, meta['openai/outputTemplate']]));
      const page = await client.readResource({ uri: meta.ui.resourceUri });
      expect((page.contents[0] as { text: string }).text).toMatch(/^<!doctype html>/);
      expect((page.contents[0] as { text: string }).text).not.toMatch(/<script src=|<link /);
    }
    expect(client.getServerCapabilities()?.prompts).toBeUndefined();
  });

  it('serves free tools only from snapshots: not warm before the jobs run, then the envelope with row caps', async () => {
    expect(cold.movers).toMatchObject({ available: false, reason: 'snapshot_not_warm', limit: 10 });
    expect(cold.sentiment).toMatchObject({ available: false, reason: 'snapshot_not_warm', limit: null });
    const movers = await call('get_top_movers', { side: 'losers', limit: 3 });
    expect(movers.isError).toBe(false);
    expect(movers.body).toMatchObject({ available: true, stale: false, limit: 3, side: 'losers', fetchedAt: expect.any(Number) });
    const losers = movers.body.crossAsset.losers as { changePct: number; liquidityUsd: number }[];
    expect(losers.length).toBeLessThanOrEqual(3);
    expect(losers.map((l) => l.changePct)).toEqual([...losers.map((l) => l.changePct)].sort((a, b) => a - b));
    for (const l of losers) expect(l.liquidityUsd).toBeGreaterThanOrEqual(10_000);
    // Only tokens that fell (and traded) are losers; the board says how many qualified.
    for (const l of losers) expect(l.changePct).toBeLessThan(0);
    if (movers.body.crossAsset.qualified > 3) expect(movers.body.truncated).toMatchObject({ limit: 3, originalLengths: { 'crossAsset.losers': expect.any(Number) } });
    // The text block and the structured result are the same record.
    expect(JSON.parse(movers.text!)).toEqual(movers.body);
  });

  it('answers figures that agree with the world', async () => {
    const honeypot = w.labels.tokens.find((t) => t.kind === 'honeypot' && t.pair)!;
    const safety = await call('check_token_safety', { contract: honeypot.token, chain: 'base' });
    expect(safety.body).toMatchObject({ available: true, screened: true, honeypot: true });
    const unknown = await call('check_token_safety', { contract: freshAddress() });
    expect(unknown.body).toMatchObject({ available: true, screened: false, honeypot: null });

    const prints = await call('get_venuechain_whale_prints', { limit: 5 });
    expect(prints.body.prints).toMatchObject({ available: true, chain: 'base', minUsd: 50_000 });
    for (const p of prints.body.prints.prints) expect(p.usd).toBeGreaterThanOrEqual(50_000);

    const flow = await call('get_smart_money_flow', {});
    expect(['accumulating', 'distributing', 'neutral']).toContain(flow.body.overallSignal);
    const sentiment = await call('get_market_sentiment');
    // The index is the share of the movers' cohort (liquid tokens with a 24 h change) that rose, counted from
    // another engine: the liquidity ranking's rows over the same 24 h.
    const board = (await call('get_top_movers', { side: 'losers', limit: 25 })).body.crossAsset;
    const ranking = await createRegistry().byId('top-tokens')!.handler({ chain: 'base', limit: 500, timeperiod: '24h' }, w.sibyl.context) as { tokens: { changePct: number | null; liquidityUsd: number }[] };
    const cohort = ranking.tokens.filter((t) => t.changePct !== null && t.liquidityUsd >= MOVER_MIN_LIQUIDITY_USD);
    const up = cohort.filter((t) => t.changePct! > 0).length;
    expect(board.cohortSize).toBe(cohort.length);
    expect(sentiment.body.crypto).toMatchObject({ available: true, tokens: cohort.length, breadthUp: up, index: Math.round((100 * up) / cohort.length) });
    expect(sentiment.body.cmc).toMatchObject({ available: false });
    // This world indexes Base only: the BSC inflow says so rather than answering empty.
    const inflow = await call('get_smart_money_inflow', {});
    expect(inflow.body).toMatchObject({ available: false, reason: expect.stringMatching(/bsc/) });
  });

  it('answers the records tools from their feeds (unpriced without the stock chain), and refuses input outside the schema', async () => {
    const congress = (await call('get_congress_trades', { limit: 5 })).body;
    expect(congress).toMatchObject({ available: true, limit: 5 });
    expect(congress.trades.length).toBeGreaterThan(0);
    expect(congress.trades.length).toBeLessThanOrEqual(5);
    // This world has no stock chain: trades are listed, none priced, and the answer says why.
    expect(congress.trades.every((t: { sinceTransaction: unknown }) => t.sinceTransaction === null)).toBe(true);
    expect(JSON.stringify(congress.sources)).toMatch(/no prices: this deployment does not read stockchain/);
    expect((await call('get_top_movers', { limit: 26 })).isError).toBe(true);
    expect((await call('get_top_movers', { limit: 0 })).isError).toBe(true);
    expect((await call('get_top_movers', { chain: 'base' })).isError).toBe(true);
    expect((await call('get_smart_money_inflow', { limit: 16 })).isError).toBe(true);
    expect((await call('get_forecast_accuracy', { limit: 50 })).body).toMatchObject({ available: true, object: 'forecast-accuracy', limit: 50 });
    expect((await call('get_forecast_accuracy', { limit: 51 })).isError).toBe(true);
  });

  it('carries limit on every free result: the call\'s row cap (spec 4.7 defaults), or null for a tool that takes none', async () => {
    const { tools } = await client.listTools();
    const defaults: Record<string, number | null> = {
      get_price_forecast: null, get_forecast_accuracy: 10, get_market_sentiment: null, get_top_movers: 10, get_smart_money_flow: 10,
      get_perp_whales: 10, get_venuechain_whale_prints: 10, get_prediction_whales: 10, get_prediction_catalysts: 10, get_prediction_yields: 10,
      get_bitcoin_cycle_position: null, check_token_safety: null, get_congress_trades: 10, get_government_contracts: 10, get_analyst_accuracy: 10,
      get_smart_money_inflow: 8, get_social_hype: 8, get_launchpad_radar: 8, list_service_capabilities: null,
    };
    expect(Object.keys(defaults).sort()).toEqual([...FREE_TOOL_NAMES].sort());
    for (const [name, limit] of Object.entries(defaults)) {
      const schema = tools.find((t) => t.name === name)!.inputSchema as { properties?: Record<string, { default?: unknown }> };
      expect(schema.properties?.limit?.default ?? null, `${name} listed default`).toBe(limit);
      const args = name === 'check_token_safety' ? { contract: freshAddress() } : {};
      const result = await call(name, args);
      expect(result.isError, name).toBe(false);
      expect(result.body, name).toHaveProperty('limit', limit);
      expect(JSON.parse(result.text!), name).toEqual(result.body);
      if (limit !== null) expect((await call(name, { ...args, limit: 2 })).body, name).toHaveProperty('limit', 2);
    }
    // get_forecast_accuracy: 1-50, default 10 (the HTTP leaderboard's own default is unchanged).
    const accuracy = await call('get_forecast_accuracy');
    expect(accuracy.body).toMatchObject({ available: true, object: 'forecast-accuracy', limit: 10 });
    expect(accuracy.body.rows.length).toBeLessThanOrEqual(10);
  });

  it('names itself sibyl 3.0.0, the tool server version of the spec', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'sibyl', version: '3.0.0' });
  });
});
