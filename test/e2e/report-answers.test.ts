/**
 * The paid report on the shared world answers what was asked and only what fits:
 * an opportunities question names the ideas the investment report returned with their risks; a
 * trade question gives entry, stop and target equal to the technicals' figures (or says why there
 * is none); a question about a capability Sibyl lacks, or about tokenized stocks where the stock
 * chain is not read, is refused before any 402, naming it. The
 * prose is read back and held to the results the answer carries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, postJson } from '../helpers/sibyl.js';
import { startSharedWorldSibyl, type WorldSibyl } from '../helpers/world.js';

const REPORT = '/x402/svc/report';
let w: WorldSibyl;

beforeAll(async () => {
  w = await startSharedWorldSibyl();
}, 180_000);
afterAll(() => w?.close());

async function ask(prompt: string) {
  const res = await w.post(REPORT, { prompt });
  const body = await json(res);
  expect(res.status, JSON.stringify(body).slice(0, 400)).toBe(200);
  return body as { analysis: string; toolsUsed: { skill: string }[]; results: { skill: string; result: any }[] };
}

/** The ideas the prose names, read back: "1. SYMBOL (0x..)...; risks: a; b." (an idea without a symbol by its address alone). */
function ideasIn(prose: string): { symbol: string | null; token: string; risks: string }[] {
  return [...prose.matchAll(/^\d+\. (?:(\S+) \()?(0x[0-9a-fA-F]{40})\)?[^\n]*; risks: ([^\n]*)\.$/gm)].map((m) => ({ symbol: m[1] ?? null, token: m[2]!, risks: m[3]! }));
}
const figure = (prose: string, word: string) => {
  const m = new RegExp(`\\b${word} \\$([0-9.]+)`).exec(prose);
  return m ? Number(m[1]) : null;
};

describe('the report answers what was asked', () => {
  it('"the three best opportunities on base and their risks": the investment report\'s ideas, in its order, each with its own risks', async () => {
    const answer = await ask('What are the three best opportunities on base and their risks?');
    expect(answer.toolsUsed[0]!.skill).toBe('investment-report');
    const ideas = answer.results.find((r) => r.skill === 'investment-report')!.result.ideas as { token: string; symbol: string | null; risks: string[] }[];
    const named = ideasIn(answer.analysis);
    expect(named).toHaveLength(Math.min(3, ideas.length));
    named.forEach((idea, i) => expect(idea).toEqual({ symbol: ideas[i]!.symbol, token: ideas[i]!.token, risks: ideas[i]!.risks.length ? ideas[i]!.risks.join('; ') : 'none the screen found' }));
    // The answer leads with them, not with what the screen left out.
    expect(answer.analysis.split('\n')[0]).toMatch(/^The \d+ best ideas? on base/);
  });

  it('"should I buy BRETT: entry, stop, target?": a token-level answer whose figures are the technicals\' own', async () => {
    const answer = await ask('Should I buy BRETT — entry, stop, target?');
    expect(answer.toolsUsed.map((t) => t.skill)).toContain('technical-analysis');
    expect(answer.toolsUsed.map((t) => t.skill)).not.toContain('trade-signals');
    const ta = answer.results.find((r) => r.skill === 'technical-analysis')!.result;
    expect(ta.token.symbol).toBe('BRETT');
    expect(figure(answer.analysis, 'entry')).toBe(Number(ta.lastClose.toPrecision(8)));
    if (ta.support.length) expect(figure(answer.analysis, 'stop')).toBe(ta.support[0]);
    else expect(answer.analysis).toMatch(/no stop from the technicals: no swing low below the last close/);
    if (ta.resistance.length) expect(figure(answer.analysis, 'target')).toBe(ta.resistance[0]);
    else expect(answer.analysis).toMatch(/no target from the technicals: no swing high above the last close/);
    // Whether it can be sold is said before the plan (the security scan runs with it).
    expect(answer.toolsUsed.map((t) => t.skill)).toContain('security-scan');
    expect(answer.analysis.indexOf('Trade plan for BRETT')).toBeGreaterThan(0);
  });

  it('a question about a capability Sibyl lacks is refused before any 402, naming what is missing', async () => {
    for (const [prompt, domain] of [
      // Perps are read on Hyperliquid only.
      ['Which traders on dYdX run the most leverage?', 'perp-venues'],
      ['Run a walk-forward test with a deflated Sharpe ratio on my strategy', 'strategies'],
    ] as const) {
      // No payment header: a question that fits would be answered 402.
      const res = await postJson(`${w.sibyl.url}${REPORT}`, { prompt });
      const body = await json(res);
      expect(res.status, prompt).toBe(422);
      expect(body.error).toMatchObject({ code: 'no_skill_fits', reason: 'domain_disabled', missing: { domain, needs: expect.any(String) } });
      expect(body.error.message).toMatch(/nothing was run and nothing was charged/);
    }
    // A tokenized-stock question is rwa-intel's, which reads the stock chain: this world has Base
    // only, so the skill is named and refused before any 402, not answered by another skill.
    const stocks = await postJson(`${w.sibyl.url}${REPORT}`, { prompt: 'Which tokenized stocks trade at a premium right now?' });
    const refused = await json(stocks);
    expect(stocks.status).toBe(422);
    expect(refused.error).toMatchObject({ code: 'no_skill_fits', missing: { skill: 'rwa-intel', needs: expect.stringMatching(/stockchain/) } });
    expect(refused.error.message).toMatch(/Tokenized-equity intelligence.*nothing was run and nothing was charged/s);
    // A wallet's portfolio is the holdings skill's question: it asks for payment (402), not a refusal.
    const portfolio = await postJson(`${w.sibyl.url}${REPORT}`, { prompt: `show the portfolio of ${'0x' + '5e6f7a8b9c0d1e2f3a4b'.repeat(2)} on base` });
    expect(portfolio.status).toBe(402);
  });
});
