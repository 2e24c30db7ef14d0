/**
 * Sibyl's paid path against the anchor, the stock `@x402/express` server with the SDK's local
 * facilitator, on one devnet, servers in a child process and load from this one, in alternating
 * rounds so drift on the machine hits both alike:
 *   - one paid request end to end with the official `@x402/fetch` client, sequential (402,
 *     sign, paid POST, settle): median of the whole and of the paid POST alone;
 *   - unpaid 402 challenges at 10 connections (autocannon): challenges per second.
 * `npm run bench` prints both ratios; `tsx test/bench/anchor.ts` runs this part alone.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { X402_NETWORK } from '../../payments/terms.js';

export const ANCHOR_PRICE = '0.01';
export const ANCHOR_PATHS = { sibyl: '/x402/data/bench-echo', stock: '/bench' } as const;

type Side = 'sibyl' | 'stock';
const SIDES: Side[] = ['sibyl', 'stock'];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function startServers(payers: string[]): Promise<{ urls: Record<Side, string>; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./anchor-servers.ts', import.meta.url).pathname], {
    env: { ...process.env, ANCHOR_PAYERS: payers.join(',') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (l) => l.startsWith('{') && resolve(l));
    child.once('exit', (code) => reject(new Error(`bench servers exited with ${code}`)));
  });
  const urls = JSON.parse(line) as Record<Side, string>;
  return { urls, stop: async () => void (child.kill('SIGTERM'), await exited) };
}

/** The official client paying from `key`, timing the request that carries the payment. */
function officialClient(key: `0x${string}`) {
  let paidPostMs = 0;
  const timed: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const paying = request.headers.has('payment-signature') || request.headers.has('x-payment');
    const t = performance.now();
    const res = await fetch(request);
    await res.clone().arrayBuffer();
    if (paying) paidPostMs = performance.now() - t;
    return res;
  };
  const pay = wrapFetchWithPaymentFromConfig(timed, { schemes: [{ network: X402_NETWORK, client: new ExactEvmScheme(privateKeyToAccount(key)) }] });
  return {
    async once(url: string): Promise<{ totalMs: number; paidPostMs: number }> {
      const t = performance.now();
      const res = await pay(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      return { totalMs: performance.now() - t, paidPostMs };
    },
  };
}

async function challenges(url: string, seconds: number): Promise<number> {
  const result = await autocannon({ url, method: 'POST', connections: 10, duration: seconds, headers: { 'content-type': 'application/json' }, body: '{}' });
  const ok402 = (result.statusCodeStats as Record<string, { count: number }>)['402']?.count ?? 0;
  if (ok402 !== result.requests.total) throw new Error(`${url}: ${result.requests.total - ok402} of ${result.requests.total} answers were not 402`);
  return ok402 / seconds;
}

export interface AnchorResult {
  paid: Record<Side, { totalMs: number; paidPostMs: number; n: number }>;
  challengesPerSec: Record<Side, number[]>;
}

export async function benchAnchor(rounds = Number(process.env.ANCHOR_ROUNDS ?? 4), perRound = Number(process.env.ANCHOR_PER_ROUND ?? 25), seconds = Number(process.env.ANCHOR_SECONDS ?? 5)): Promise<AnchorResult> {
  const keys = SIDES.map(() => generatePrivateKey());
  const servers = await startServers(keys.map((k) => privateKeyToAccount(k).address));
  try {
    const target = (side: Side) => `${servers.urls[side]}${ANCHOR_PATHS[side]}`;
    const clients = { sibyl: officialClient(keys[0]!), stock: officialClient(keys[1]!) };
    // Warm-up: connections, JIT, the SDK's lazily built pieces.
    for (const side of SIDES) for (let i = 0; i < 5; i++) await clients[side].once(target(side));
    const samples = { sibyl: { total: [] as number[], post: [] as number[] }, stock: { total: [] as number[], post: [] as number[] } };
    const challengesPerSec: Record<Side, number[]> = { sibyl: [], stock: [] };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 ? [...SIDES].reverse() : SIDES;
      for (const side of order) {
        for (let i = 0; i < perRound; i++) {
          const { totalMs, paidPostMs } = await clients[side].once(target(side));
          samples[side].total.push(totalMs);
          samples[side].post.push(paidPostMs);
        }
      }
      for (const side of order) challengesPerSec[side].push(await challenges(target(side), seconds));
    }
    const paid = Object.fromEntries(SIDES.map((s) => [s, { totalMs: median(samples[s].total), paidPostMs: median(samples[s].post), n: samples[s].total.length }])) as AnchorResult['paid'];
    return { paid, challengesPerSec };
  } finally {
    await servers.stop();
  }
}

export function printAnchor(r: AnchorResult): void {
  const c = (s: Side) => median(r.challengesPerSec[s]);
  console.log('\nPaid path vs the stock @x402/express server (same devnet, alternating rounds)');
  console.log(`  one paid request, official client, sequential (median of ${r.paid.sibyl.n})`);
  for (const s of SIDES) console.log(`    ${s.padEnd(6)} end to end ${r.paid[s].totalMs.toFixed(1).padStart(6)} ms   paid POST alone ${r.paid[s].paidPostMs.toFixed(1).padStart(6)} ms`);
  console.log(`  unpaid 402 challenges, 10 connections (rounds: ${r.challengesPerSec.sibyl.map((x) => x.toFixed(0)).join(' / ')} vs ${r.challengesPerSec.stock.map((x) => x.toFixed(0)).join(' / ')})`);
  for (const s of SIDES) console.log(`    ${s.padEnd(6)} ${c(s).toFixed(0).padStart(6)} /s`);
  console.log(`  ratio paid latency (stock / Sibyl, >= 1 is as fast or faster): ${(r.paid.stock.totalMs / r.paid.sibyl.totalMs).toFixed(2)}x`);
  console.log(`  ratio 402 throughput (Sibyl / stock, goal >= 2): ${(c('sibyl') / c('stock')).toFixed(2)}x`);
}

if (import.meta.url === `file://${process.argv[1]}`) printAnchor(await benchAnchor());
