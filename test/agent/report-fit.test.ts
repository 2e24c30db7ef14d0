/**
 * Skill fit: a question about a capability Sibyl lacks is refused before payment,
 * naming what is missing, however many words it shares with a working skill; a skill of another
 * domain never wins on shared words. Measured on test/fixtures/report-fit-heldout.jsonl, written
 * before the fit changed (test/fixtures/README.md). It is a development set now: its misses were
 * read and the words of the missing domains (skills/catalog/planned.ts, DISABLED_DOMAINS) were
 * written with them in view, beside test/fixtures/report-fit-dev.jsonl; the held-out set is
 * test/fixtures/report-fit-heldout-2.jsonl, measured apart. The plan is what `ReportAgent.screen`
 * refuses on, before any 402.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OfflinePlanner } from '../../graph/offline/planner.js';
import { agentTools, unavailableTools } from '../../graph/tools.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { isWorking } from '../../skills/core/registry.js';

interface Case { prompt: string; expectAnyOf: string[]; expectRefusal?: boolean; domain?: string }

const registry = createRegistry();
const planner = new OfflinePlanner([...agentTools(registry), ...unavailableTools(registry)]);
const cases: Case[] = readFileSync(new URL('../fixtures/report-fit-heldout.jsonl', import.meta.url), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
/** The planned domains a fixture's domain stands for: the "strategies" take regime classification, whose models are `signals`. */
const plannedDomains = (domain: string) => (domain === 'strategies' ? ['strategies', 'signals'] : [domain]);
/** Skills about a subject of their own (the quantum key for a yield question, Bitcoin bridges for a stock question). */
const SUBJECT_FAMILIES = ['quantum', 'bitcoin'];

describe('skill fit on the first held-out prompts (now a development set)', () => {
  const missing = cases.filter((c) => c.expectRefusal);
  const plans = missing.map((c) => ({ c, plan: planner.plan(c.prompt) }));

  it('refuses questions about capabilities Sibyl lacks before payment, and a working skill answers few of them', () => {
    expect(missing).toHaveLength(72);
    const refused = plans.filter(({ plan }) => plan.kind === 'reply');
    const paid = plans.filter(({ plan }) => plan.kind === 'call' && plan.calls.some((k) => isWorking(k.tool.skill)));
    // Measured 72/72 refused and 0/72 answered by a paid skill (62/72 and 10/72 before the domains'
    // words, 24/72 and 33/72 before the fit changed): docs/skills.md, "Report agent".
    expect(refused.length, paid.map(({ c }) => c.prompt).join('\n')).toBeGreaterThanOrEqual(72);
    expect(paid.map(({ c }) => c.prompt)).toEqual([]);
    // No call is ever planned to a capability that is not here: it is refused instead.
    expect(plans.filter(({ plan }) => plan.kind === 'call' && plan.calls.some((k) => !isWorking(k.tool.skill)))).toEqual([]);
  });

  it('names the missing capability and its domain in most refusals', () => {
    const named = plans.filter(({ c, plan }) => plan.kind === 'reply' && plan.reason === 'domain_disabled' && plannedDomains(c.domain!).includes(plan.missing?.domain ?? ''));
    // Measured 68/72 (47 before the domains' words, 0 before the fit changed); the other refusals
    // ask for a missing argument or say off-topic, uncharged all the same.
    expect(named.length).toBeGreaterThanOrEqual(68);
    for (const { plan } of named) {
      expect(plan.kind === 'reply' && plan.text).toMatch(/needs .*\(domain_disabled\): nothing was run and nothing was charged/);
    }
  });

  it('routes questions that share words with another domain\'s skill to their own domain', () => {
    const asked = cases.filter((c) => !c.expectRefusal);
    const firsts = asked.map((c) => {
      const plan = planner.plan(c.prompt);
      return { c, skill: plan.kind === 'call' ? plan.calls[0]!.tool.skill : undefined };
    });
    const right = firsts.filter(({ c, skill }) => skill && c.expectAnyOf.includes(skill.id));
    expect(right.length).toBeGreaterThanOrEqual(13);
    // None answered by a skill of another subject (a quantum, Bitcoin or missing capability) than the expected ones.
    const wrongDomain = firsts.filter(({ c, skill }) => skill && !c.expectAnyOf.includes(skill.id) && (!isWorking(skill) || (SUBJECT_FAMILIES.includes(skill.tags[0]!) && !c.expectAnyOf.some((id) => registry.byId(id)?.tags[0] === skill.tags[0]))));
    expect(wrongDomain.map(({ c, skill }) => `${c.prompt} -> ${skill!.id}`)).toEqual([]);
  });
});

describe('skill fit on the second held-out prompts', () => {
  // Written before the domains' words; measured once after them (test/fixtures/README.md says how
  // clean that measurement is). A floor here, never a set to tune on.
  const second: Case[] = readFileSync(new URL('../fixtures/report-fit-heldout-2.jsonl', import.meta.url), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  const missing = second.filter((c) => c.expectRefusal);
  const plans = missing.map((c) => ({ c, plan: planner.plan(c.prompt) }));

  it('refuses most questions about missing capabilities before payment and charges a working skill for few', () => {
    expect(missing).toHaveLength(71);
    // Measured 65/71 refused, 6/71 answered by a working skill (55/71 and 16/71 before).
    expect(plans.filter(({ plan }) => plan.kind === 'reply').length).toBeGreaterThanOrEqual(65);
    expect(plans.filter(({ plan }) => plan.kind === 'call' && plan.calls.some((k) => isWorking(k.tool.skill))).length).toBeLessThanOrEqual(6);
    expect(plans.filter(({ plan }) => plan.kind === 'call' && plan.calls.some((k) => !isWorking(k.tool.skill)))).toEqual([]);
  });

  it('routes the questions for working skills as before', () => {
    const asked = second.filter((c) => !c.expectRefusal);
    const right = asked.filter((c) => {
      const plan = planner.plan(c.prompt);
      return plan.kind === 'call' && c.expectAnyOf.includes(plan.calls[0]!.tool.skill.id);
    });
    // Measured 17/18 before and after.
    expect(right.length).toBeGreaterThanOrEqual(17);
  });
});

describe('the questions the issue reports', () => {
  const WALLET = '0x5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f';
  it.each([
    ['Find near-certain prediction-market outcomes I can hold as yield', 'prediction-markets'],
    ['Is it safe to trust a tokenized-stock issuer?', 'equities'],
    ['which longshot bets are overpriced', 'prediction-markets'],
    ['what are the biggest perp traders long on ETH', 'perps'],
  ])('refuses "%s" before payment, naming the %s capability it needs', (prompt, domain) => {
    const plan = planner.plan(prompt);
    expect(plan).toMatchObject({ kind: 'reply', reason: 'domain_disabled', missing: { domain, skill: expect.any(String), needs: expect.any(String) } });
    const skill = registry.byId(plan.kind === 'reply' ? plan.missing!.skill : '')!;
    expect(isWorking(skill)).toBe(false);
  });

  it('shows a wallet\'s portfolio with the holdings skill, not the quantum monitor', () => {
    const plan = planner.plan(`show the portfolio of ${WALLET}`);
    expect(plan.kind === 'call' && plan.calls[0]!.tool.skill.id).toBe('wallet-portfolio');
  });

  it('never answers a yield question with a key generator', () => {
    const plan = planner.plan('Generate yield ideas for my USDC on base');
    expect(plan.kind === 'call' && plan.calls[0]!.tool.skill.tags).not.toContain('quantum');
  });
});

describe('the words people use for a capability Sibyl lacks', () => {
  const WALLET = '0x4444444444444444444444444444444444444444';
  const VAULT = '0x1111111111111111111111111111111111111111';
  it.each([
    ['Which event contracts settle before Friday?', 'prediction-markets'],
    ['Which traders on dYdX run the most leverage?', 'perps'],
    ['What do earnings announcements do to token prices?', 'equities'],
    ['Which crypto pundits have the best calls this year?', 'analyst-calls'],
    ['Run a walk-forward test with a deflated Sharpe ratio on my strategy', 'strategies'],
    ['Fact-check the claims in this thread', 'content'],
    ['Write a haiku about the merge', 'inference'],
    ['Translate this paragraph into Spanish', 'inference'],
    ['Make a jingle for our DAO', 'media'],
    ['Render an animated explainer of our tokenomics', 'media'],
  ])('refuses "%s" before payment, naming the %s capability', (prompt, domain) => {
    expect(planner.plan(prompt)).toMatchObject({ kind: 'reply', reason: 'domain_disabled', missing: { domain } });
  });

  // The same words in a working skill's sense, or sharing only a stem with a domain's word ("earn", "earnings").
  it.each([
    ['Where can I earn yield on USDC on base?', 'yield-discover'],
    [`how much did wallet ${WALLET} earn trading on arbitrum this month`, 'wallet-pnl'],
    ['Which whales moved the most on base today?', 'whale-tracking'],
    ['Write me a summary of the biggest gainers on base today', 'top-gainers'],
    [`How many shares does vault ${VAULT} on base have?`, 'vaults-list'],
    ['Which Aave positions are close to their liquidation price on base?', 'liquidation-monitor'],
    ['Which sniper bots bought DEGEN in the first block on base?', 'token-sniping'],
    [`Can the owner pause contract ${VAULT} on base?`, 'contract-review'],
  ])('still routes "%s" to %s', (prompt, skill) => {
    const plan = planner.plan(prompt);
    expect(plan.kind === 'call' && plan.calls[0]!.tool.skill.id).toBe(skill);
  });
});
