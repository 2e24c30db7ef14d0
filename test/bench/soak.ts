/**
 * Soak: Sibyl under mixed load for minutes, its memory sampled every few seconds, then left idle.
 * Starts the service as its own process on the embedded defaults (any setting passes through the
 * environment: WORLD_DAYS=2 EMBEDDED_CHAINS=base,ethereum for a quicker start), or drives one
 * already running (SOAK_URL, with SOAK_PID for its RSS). The load, spread over SOAK_CONCURRENCY
 * workers: paid calls (x402, several skills, payers funded on the embedded Base), unpaid calls
 * (402 challenges, discovery documents, bad bodies, unknown paths) and MCP (free tools and
 * tools/list, half through a client kept per worker, half through a fresh client per call);
 * /readyz and /healthz are polled every second beside it. Every SOAK_SAMPLE_SECONDS it prints
 * RSS and V8's heap (from the process's /metrics), and at the end the growth after warm-up, the
 * statuses per kind, transport errors (resets) and readiness answers.
 *
 *   npx tsx test/bench/soak.ts                      # 10 minutes, embedded defaults
 *   SOAK_MINUTES=3 WORLD_DAYS=2 npx tsx test/bench/soak.ts
 *   SOAK_NODE_OPTIONS="--import ./test/bench/heap-sampler.ts" …  # where it allocates, from warm-up to the end of the load
 *
 * Not part of `npm test`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { bytesToHex, encodeFunctionData, getAddress, parseAbi, parseUnits, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { demoAccount } from '../../chain/accounts.js';
import { CHAINS } from '../../chain/chains.js';
import { errorCode } from '../../lib/errors.js';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const SAMPLE_MS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 5) * 1000;
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 6);
const IDLE_MS = Number(process.env.SOAK_IDLE_SECONDS ?? 30) * 1000;
/** Samples before this are warm-up (caches filling, the first world blocks indexed). */
const WARMUP_MS = Number(process.env.SOAK_WARMUP_SECONDS ?? Math.min(120, MINUTES * 12)) * 1000;
const PAYERS = Number(process.env.SOAK_PAYERS ?? 40);
const MB = 1024 * 1024;

/** Paid calls: cheap data skills on Base with bodies they accept. */
const PAID: { path: string; body: Record<string, unknown> }[] = [
  { path: '/x402/data/latest-pairs', body: { chain: 'base', limit: 5 } },
  { path: '/x402/data/top-tokens', body: { chain: 'base', limit: 5 } },
  { path: '/x402/data/topvolume', body: { chain: 'base', limit: 5 } },
  { path: '/x402/data/ohlcv', body: { chain: 'base', tokenAddress: 'ETH' } },
  { path: '/x402/data/liquidityshifts', body: { chain: 'base', limit: 5 } },
  { path: '/x402/data/holderconcentration', body: { chain: 'base', tokenAddress: 'ETH' } },
];
const MCP_TOOLS: { name: string; arguments: Record<string, unknown> }[] = [
  { name: 'get_market_sentiment', arguments: {} },
  { name: 'get_top_movers', arguments: { side: 'gainers', limit: 5 } },
  { name: 'get_smart_money_flow', arguments: { limit: 5 } },
  { name: 'get_price_forecast', arguments: { asset: 'BTC', interval: '1d' } },
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.once('error', reject);
  });
}

/** The service as its own process (its RSS is its own), or the one at SOAK_URL. */
async function service(): Promise<{ url: string; pid: number | undefined; child?: ChildProcess }> {
  if (process.env.SOAK_URL) return { url: process.env.SOAK_URL, pid: process.env.SOAK_PID ? Number(process.env.SOAK_PID) : undefined };
  const port = await freePort();
  const nodeArgs = (process.env.SOAK_NODE_OPTIONS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, 'server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_FORMAT: 'json', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}) before it was ready`);
    const live = await fetch(`${url}/livez`).then((r) => r.ok, () => false);
    if (live) break;
    if (Date.now() - started > 30 * 60_000) throw new Error('not ready within 30 minutes');
    await sleep(1_000);
  }
  console.log(`service ready in ${((Date.now() - started) / 1000).toFixed(0)} s at ${url} (pid ${child.pid})`);
  return { url, pid: child.pid, child };
}

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** Fresh payers holding USDC on the embedded Base (minted by the unlocked demo account #0). */
async function fundPayers(baseRpc: string, n: number): Promise<Hex[]> {
  const keys = Array.from({ length: n }, () => generatePrivateKey());
  const abi = parseAbi(['function mint(address, uint256)']);
  const hashes: Hex[] = [];
  for (const key of keys) {
    const data = encodeFunctionData({ abi, functionName: 'mint', args: [privateKeyToAccount(key).address, parseUnits('100000', 6)] });
    hashes.push((await rpc(baseRpc, 'eth_sendTransaction', [{ from: demoAccount(0).address, to: CHAINS.base.usdc, data }])) as Hex);
  }
  for (const hash of hashes) {
    while (!(await rpc(baseRpc, 'eth_getTransactionReceipt', [hash]))) await sleep(200);
  }
  return keys;
}

const authorizationTypes = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' }, { name: 'to', type: 'address' }, { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' }, { name: 'validBefore', type: 'uint256' }, { name: 'nonce', type: 'bytes32' },
  ],
} as const;

async function paymentHeader(key: Hex, accepted: PaymentRequirements): Promise<string> {
  const account = privateKeyToAccount(key);
  const now = BigInt(Math.floor(Date.now() / 1000));
  const authorization = { from: account.address, to: getAddress(accepted.payTo as Address), value: accepted.amount, validAfter: (now - 600n).toString(), validBefore: (now + 300n).toString(), nonce: bytesToHex(randomBytes(32)) };
  const signature = await account.signTypedData({
    domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: getAddress(accepted.asset as Address) },
    types: authorizationTypes, primaryType: 'TransferWithAuthorization',
    message: { ...authorization, value: BigInt(authorization.value), validAfter: BigInt(authorization.validAfter), validBefore: BigInt(authorization.validBefore) },
  });
  return encodePaymentSignatureHeader({ x402Version: 2, accepted, payload: { authorization, signature } } as PaymentPayload);
}

/** Counts per kind and status, and transport errors by code. */
class Tally {
  readonly statuses = new Map<string, number>();
  readonly errors = new Map<string, number>();
  requests = 0;
  count(kind: string, status: number | string): void {
    this.requests++;
    const key = `${kind} ${status}`;
    this.statuses.set(key, (this.statuses.get(key) ?? 0) + 1);
  }
  error(kind: string, err: unknown): void {
    this.requests++;
    const code = errorCode(err) ?? (err as Error).name ?? 'error';
    const key = `${kind} ${code}`;
    this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
  }
}

async function call(tally: Tally, kind: string, url: string, init?: RequestInit): Promise<Response | undefined> {
  try {
    const res = await fetch(url, init);
    await res.arrayBuffer();
    tally.count(kind, res.status);
    return res;
  } catch (err) {
    tally.error(kind, err);
    return undefined;
  }
}

const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

async function mcpClient(url: string): Promise<Client> {
  const client = new Client({ name: 'soak', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`)));
  return client;
}

/** The service's memory: RSS from /proc (or /metrics), V8's heap and external memory from /metrics. */
async function memory(url: string, pid: number | undefined) {
  const text = await fetch(`${url}/metrics`).then((r) => (r.ok ? r.text() : ''), () => '');
  const metric = (name: string) => {
    const m = text.match(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm'));
    return m ? Number(m[1]) : NaN;
  };
  let rss = metric('sibyl_process_resident_memory_bytes');
  if (pid) {
    try {
      rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
    } catch {
      // gone, or not this machine's: keep the metric
    }
  }
  return { rss, heapUsed: metric('sibyl_nodejs_heap_size_used_bytes'), heapTotal: metric('sibyl_nodejs_heap_size_total_bytes'), external: metric('sibyl_nodejs_external_memory_bytes') };
}

const { url, pid, child } = await service();
const stopChild = () => child?.exitCode === null && child.kill('SIGINT');
process.once('SIGINT', () => {
  stopChild();
  process.exit(130);
});
try {
  const health = (await (await fetch(`${url}/healthz`)).json()) as { chains: { name: string; rpcUrl: string }[] };
  const baseRpc = process.env.SOAK_BASE_RPC ?? health.chains.find((c) => c.name === 'base')!.rpcUrl;
  const payers = await fundPayers(baseRpc, PAYERS);
  const accepted = new Map<string, PaymentRequirements>();
  for (const p of PAID) {
    const res = await fetch(`${url}${p.path}`, post(p.body));
    const body = (await res.json()) as { accepts?: PaymentRequirements[] };
    if (res.status !== 402 || !body.accepts?.[0]) throw new Error(`${p.path}: expected a 402 challenge, got ${res.status}`);
    accepted.set(p.path, body.accepts[0]);
  }
  console.log(`${PAYERS} payers funded; ${PAID.length} paid skills, ${MCP_TOOLS.length} MCP tools; ${CONCURRENCY} workers for ${MINUTES} min, then ${IDLE_MS / 1000} s idle`);

  const tally = new Tally();
  const probes = new Tally();
  const loadEnds = Date.now() + MINUTES * 60_000;
  let payer = 0;
  let turn = 0;
  const tasks: ((w: { mcp?: Client }) => Promise<void>)[] = [
    // paid
    async () => {
      const p = PAID[turn % PAID.length]!;
      const header = await paymentHeader(payers[payer++ % payers.length]!, accepted.get(p.path)!);
      await call(tally, 'paid', `${url}${p.path}`, post(p.body, { 'PAYMENT-SIGNATURE': header }));
    },
    // unpaid: a challenge, the discovery documents, a bad body, an unknown path
    async () => {
      const p = PAID[turn % PAID.length]!;
      await call(tally, 'unpaid', `${url}${p.path}`, post(p.body));
    },
    async () => {
      const doc = ['/api/marketplace/catalog', '/openapi.json', '/.well-known/agent-card.json', '/api/mcp/tools', '/api/a2a/skills'][turn % 5]!;
      await call(tally, 'unpaid', `${url}${doc}`);
    },
    async () => {
      if (turn % 2) await call(tally, 'unpaid', `${url}/x402/data/latest-pairs`, post('{"chain": "base", "limit": ', {}));
      else await call(tally, 'unpaid', `${url}/no/such/path/${turn}`);
    },
    // MCP: a kept client, or a fresh one per call
    async (w) => {
      const tool = MCP_TOOLS[turn % MCP_TOOLS.length]!;
      const fresh = turn % 2 === 0;
      let client: Client | undefined;
      try {
        client = fresh ? await mcpClient(url) : (w.mcp ??= await mcpClient(url));
        const result = turn % 5 === 0 ? await client.listTools() : await client.callTool(tool);
        tally.count('mcp', 'isError' in result && result.isError ? 'tool-error' : 'ok');
      } catch (err) {
        tally.error('mcp', err);
        if (!fresh) w.mcp = undefined;
      } finally {
        if (fresh) await client?.close().catch(() => {});
      }
    },
  ];
  // Readiness and liveness, polled beside the load as a balancer would.
  const polling = (async () => {
    while (Date.now() < loadEnds + IDLE_MS) {
      await Promise.all([call(probes, 'readyz', `${url}/readyz`), call(probes, 'healthz', `${url}/healthz`)]);
      await sleep(1_000);
    }
  })();
  const started = Date.now();
  const samples: { t: number; rss: number; heapUsed: number; heapTotal: number; external: number; requests: number }[] = [];
  let lastRequests = 0;
  console.log('   t s   rss MB  heap used  heap total  external   req/s   readyz non-200');
  // With the heap sampler preloaded: its counts start after warm-up and are written at the end of the load.
  const sampler = pid && (process.env.SOAK_NODE_OPTIONS ?? '').includes('heap-sampler');
  if (sampler) {
    setTimeout(() => process.kill(pid, 'SIGUSR2'), WARMUP_MS).unref();
    setTimeout(() => process.kill(pid, 'SIGUSR2'), loadEnds - Date.now()).unref();
  }
  const sampling = (async () => {
    while (Date.now() < loadEnds + IDLE_MS) {
      await sleep(SAMPLE_MS);
      const m = await memory(url, pid);
      const t = Math.round((Date.now() - started) / 1000);
      samples.push({ t, ...m, requests: tally.requests });
      const rps = (tally.requests - lastRequests) / (SAMPLE_MS / 1000);
      lastRequests = tally.requests;
      const unready = [...probes.statuses].filter(([k]) => k.startsWith('readyz') && !k.endsWith(' 200')).reduce((a, [, n]) => a + n, 0);
      console.log(`${String(t).padStart(6)} ${(m.rss / MB).toFixed(0).padStart(8)} ${(m.heapUsed / MB).toFixed(0).padStart(10)} ${(m.heapTotal / MB).toFixed(0).padStart(11)} ${(m.external / MB).toFixed(0).padStart(9)} ${rps.toFixed(0).padStart(7)} ${String(unready).padStart(8)}${Date.now() > loadEnds ? '  (idle)' : ''}`);
    }
  })();
  await Promise.all(Array.from({ length: CONCURRENCY }, async (_, i) => {
    const w: { mcp?: Client } = {};
    for (let k = i; Date.now() < loadEnds; k++) {
      turn++;
      await tasks[k % tasks.length]!(w);
    }
    await w.mcp?.close().catch(() => {});
  }));
  const loadMs = Date.now() - started;
  await Promise.all([polling, sampling]);

  const warm = samples.filter((s) => s.t * 1000 >= WARMUP_MS && s.t * 1000 <= loadMs);
  const first = warm[0];
  const lastLoad = warm.at(-1);
  const idle = samples.at(-1);
  const pct = (a: number, b: number) => `${(((b - a) / a) * 100).toFixed(1)}%`;
  console.log(`\n${tally.requests} requests in ${(loadMs / 1000).toFixed(0)} s (${(tally.requests / (loadMs / 1000)).toFixed(1)}/s), ${CONCURRENCY} workers`);
  for (const [k, n] of [...tally.statuses].sort()) console.log(`  ${k.padEnd(24)} ${n}`);
  for (const [k, n] of [...tally.errors].sort()) console.log(`  ${k.padEnd(24)} ${n}  (transport error)`);
  console.log('probes:');
  for (const [k, n] of [...probes.statuses, ...probes.errors].sort()) console.log(`  ${k.padEnd(24)} ${n}`);
  if (first && lastLoad && idle) {
    const maxRss = Math.max(...warm.map((s) => s.rss));
    console.log(`RSS after warm-up (${first.t} s) ${(first.rss / MB).toFixed(0)} MB, end of load ${(lastLoad.rss / MB).toFixed(0)} MB (${pct(first.rss, lastLoad.rss)}), max ${(maxRss / MB).toFixed(0)} MB (${pct(first.rss, maxRss)}), after ${IDLE_MS / 1000} s idle ${(idle.rss / MB).toFixed(0)} MB`);
    console.log(`heap used after warm-up ${(first.heapUsed / MB).toFixed(0)} MB, end of load ${(lastLoad.heapUsed / MB).toFixed(0)} MB (${pct(first.heapUsed, lastLoad.heapUsed)}), after idle ${(idle.heapUsed / MB).toFixed(0)} MB`);
  }
  // What survives a major collection (heap used where it fell by a third or more since the last
  // sample): flat while nothing leaks, whatever the heap's size between collections.
  const afterGc = samples.filter((s, i) => i > 0 && s.heapUsed < samples[i - 1]!.heapUsed * (2 / 3));
  if (afterGc.length) console.log(`heap used just after major collections: ${afterGc.map((s) => `${(s.heapUsed / MB).toFixed(0)} MB at ${s.t} s`).join(', ')}`);
} finally {
  stopChild();
}
