/**
 * The report answers what was asked: for an opportunities question the prose names the
 * ideas the tool returned with their risks (not the count of tokens the screen left out); for a
 * trade question it gives entry, stop and target from the technicals, or says why it cannot. The
 * prose is held to the tool results it rests on, by reading the prose back; offline writer and a
 * language model's answer (the written-answer middleware) alike.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { fakeModel } from 'langchain';
import { writeAnswer, type ToolOutcome } from '../../graph/answer.js';
import { createReportAgent, startTurn } from '../../graph/report-agent.js';
import { StoreCheckpointSaver } from '../../graph/checkpointer.js';
import { agentTools } from '../../graph/tools.js';
import { investmentReportSkill } from '../../skills/investment/investment-report.js';
import { technicalAnalysisSkill } from '../../skills/candles/candle-analysis.js';
import { defineSkill, Registry } from '../../skills/core/registry.js';
import type { SkillContext } from '../../skills/core/context.js';
import { MemoryStore } from '../../store/memory.js';

const T = (n: number) => `0x${String(n).repeat(40).slice(0, 40)}`;
/** An investment report as the skill answers it: fewer ideas than tokens the screen left out (the case). */
const report = {
  source: 'embedded', chains: ['base'], timeperiod: '24h', limit: 50, asOf: { timestamp: '2026-11-29T00:00:00.000Z' }, methodology: 'invest/v1', disclaimer: 'Research, not advice.',
  ideas: [
    { chain: 'base', token: T(1), symbol: 'AERO', score: 0.91, thesis: ['up 12% over 24h'], screened: true, risks: [] },
    { chain: 'base', token: T(2), symbol: 'BRETT', score: 0.84, thesis: ['smart money net buying $40,000'], screened: true, risks: ['holder concentration: top 10 hold 71%'] },
    { chain: 'base', token: T(3), symbol: 'DEGEN', score: 0.77, thesis: ['turnover 0.8'], screened: false, risks: ['not screened: no sell simulation', 'thin liquidity $12,000'] },
    { chain: 'base', token: T(4), symbol: 'TOSHI', score: 0.6, thesis: [], screened: true, risks: ['few trades: 9'] },
  ],
  excludedByScreen: [5, 6, 7, 8, 9, 1, 2].map((n, i) => ({ chain: 'base', token: T(n).replace(/^0x./, `0x${i}`), symbol: i === 0 ? 'PT-USDe' : `RUG${i}`, liquidityUsd: 1_000, changePct: 3, screened: true, flagged: true, risks: ['LP unlocked, one provider'] })),
  perChain: [],
};
const technicals = {
  source: 'embedded', chain: 'base', chainId: 8453, asOf: { block: '100', timestamp: '2026-11-29T00:00:00.000Z' }, methodology: 'technical/v1',
  token: { address: T(2), symbol: 'BRETT', name: 'Brett' }, timeframe: '1h', candles: 200, lastClose: 0.073412345,
  rsi14: { value: 58.2, state: 'neutral' }, macd: { macd: 0.0001, signal: 0.00008, histogram: 0.00002, bias: 'bullish' },
  sma20: 0.072, sma50: 0.07, ema20: 0.0721, bollinger: { upper: 0.076, middle: 0.072, lower: 0.068, percentB: 0.6 }, atr14: 0.0011, trend: 'up',
  support: [0.071234567, 0.068], resistance: [0.078901234, 0.081],
};
const outcome = (skill: string, tool: string, result: Record<string, unknown>): ToolOutcome => ({ skill, tool, args: {}, ok: true, result });

/** The ideas the prose names, read back: "1. SYMBOL (0x..)...; risks: a; b." */
function ideasIn(prose: string): { symbol: string; token: string; risks: string }[] {
  return [...prose.matchAll(/^\d+\. (\S+) \((0x[0-9a-f]{40})\)[^\n]*; risks: ([^\n]*)\.$/gm)].map((m) => ({ symbol: m[1]!, token: m[2]!, risks: m[3]! }));
}
/** A figure the prose gives after a word ("entry $0.0734"), as a number. */
const figure = (prose: string, word: string) => {
  const m = new RegExp(`\\b${word} \\$([0-9.]+)`).exec(prose);
  return m ? Number(m[1]) : null;
};

describe('answers shaped by what was asked', () => {
  it('uses the skills\' own field names', () => {
    const ideaShape = (investmentReportSkill.output.shape.ideas as z.ZodArray<z.ZodObject>).element.shape;
    for (const key of Object.keys(report.ideas[0]!)) expect(ideaShape).toHaveProperty(key);
    for (const key of Object.keys(technicals)) expect(technicalAnalysisSkill.output.shape).toHaveProperty(key);
  });

  it('an opportunities question names the ideas the tool returned, as many as asked, each with its own risks', () => {
    const prose = writeAnswer([outcome('investment-report', 'investment_report', report)], [], 'What are the three best opportunities on base and their risks?');
    const named = ideasIn(prose);
    expect(named).toHaveLength(3);
    named.forEach((idea, i) => {
      // Every idea named is the tool's, in its order, with the tool's risks.
      const tool = report.ideas[i]!;
      expect(idea).toEqual({ symbol: tool.symbol, token: tool.token, risks: tool.risks.length ? tool.risks.join('; ') : 'none the screen found' });
    });
    // What the screen left out is said, after the ideas, and is not what the answer is about.
    expect(prose.indexOf('7 tokens failing the screen were left out')).toBeGreaterThan(prose.indexOf('3. DEGEN'));
    expect(prose.split('\n')[0]).toMatch(/^The 3 best ideas on base over 24h/);
    expect(prose).not.toMatch(/^Investment report[^\n]*excludedByScreen/);
    // "top 2" asks for two; fewer qualifying than asked is said.
    expect(ideasIn(writeAnswer([outcome('investment-report', 'investment_report', report)], [], 'top 2 opportunities on base?'))).toHaveLength(2);
    expect(writeAnswer([outcome('investment-report', 'investment_report', { ...report, ideas: report.ideas.slice(0, 1) })], [], 'five best ideas on base')).toMatch(/The 1 best idea on base over 24h \(only 1 qualified\)/);
  });

  it('a trade question gets entry, stop and target equal to the technicals\' close, nearest support and nearest resistance', () => {
    const prose = writeAnswer([outcome('technical-analysis', 'technical_analysis', technicals)], [], 'Should I buy BRETT — entry, stop, target?');
    expect(figure(prose, 'entry')).toBe(Number(technicals.lastClose.toPrecision(8)));
    expect(figure(prose, 'stop')).toBe(technicals.support[0]);
    expect(figure(prose, 'target')).toBe(technicals.resistance[0]);
    expect(prose).toMatch(/Trend up; RSI 14 58\.2 \(neutral\); MACD bullish/);
    // Without a level on a side, it says why it has none instead of inventing one.
    const noLevels = writeAnswer([outcome('technical-analysis', 'technical_analysis', { ...technicals, support: [], resistance: [] })], [], 'entry, stop and target for BRETT?');
    expect(figure(noLevels, 'entry')).toBe(Number(technicals.lastClose.toPrecision(8)));
    expect(noLevels).toMatch(/no stop from the technicals: no swing low below the last close in the 200 candles read/);
    expect(noLevels).toMatch(/no target from the technicals: no swing high above the last close/);
    expect(figure(noLevels, 'stop')).toBeNull();
  });

  it('a security finding still comes first, before the trade plan', () => {
    const scan = outcome('security-scan', 'rug_pull_scan', { risk: 'high', honeypot: true });
    const tools = agentTools(new Registry([defineSkill({ id: 'security-scan', toolName: 'rug_pull_scan', title: 'Token security scan', description: 'x', tags: ['security'], examples: [], surfaces: ['agent'], price: '0.01', output: z.looseObject({}), input: z.object({}), summarize: (r) => `Risk ${r.risk}, honeypot ${r.honeypot ? 'yes' : 'no'}.`, handler: async () => ({}) })]));
    const prose = writeAnswer([outcome('technical-analysis', 'technical_analysis', technicals), scan], tools, 'Should I buy BRETT — entry, stop, target?');
    expect(prose.startsWith('Risk high, honeypot yes.')).toBe(true);
    expect(prose.indexOf('Trade plan for BRETT')).toBeGreaterThan(0);
  });

  it('a language model\'s answer that leaves the figures out gets the trade plan added from the results; one that gives them is kept as written', async () => {
    const registry = new Registry([
      defineSkill({
        id: 'technical-analysis', toolName: 'technical_analysis', title: 'Technical analysis', description: 'Indicators of a token.', tags: ['ta'], examples: [], surfaces: ['agent'], price: '0.01',
        output: z.looseObject({}), input: z.object({ token: z.string() }), handler: async () => technicals,
      }),
    ]);
    const tools = agentTools(registry);
    const run = async (reply: string, roomId: string) => {
      const model = fakeModel().respondWithTools([{ name: 'technical_analysis', args: { token: 'BRETT' } }]).respond(new AIMessage(reply));
      const agent = createReportAgent({ model: { chat: model, label: 'llm:fake' }, registry, tools, known: tools, context: {} as SkillContext, scrub: (t) => t, maxToolRounds: 2, checkpointer: new StoreCheckpointSaver(new MemoryStore()) });
      const { input, config } = startTurn([new HumanMessage('Should I buy BRETT — entry, stop, target?')], roomId, new AbortController().signal, 2);
      const state = await agent.invoke(input, config);
      return String(state.messages.at(-1)!.content);
    };
    const vague = await run('BRETT looks strong; consider buying on dips.', 'l1');
    expect(vague.startsWith('BRETT looks strong; consider buying on dips.')).toBe(true);
    expect([figure(vague, 'entry'), figure(vague, 'stop'), figure(vague, 'target')]).toEqual([Number(technicals.lastClose.toPrecision(8)), technicals.support[0], technicals.resistance[0]]);
    const complete = 'BRETT: entry $0.073412345, stop $0.071234567, target $0.078901234.';
    expect(await run(complete, 'l2')).toBe(complete);
  });
});
