/**
 * Where keep-alive connections to Sibyl get reset. Starts a small Sibyl (Base only, no world) as
 * its own process, or uses SIBYL_URL, and counts transport errors for:
 *   1. a request after an idle gap near the server's keepAliveTimeout, on fetch (undici) and on
 *      node's http.Agent with keep-alive (its default free-socket timeout, then none);
 *   2. a body the server refuses without reading it (413 over the 64 KiB limit), sent whole and
 *      chunked, then a second request on the same connection;
 *   3. requests node's parser refuses (a bad header line, headers over 16 KiB, a smuggling-shaped
 *      body), answered and closed with more of the request still unread.
 *
 *   npx tsx test/bench/keepalive.ts
 */
import { spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { connect, createServer } from 'node:net';
import { errorCode } from '../../lib/errors.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ROUNDS = Number(process.env.KEEPALIVE_ROUNDS ?? 12);
const CLIENTS = Number(process.env.KEEPALIVE_CLIENTS ?? 16);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function start(): Promise<{ url: string; stop: () => void }> {
  if (process.env.SIBYL_URL) return { url: process.env.SIBYL_URL, stop: () => {} };
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', EMBEDDED_CHAINS: 'base', WORLD_DAYS: '0', BITCOIN: 'off', CURVE_FEED: 'off', FORECAST: 'off', SNAPSHOT_JOBS: 'off', LOG_LEVEL: 'warn', LOG_FORMAT: 'json', EMBEDDED_RPC_PORT: '0' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  while (!(await fetch(`${url}/livez`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null) throw new Error('Sibyl exited');
    await sleep(500);
  }
  return { url, stop: () => child.kill('SIGINT') };
}

/** One request on node's http module through `agent`: the status, or the transport error's code. */
function nodeRequest(url: string, agent: Agent, method = 'GET', path = '/livez', body?: Buffer, chunked = false): Promise<string> {
  return new Promise((resolve) => {
    const req = httpRequest(`${url}${path}`, { method, agent, headers: body ? { 'content-type': 'application/json', ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': body.length }) } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve(String(res.statusCode)));
    });
    req.on('error', (err) => resolve(errorCode(err) ?? err.message));
    if (body && chunked) {
      for (let i = 0; i < body.length; i += 16_384) req.write(body.subarray(i, i + 16_384));
      req.end();
    } else req.end(body);
  });
}

const fetchRequest = (url: string, init?: RequestInit, path = '/livez') =>
  fetch(`${url}${path}`, init).then(async (r) => (await r.arrayBuffer(), String(r.status)), (err: unknown) => errorCode(err) ?? (err as Error).message);

function tally(results: string[]): string {
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${k}×${n}`).join(' ');
}

/** CLIENTS sequences of ROUNDS requests, each after an idle gap drawn from [lo, hi] ms. */
async function idleGaps(lo: number, hi: number, send: (client: number) => Promise<string>): Promise<string> {
  const results: string[] = [];
  await Promise.all(Array.from({ length: CLIENTS }, async (_, c) => {
    results.push(await send(c));
    for (let i = 0; i < ROUNDS; i++) {
      await sleep(lo + Math.random() * (hi - lo));
      results.push(await send(c));
    }
  }));
  return tally(results);
}

const { url, stop } = await start();
try {
  const serverHint = (await fetch(`${url}/livez`)).headers.get('keep-alive');
  console.log(`Sibyl at ${url}; its Keep-Alive header: ${serverHint}`);

  console.log('\n1. a request after an idle gap of 4.9-5.1 s (the server closes idle connections at 5 s)');
  console.log(`  fetch (undici)                          ${await idleGaps(4_900, 5_100, () => fetchRequest(url))}`);
  const agents = Array.from({ length: CLIENTS }, () => new Agent({ keepAlive: true, timeout: 5_000 }));
  console.log(`  http.Agent keepAlive, timeout 5 s       ${await idleGaps(4_900, 5_100, (c) => nodeRequest(url, agents[c]!))}`);
  const open = Array.from({ length: CLIENTS }, () => new Agent({ keepAlive: true }));
  console.log(`  http.Agent keepAlive, no timeout        ${await idleGaps(4_900, 5_100, (c) => nodeRequest(url, open[c]!))}`);
  console.log(`  http.Agent keepAlive, no timeout, 2-4 s ${await idleGaps(2_000, 4_000, (c) => nodeRequest(url, open[c]!))}`);

  console.log('\n2. a body refused unread (1 MiB, over the 64 KiB limit), then a request on the same connection');
  const big = Buffer.alloc(1024 * 1024, 0x20);
  for (const chunked of [false, true]) {
    const results: string[] = [];
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 50; i++) {
      results.push(await nodeRequest(url, agent, 'POST', '/x402/data/latest-pairs', big, chunked));
      results.push(`then ${await nodeRequest(url, agent)}`);
    }
    console.log(`  ${chunked ? 'chunked       ' : 'content-length'}  ${tally(results)}`);
  }
  const results: string[] = [];
  for (let i = 0; i < 50; i++) results.push(await fetchRequest(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big }, '/x402/data/latest-pairs'));
  console.log(`  fetch         ${tally(results)}`);

  console.log('\n3. requests the parser refuses (it answers and closes the connection), on a raw socket: what the client reads');
  const { port, hostname } = new URL(url);
  const rawly = async (payload: Buffer | string) => {
    const seen: string[] = [];
    for (let i = 0; i < 20; i++) {
      seen.push(await new Promise<string>((resolve) => {
        let data = '';
        const s = connect(Number(port), hostname, () => s.write(payload));
        s.on('data', (d) => (data += d));
        s.on('error', (err) => resolve(`${data.split('\r\n')[0] || 'nothing read'}, then ${errorCode(err) ?? err.message}`));
        s.on('close', () => resolve(data.split('\r\n')[0] || 'nothing read'));
      }));
    }
    return tally(seen);
  };
  const body = 'x'.repeat(256 * 1024);
  console.log(`  a bad header line, a small request after it      ${await rawly('GET /livez HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\nGET /livez HTTP/1.1\r\nHost: x\r\n\r\n')}`);
  console.log(`  a bad header line, 256 KiB after it             ${await rawly(`POST /livez HTTP/1.1\r\nHost: x\r\nBad Header\r\nContent-Length: ${body.length}\r\n\r\n${body}`)}`);
  console.log(`  headers over 16 KiB, 256 KiB of body after them ${await rawly(`POST /livez HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nContent-Length: ${body.length}\r\n\r\n${body}`)}`);
  console.log(`  Content-Length and chunked together, 256 KiB    ${await rawly(`POST /livez HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nTransfer-Encoding: chunked\r\n\r\n${body}`)}`);
} finally {
  stop();
}
