import { SANDWICH_METHODOLOGY, detectSandwiches } from './engine.js';
import { round } from '../data/market.js';
import { describeCoverage } from '../data/coverage.js';
import { indexProvenance } from '../data/provenance.js';
import { chainListInput } from '../core/params.js';
import { z } from 'zod';
import { address, periodAnswerShape } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { usd } from '../core/summary.js';
import { admitMarket } from '../core/admission.js';
import { loadMarket, periodCoverage, periodStartBlock } from '../data/load.js';

export const mevDetectionSkill = defineSkill({
  id: 'mev-detection',
  title: 'MEV detection',
  description: 'Sandwich attacks on a chain over a period: attacker, victims, pool, block, and the attacker profit net of gas.',
  tags: ['mev', 'sandwich', 'security'],
  examples: ['Were there sandwich attacks on base in the last hour?', 'Show MEV bots on ethereum this week'],
  input: chainListInput,
  price: '1.15',
  catalogPrice: '0.60',
  httpPath: '/x402/data/mevdetection',
  toolName: 'mev_detection',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  catalog: { rateLimitPerMinute: 20, timeTargetSeconds: 30 },
  output: z.object({
    ...periodAnswerShape,
    limit: z.number().int(),
    sandwichCount: z.number().int(),
    victimCount: z.number().int(),
    attackers: z.array(z.object({ attacker: address, sandwiches: z.number().int(), netProfitUsd: z.number() })).describe('Most profitable first.'),
    sandwiches: z.array(z.object({
      block: z.number().int().describe('The front leg\'s block.'),
      backBlock: z.number().int().describe('The back leg\'s block: the same, or the next for a next-block back-run.'),
      pool: address,
      attacker: address.describe('Sender of both legs.'),
      frontTx: z.string(),
      backTx: z.string(),
      victims: z.array(z.object({ address, tx: z.string() })),
      profitToken: address,
      grossProfit: z.number().describe('In profitToken units.'),
      gasUsd: z.number().nullable(),
      netProfitUsd: z.number().nullable().describe('Net of both legs\' gas.'),
    })).describe('Newest first.'),
  }),
  summarize: (r) => {
    const top = r.attackers[0] as { attacker: string; sandwiches: number; netProfitUsd: number } | undefined;
    return `${r.sandwichCount} sandwich${r.sandwichCount === 1 ? '' : 'es'} on ${r.chain} over ${r.timeperiod}, ${r.victimCount} victim${r.victimCount === 1 ? '' : 's'}` +
      `${top ? `; most profitable attacker ${top.attacker}: ${top.sandwiches} sandwiches, ${usd(top.netProfitUsd)} net` : ''}.`;
  },
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    const fromBlock = await periodStartBlock(market, checkpoint, input.timeperiod);
    const sandwiches = await detectSandwiches(chain, market, await market.reader.swaps(fromBlock, checkpoint.block));
    sandwiches.sort((a, b) => b.block - a.block);
    const attackers = new Map<string, { attacker: string; sandwiches: number; netProfitUsd: number }>();
    for (const s of sandwiches) {
      const a = attackers.get(s.attacker) ?? { attacker: s.attacker, sandwiches: 0, netProfitUsd: 0 };
      a.sandwiches++;
      a.netProfitUsd += s.netProfitUsd ?? 0;
      attackers.set(s.attacker, a);
    }
    return {
      ...indexProvenance(chain, checkpoint, SANDWICH_METHODOLOGY, fromBlock),
      timeperiod: input.timeperiod,
      coverage: describeCoverage(periodCoverage(market, checkpoint, input.timeperiod)),
      limit: input.limit,
      sandwichCount: sandwiches.length,
      victimCount: sandwiches.reduce((n, s) => n + s.victims.length, 0),
      attackers: [...attackers.values()].map((a) => ({ ...a, netProfitUsd: round(a.netProfitUsd, 2) })).sort((a, b) => b.netProfitUsd - a.netProfitUsd),
      sandwiches: sandwiches.slice(0, input.limit).map((s) => ({
        ...s,
        grossProfit: s.grossProfit,
        gasUsd: s.gasUsd === null ? null : round(s.gasUsd, 4),
        netProfitUsd: s.netProfitUsd === null ? null : round(s.netProfitUsd, 2),
      })),
    };
  },
});
