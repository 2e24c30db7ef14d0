/**
 * `npm run bench:report`: latency of the report agent with the offline planner, end to end
 * (planning, the tool's own work, the written answer and the room's checkpoints), over the
 * report development prompts with their addresses and hashes swapped for ones the bench world
 * holds, so every tool does real work. "cold" is each prompt's first run at a fresh index
 * checkpoint (Markets and timelines built), "warm" the runs after it at the same checkpoint.
 * BENCH_PRINT=1 prints each first answer; BENCH_VERBOSE=1 each refusal.
 */
import { readFileSync } from 'node:fs';
import { plannerModel } from '../../agent/model.js';
import { ReportAgent } from '../../graph/report.js';
import { StoreCheckpointSaver } from '../../graph/checkpointer.js';
import { AccuracyLedger } from '../../skills/forecast/ledger.js';
import { ForecastService } from '../../skills/forecast/service.js';
import { createRegistry } from '../../skills/catalog/index.js';
import type { SkillContext } from '../../skills/core/context.js';
import { CURVE_HISTORY_DAYS, EmbeddedCurveVenue } from '../../world/curve/embedded.js';
import { indexedBenchWorld } from './world.js';

const RUNS = Number(process.env.BENCH_REPORT_RUNS ?? 5);
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

const { devnet, chains, store } = await indexedBenchWorld('report');
const forecast = new ForecastService({ threads: 2, backends: {}, backendTimeoutMs: 10_000, signingKey: undefined, tokenAddress: '0x0000000000000000000000000000000000000000', jobs: false, precomputeIntervalMs: 1e9 });
try {
  const labels = JSON.parse(readFileSync(`/tmp/sibyl-bench-report-${process.pid}.json`, 'utf8')).chains[0];
  const token = labels.tokens.find((t: { kind: string; pair: string | null }) => t.kind === 'listing' && t.pair).token as string;
  const wallet = labels.wallets.smartMoney[0] as string;
  const swaps = await store.sortedRange(`idx:v2:8453:swaps`, -Infinity, Infinity, 1);
  const txHash = (JSON.parse(swaps[0]!.member) as { tx: string }).tx;
  const prompts = readFileSync(new URL('../../../shared/eval/report-prompts.dev.jsonl', import.meta.url), 'utf8')
    .trim().split('\n').map((l) => JSON.parse(l) as { prompt: string; expectArgs?: Record<string, string> })
    .map(({ prompt, expectArgs = {} }) => prompt
      .replace(/0x[0-9a-fA-F]{64}/g, txHash)
      .replace(/0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/g, 'walletAddress' in expectArgs ? wallet : token)
      // The bench world is one Base chain: questions about other chains are asked about Base.
      .replace(/\b(ethereum|arbitrum|bsc|polygon)\b/gi, 'base'));

  const registry = createRegistry();
  const curve = new EmbeddedCurveVenue({ seed: 'bench', genesisTime: Math.floor(Date.now() / 1000) - CURVE_HISTORY_DAYS * 86_400 });
  const context: SkillContext = { chains, store, curve, forecast: { service: forecast, ledger: new AccuracyLedger(store) } };
  const agent = new ReportAgent({ registry, model: plannerModel(undefined, registry), context, store, checkpointer: new StoreCheckpointSaver(store), maxToolRounds: 4, timeBudgetMs: 60_000, secrets: [] });

  /** Every prompt RUNS times in rooms of its own: the first run cold (a fresh checkpoint's caches), the rest warm. */
  async function measure(label: string, set: readonly string[]) {
    const cold: number[] = [];
    const warm: number[] = [];
    let answered = 0;
    for (const [i, prompt] of set.entries()) {
      for (let run = 0; run < RUNS; run++) {
        const t = performance.now();
        const ok = await agent.ask({ prompt, roomId: `bench-${label}-${i}-${run}` }).then((answer) => {
          if (run === 0 && process.env.BENCH_PRINT) console.log(`\n### ${prompt}\n${answer.analysis}`);
          return true;
        }, (err: Error) => {
          if (run === 0 && process.env.BENCH_VERBOSE) console.log(`  not answered: ${prompt}\n    ${err.message.slice(0, 300)}`);
          return false;
        });
        (run === 0 ? cold : warm).push(performance.now() - t);
        if (run === 0 && ok) answered++;
      }
    }
    const all = [...cold, ...warm].sort((x, y) => x - y);
    cold.sort((x, y) => x - y);
    warm.sort((x, y) => x - y);
    console.log(`Report agent, offline planner, ${label}: ${set.length} prompts x ${RUNS} runs (14-day bench world, embedded Solana venue, memory store, 2 forecast threads)`);
    console.log(`  answered with data (first run)  ${answered}/${set.length}`);
    console.log(`  all runs      p50 ${quantile(all, 0.5).toFixed(1).padStart(8)} ms   p90 ${quantile(all, 0.9).toFixed(1).padStart(8)} ms`);
    console.log(`  first run     p50 ${quantile(cold, 0.5).toFixed(1).padStart(8)} ms   p90 ${quantile(cold, 0.9).toFixed(1).padStart(8)} ms   max ${cold[cold.length - 1]!.toFixed(0)} ms`);
    console.log(`  repeat runs   p50 ${quantile(warm, 0.5).toFixed(1).padStart(8)} ms   p90 ${quantile(warm, 0.9).toFixed(1).padStart(8)} ms`);
  }

  await measure('dev prompts', prompts);
  // Dossiers (four or five skill calls in one round) and a two-round question about a result.
  await measure('dossiers and multi-part', [
    `What's going on with ${token} on base?`,
    `Is ${token} on base safe to buy?`,
    `Tell me about wallet ${wallet} on base`,
    'Top 3 gainers on base in the last 24 hours, then for the best one a honeypot check and its biggest holders',
  ]);
} finally {
  await forecast.close();
  await devnet.stop();
}
