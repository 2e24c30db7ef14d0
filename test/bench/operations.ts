/**
 * p50/p99 latency of every data operation over N calls (default 1,000): a 14-day world on base,
 * indexed into the memory store (and the embedded Solana venue for curve-*), each skill's handler called with a validated body, as the paid
 * route calls it once payment is verified (the gate's own cost is measured by gate.ts).
 * "warm" calls share one index checkpoint (between two blocks: the Market and its timelines
 * are reused); "cold" is the first call after a new block was indexed (the Market is rebuilt).
 */
import { CURVE_HISTORY_DAYS, EmbeddedCurveVenue } from '../../world/curve/embedded.js';
import { demoAccount } from '../../chain/accounts.js';
import { ALL_SKILLS } from '../../skills/catalog/index.js';
import type { Skill } from '../../skills/core/registry.js';
import type { SkillContext } from '../../skills/core/context.js';
import { indexedBenchWorld } from './world.js';

/** A body each operation accepts on base (or its only chain); defaults fill the rest. */
const SAMPLE_BODIES: Record<string, Record<string, unknown>> = {
  tokenAddress: { tokenAddress: 'ETH', chain: 'base' },
  walletAddress: { walletAddress: demoAccount(1).address, chain: 'base' },
  chains: { chains: ['base'] },
};

function sampleBody(shape: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of Object.keys(shape)) Object.assign(body, SAMPLE_BODIES[field] ?? {});
  return body;
}

/** Warm calls stop early when an operation has used this much time (its count is reported). */
const BUDGET_MS = Number(process.env.BENCH_OP_BUDGET_MS ?? 20_000);

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

export async function benchOperations(calls = Number(process.env.BENCH_CALLS ?? 1_000)) {
  const { devnet, chains, chain, store, indexer } = await indexedBenchWorld('ops');
  try {
    const curve = new EmbeddedCurveVenue({ seed: 'bench', genesisTime: Math.floor(Date.now() / 1000) - CURVE_HISTORY_DAYS * 86_400 });
    const ctx: SkillContext = { chains, store, curve };
    const only = process.env.BENCH_OPS; // e.g. `curve`: only operations whose path contains it
    const results: { operation: string; calls?: number; p50: number; p99: number; cold: number; failed?: string }[] = [];
    for (const skill of (ALL_SKILLS as readonly Skill<any>[]).filter((s) => s.httpPath && (!only || s.httpPath.includes(only)))) {
      const parsed = skill.input.safeParse(sampleBody(skill.input.shape));
      if (!parsed.success) {
        results.push({ operation: skill.httpPath!, p50: NaN, p99: NaN, cold: NaN, failed: 'no sample body' });
        continue;
      }
      try {
        // Cold: a new block is indexed before each of a few calls.
        const cold: number[] = [];
        for (let i = 0; i < 5; i++) {
          await chain.client.request({ method: 'evm_mine' as never, params: [] as never });
          await indexer.sync();
          const t = performance.now();
          await skill.handler(parsed.data, ctx);
          cold.push(performance.now() - t);
        }
        const warm: number[] = [];
        const deadline = performance.now() + BUDGET_MS;
        for (let i = 0; i < calls && performance.now() < deadline; i++) {
          const t = performance.now();
          await skill.handler(parsed.data, ctx);
          warm.push(performance.now() - t);
        }
        warm.sort((a, b) => a - b);
        cold.sort((a, b) => a - b);
        results.push({ operation: skill.httpPath!, calls: warm.length, p50: quantile(warm, 0.5), p99: quantile(warm, 0.99), cold: quantile(cold, 0.5) });
      } catch (err) {
        results.push({ operation: skill.httpPath!, p50: NaN, p99: NaN, cold: NaN, failed: (err as Error).message.slice(0, 80) });
      }
    }
    return { calls, results };
  } finally {
    await devnet.stop();
  }
}

export function printOperations({ calls, results }: Awaited<ReturnType<typeof benchOperations>>) {
  console.log(`\nOperations (handler after payment, base, 14-day world; up to ${calls} warm calls each, at most ${BUDGET_MS / 1000} s)`);
  console.log(`  ${'operation'.padEnd(36)} ${'calls'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'cold ms'.padStart(8)}`);
  for (const r of results) {
    if (r.failed) console.log(`  ${r.operation.padEnd(36)} not measured: ${r.failed}`);
    else console.log(`  ${r.operation.padEnd(36)} ${String(r.calls).padStart(6)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${r.cold.toFixed(0).padStart(8)}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) printOperations(await benchOperations());
