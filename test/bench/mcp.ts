/**
 * `npm run bench:mcp`: free MCP tool calls against Sibyl's tool server (a snapshot read, the
 * free-tool envelope) and against the MCP SDK's own stateless example (one server and transport
 * per request, one tool answering a constant), same client, same machine: p50/p90 latency and
 * calls per second at a fixed concurrency. Sibyl runs on its embedded defaults for Base with a
 * 2-day world, snapshots built once before the run.
 */
import { benchLogger } from './bench-logger.js';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { loadConfig } from '../../server/config.js';
import { startSibyl } from '../../server/service.js';

const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 2_000);
const CONCURRENCY = Number(process.env.BENCH_MCP_CONCURRENCY ?? 8);
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** The SDK's simpleStatelessStreamableHttp example, reduced to one tool. */
async function sdkExample(): Promise<{ url: string; close: () => void }> {
  const app = express();
  app.use(express.json());
  app.post('/mcp', async (req, res) => {
    const server = new McpServer({ name: 'stateless-example', version: '1.0.0' });
    server.registerTool('greet', { description: 'A simple greeting tool', inputSchema: { name: z.string().default('world') } }, async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, close: () => server.close() };
}

async function load(url: string, tool: string, args: Record<string, unknown>) {
  const clients = await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return client;
  }));
  // Warm up.
  for (const c of clients) await c.callTool({ name: tool, arguments: args });
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(clients.map(async (client) => {
    while (next++ < CALLS) {
      const t = performance.now();
      const result = await client.callTool({ name: tool, arguments: args });
      if (result.isError) throw new Error(`${tool} failed: ${JSON.stringify(result.content)}`);
      latencies.push(performance.now() - t);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(clients.map((c) => c.close()));
  latencies.sort((a, b) => a - b);
  return { p50: quantile(latencies, 0.5), p90: quantile(latencies, 0.9), perSec: latencies.length / seconds };
}

const sibyl = await startSibyl(loadConfig({ ...process.env, PORT: '0', EMBEDDED_CHAINS: 'base', EMBEDDED_RPC_PORT: '0', WORLD_DAYS: '2', WORLD_LIVE_BLOCK_MS: '0', SNAPSHOT_JOBS: 'off', FORECAST_JOBS: 'off', CURVE_FEED: 'off' }), { log: () => {}, logger: benchLogger() });
const example = await sdkExample();
try {
  await sibyl.snapshots.runAll();
  const ours = await load(`${sibyl.url}/api/mcp`, 'get_top_movers', { limit: 10 });
  const sdk = await load(example.url, 'greet', { name: 'bench' });
  console.log(`MCP free calls, ${CALLS} calls, ${CONCURRENCY} clients (official SDK client, Streamable HTTP, stateless)`);
  console.log(`  sibyl get_top_movers (snapshot read)   p50 ${ours.p50.toFixed(2).padStart(7)} ms  p90 ${ours.p90.toFixed(2).padStart(7)} ms  ${ours.perSec.toFixed(0).padStart(6)} calls/s`);
  console.log(`  SDK stateless example (constant)       p50 ${sdk.p50.toFixed(2).padStart(7)} ms  p90 ${sdk.p90.toFixed(2).padStart(7)} ms  ${sdk.perSec.toFixed(0).padStart(6)} calls/s`);
  console.log(`  sibyl / example throughput: ${(ours.perSec / sdk.perSec).toFixed(2)}x`);
} finally {
  example.close();
  await sibyl.close();
}
