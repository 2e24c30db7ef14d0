/**
 * Skill fit: a question about a capability Sibyl lacks is refused before payment,
 * naming what is missing, however many words it shares with a working skill; a skill of another
 * domain never wins on shared words. Measured on test/fixtures/report-fit-heldout.jsonl, written
 * before the fit changed (test/fixtures/README.md). It is a development set now: its misses were
 * read and the words of the missing domains (skills/catalog/planned.ts, DISABLED_DOMAINS) were
 * written with them in view, beside test/fixtures/report-fit-dev.jsonl; the held-out set is
 * test/fixtures/report-fit-heldout-2.jsonl, measured apart. The plan is what `ReportAgent.screen`
 * refuses on, before any 402. Each set's ten prediction-market questions were refusals until those
 * skills came; they are now questions for the prediction skills, measured on their own (below), and
 * so are its tokenized-equity questions (seven, nine and nine), questions for rwa-intel now.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OfflinePlanner } from '../../graph/offline/planner.js';
import { agentTools, unavailableTools } from '../../graph/tools.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { isWorking } from '../../skills/core/registry.js';

interface Case { prompt: string; expectAnyOf: string[]; expectArgs?: Record<string, string>; expectRefusal?: boolean; domain?: string }

const registry = createRegistry();
const planner = new OfflinePlanner([...agentTools(registry), ...unavailableTools(registry)]);
const readCases = (file: string): Case[] => readFileSync(new URL(`../fixtures/${file}`, import.meta.url), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const cases = readCases('report-fit-heldout.jsonl');
/** The planned domains a fixture's domain stands for: the "strategies" take regime classification, whose models are `signals`. */
const plannedDomains = (domain: string) => (domain === 'strategies' ? ['strategies', 'signals'] : [domain]);
/** The prediction-market skills' first tag. */
const PREDICTION = 'prediction-markets';
/** The tokenized-equity skill: the one reading the stock chain. */
const STOCKS = registry.list().find((s) => s.needs?.includes('stocks'))!;
/** Skills about a subject of their own (the quantum key for a yield question, Bitcoin bridges for a stock question, a prediction market's yield for a stablecoin's, a stock token's owner for a contract's). */
const SUBJECT_FAMILIES = ['quantum', 'bitcoin', PREDICTION, STOCKS.tags[0]!];
/** A question the prediction-market skills answer. */
const aboutPrediction = (c: Case) => c.expectAnyOf.some((id) => registry.byId(id)?.tags[0] === PREDICTION);
/** A question the tokenized-equity skill answers. */
const aboutStocks = (c: Case) => c.expectAnyOf.includes(STOCKS.id);
/** The perp skills: the ones reading the perp venue. */
const PERPS = registry.list().filter((s) => s.needs?.includes('perps')).map((s) => s.id);
/** The perp skills, and the public records' and callers' (each reading its own feed). */
const FEEDS = registry.list().filter((s) => s.needs?.some((n) => n === 'records' || n === 'calls')).map((s) => s.id);
/** A question the perp skills, or the records' and callers', answer. */
const aboutPerps = (c: Case) => c.expectAnyOf.some((id) => PERPS.includes(id) || FEEDS.includes(id));

describe('skill fit on the first held-out prompts (now a development set)', () => {
  const missing = cases.filter((c) => c.expectRefusal);
  const plans = missing.map((c) => ({ c, plan: planner.plan(c.prompt) }));

  it('refuses questions about capabilities Sibyl lacks before payment, and a working skill answers few of them', () => {
    expect(missing).toHaveLength(36);
    const refused = plans.filter(({ plan }) => plan.kind === 'reply');
    const paid = plans.filter(({ plan }) => plan.kind === 'call' && plan.calls.some((k) => isWorking(k.tool.skill)));
    // Measured 36/36 refused and 0/36 answered by a paid skill once the perp, records and callers
    // tools came (their seventeen questions now route to them; a ninth perp one asks about dYdX,
    // which Sibyl does not read); 53/53 and 0/53 before, as before the tokenized-equity skill
    // (62/62 and 0/62 with its nine questions; 72/72 and 0/72 with the prediction questions too,
    // 62/72 and 10/72 before the domains' words, 24/72 and 33/72 before the fit changed):
    // docs/skills.md, "Report agent".
    expect(refused.length, paid.map(({ c }) => c.prompt).join('\n')).toBeGreaterThanOrEqual(36);
    expect(paid.map(({ c }) => c.prompt)).toEqual([]);
    // No call is ever planned to a capability that is not here: it is refused instead.
    expect(plans.filter(({ plan }) => plan.kind === 'call' && plan.calls.some((k) => !isWorking(k.tool.skill)))).toEqual([]);
  });

  it('names the missing capability and its domain in most refusals', () => {
    const named = plans.filter(({ c, plan }) => plan.kind === 'reply' && plan.reason === 'domain_disabled' && plannedDomains(c.domain!).includes(plan.missing?.domain ?? ''));
    // Measured 32/36 once the perp, records and callers tools came (49/53 before, their questions each named), as before the tokenized-equity skill (58/62 with its nine questions, each named;
    // 68/72 with the prediction questions too, 47/72 before the domains' words, 0 before the fit
    // changed); the other refusals ask for a missing argument or say off-topic, uncharged all the same.
    expect(named.length).toBeGreaterThanOrEqual(32);
    for (const { plan } of named) {
      expect(plan.kind === 'reply' && plan.text).toMatch(/needs .*\(domain_disabled\): nothing was run and nothing was charged/);
    }
  });

  it('routes questions that share words with another domain\'s skill to their own domain', () => {
    const asked = cases.filter((c) => !c.expectRefusal && !aboutPrediction(c) && !aboutStocks(c) && !aboutPerps(c));
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
  const second = readCases('report-fit-heldout-2.jsonl');
  const missing = second.filter((c) => c.expectRefusal);
  const plans = missing.map((c) => ({ c, plan: planner.plan(c.prompt) }));

  it('refuses most questions about missing capabilities before payment and charges a working skill for few', () => {
    expect(missing).toHaveLength(34);
    // Measured 49/52 refused, 3/52 answered by a working skill, as before the tokenized-equity skill
    // (56/61 and 5/61 with its nine questions, two of which a working skill answered; 65/71 and 6/71
    // with the prediction questions too; 55/71 and 16/71 before the domains' words).
    // 31/34 and 3/34 once the perp, records and callers tools came (their eighteen questions route to them).
    expect(plans.filter(({ plan }) => plan.kind === 'reply').length).toBeGreaterThanOrEqual(31);
    expect(plans.filter(({ plan }) => plan.kind === 'call' && plan.calls.some((k) => isWorking(k.tool.skill))).length).toBeLessThanOrEqual(3);
    expect(plans.filter(({ plan }) => plan.kind === 'call' && plan.calls.some((k) => !isWorking(k.tool.skill)))).toEqual([]);
  });

  it('routes the questions for working skills as before', () => {
    const asked = second.filter((c) => !c.expectRefusal && !aboutPrediction(c) && !aboutStocks(c) && !aboutPerps(c));
    const right = asked.filter((c) => {
      const plan = planner.plan(c.prompt);
      return plan.kind === 'call' && c.expectAnyOf.includes(plan.calls[0]!.tool.skill.id);
    });
    // Measured 17/18 before and after.
    expect(right.length).toBeGreaterThanOrEqual(17);
  });
});

describe('prediction-market questions', () => {
  // Each fit set's ten prediction-market questions, refused before payment until those skills came.
  const asked = ['report-fit-dev.jsonl', 'report-fit-heldout.jsonl', 'report-fit-heldout-2.jsonl'].flatMap(readCases).filter(aboutPrediction);
  const plans = asked.map((c) => ({ c, plan: planner.plan(c.prompt) }));

  it('plans a call to a prediction skill that answers them, and refuses none as a missing capability', () => {
    expect(asked).toHaveLength(30);
    const right = plans.filter(({ c, plan }) => plan.kind === 'call' && c.expectAnyOf.includes(plan.calls[0]!.tool.skill.id));
    // Measured 29/30: 10/10 on the dev set and on the first held-out set, 9/10 on the second (17/30
    // before the prediction skills' tags and examples were written for them: 7, 7 and 3; the second
    // set's questions were read, and its misses seen, while they were). The miss, "who holds the
    // largest positions on the presidential market", names no word of the prediction skills.
    expect(right.length, plans.filter((p) => !right.includes(p)).map(({ c }) => c.prompt).join('\n')).toBeGreaterThanOrEqual(29);
    expect(plans.filter(({ plan }) => plan.kind === 'reply' && plan.reason === 'domain_disabled').map(({ c }) => c.prompt)).toEqual([]);
  });

  it.each([
    ['Which prediction markets look like insiders are trading?', ['insider-scan', 'prediction-whales']],
    ['Where can I earn yield on near-certain outcomes?', ['prediction-yields']],
    ['Find near-certain prediction-market outcomes I can hold as yield', ['prediction-yields']],
    ['which longshot bets are overpriced', ['longshot-fader']],
    ['Which event contracts settle before Friday?', ['prediction-catalysts']],
    ['Is the rate-cut market priced differently on Kalshi and Polymarket?', ['cross-platform-arbitrage']],
    ['What would $5,000 of yes cost on the rate-cut market?', ['spread-analysis']],
    ['What are the biggest Polymarket whales betting on?', ['prediction-whales']],
  ])('routes "%s" to %j', (prompt, skills) => {
    const plan = planner.plan(prompt);
    expect(plan.kind === 'call' && plan.calls[0]!.tool.skill.id).toBeOneOf(skills);
  });

  // A stablecoin's yield is the DeFi yield skills' question, whatever words a prediction market's yield shares with it.
  it.each(['best USDC yield on base', 'Where can I earn yield on USDC on base?', 'Generate yield ideas for my USDC on base'])('answers "%s" with a DeFi yield skill', (prompt) => {
    const plan = planner.plan(prompt);
    expect(plan.kind === 'call' && plan.calls[0]!.tool.skill.id).toBeOneOf(['yield-discover', 'defi-yield-analysis', 'vaults-list', 'fixed-yield-analysis']);
  });
});

describe('perp questions', () => {
  // Each fit set's perp questions, refused before payment (domain `perps`) until the perp skills came.
  const asked = ['report-fit-dev.jsonl', 'report-fit-heldout.jsonl', 'report-fit-heldout-2.jsonl'].flatMap(readCases).filter((c) => c.expectAnyOf.some((id) => PERPS.includes(id)));
  const plans = asked.map((c) => ({ c, plan: planner.plan(c.prompt) }));

  it('plans a call to a perp skill for each, and refuses none as a missing capability', () => {
    expect(asked).toHaveLength(24);
    const right = plans.filter(({ c, plan }) => plan.kind === 'call' && c.expectAnyOf.includes(plan.calls[0]!.tool.skill.id));
    // Measured 24/24 (22/24 with the skills' first tags: "How much funding have the whales paid on
    // their ETH longs this week?" went to prediction-whales; the sets were read while the tags were
    // written, so none is held out for them).
    expect(right.length, plans.filter((p) => !right.includes(p)).map(({ c, plan }) => `${c.prompt} -> ${plan.kind === 'call' ? plan.calls[0]!.tool.skill.id : plan.reason}`).join('\n')).toBeGreaterThanOrEqual(23);
  });

  it.each([
    ['What are the perp whales doing on ETH?', 'perp-whales', {}],
    ['Where is funding most extreme across perpetuals?', 'perp-whales', {}],
    ['Which perp accounts are the smart money right now?', 'perp-smart-money', {}],
    ['What are the biggest perp traders long on ETH right now?', 'perp-smart-money', { coin: 'ETH' }],
    ['Which leveraged traders with a real track record opened shorts on ETH today?', 'perp-smart-money', { coin: 'ETH', timeperiod: '24h' }],
  ])('routes "%s" to %s with %j', (prompt, skill, args) => {
    const plan = planner.plan(prompt);
    expect(plan.kind === 'call' && plan.calls[0]!.tool.skill.id).toBe(skill);
    expect(plan.kind === 'call' && plan.calls[0]!.args).toMatchObject(args);
  });

  // Perps are read on Hyperliquid only: another venue's question is refused, never answered with Hyperliquid's data.
  it.each(['Track the positions of the whales on dYdX.', 'Which traders on GMX run the most leverage?'])('refuses "%s" before payment', (prompt) => {
    expect(planner.plan(prompt)).toMatchObject({ kind: 'reply', reason: 'domain_disabled', missing: { domain: 'perp-venues' } });
  });
});

describe('public-record and market-caller questions', () => {
  // Each fit set's questions about congressional trades, contract awards and graded callers, refused before payment (domains `government`, `analyst-calls`) until those tools came.
  const asked = ['report-fit-dev.jsonl', 'report-fit-heldout.jsonl', 'report-fit-heldout-2.jsonl'].flatMap(readCases).filter((c) => c.expectAnyOf.some((id) => FEEDS.includes(id)));
  const plans = asked.map((c) => ({ c, plan: planner.plan(c.prompt) }));

  it('plans a call to the tool that answers each, refuses none as a missing capability, and charges no other skill for most', () => {
    expect(asked).toHaveLength(25);
    const right = plans.filter(({ c, plan }) => plan.kind === 'call' && c.expectAnyOf.includes(plan.calls[0]!.tool.skill.id));
    // Measured 22/25; the misses: two weak fits (refused, uncharged: "government spending flowing to
    // listed firms according to public filings", "a member of the House sell Nvidia": Nvidia is not
    // written as its ticker) and "stock purchases by US senators" asked of the lookup with ticker US.
    // The sets were read while the tools' tags were written, so none is held out for them.
    expect(right.length, plans.filter((p) => !right.includes(p)).map(({ c, plan }) => `${c.prompt} -> ${plan.kind === 'call' ? plan.calls[0]!.tool.skill.id : plan.reason}`).join('\n')).toBeGreaterThanOrEqual(22);
    expect(plans.filter(({ plan }) => plan.kind === 'reply' && plan.reason === 'domain_disabled').map(({ c }) => c.prompt)).toEqual([]);
  });

  it('asks the lookup for the ticker the question names', () => {
    const plan = planner.plan('Which members of congress traded NVDA?');
    expect(plan.kind === 'call' && plan.calls[0]!.tool.skill.id).toBe('congress-trades-lookup');
    expect(plan.kind === 'call' && plan.calls[0]!.args).toMatchObject({ ticker: 'NVDA' });
  });
});

describe('tokenized-stock questions', () => {
  // Each fit set's tokenized-equity questions, refused before payment (domain `equities`) until rwa-intel came.
  const asked = ['report-fit-dev.jsonl', 'report-fit-heldout.jsonl', 'report-fit-heldout-2.jsonl'].map((file) => readCases(file).filter(aboutStocks));
  const TOKEN = '0x1234567890abcdef1234567890abcdef12345678';
  /** The board a plan reads: its call's, or early-buyers when it asks for the listing's token before payment. */
  const boardOf = (prompt: string) => {
    const plan = planner.plan(prompt);
    if (plan.kind === 'call') return plan.calls[0]!.tool.skill.id === STOCKS.id ? String(plan.calls[0]!.args.board ?? 'default') : `other: ${plan.calls[0]!.tool.skill.id}`;
    return plan.reason === 'missing_arguments' && plan.suggestions[0]?.skill === STOCKS.id && /`token`/.test(plan.text) ? 'early-buyers' : `reply: ${plan.reason}`;
  };

  it('plans rwa-intel for each, on the board each asks for, and neither refuses one as a missing capability nor charges another skill', () => {
    expect(asked.map((set) => set.length)).toEqual([7, 9, 9]);
    const boards = asked.map((set) => set.map((c) => ({ c, board: boardOf(c.prompt) })));
    const routed = boards.map((set) => set.filter(({ board }) => !/^(other|reply)/.test(board)));
    const right = boards.map((set) => set.filter(({ c, board }) => board === c.expectArgs?.board));
    // Measured 25/25 routed (7/7 dev, 9/9 first held-out, 9/9 second; 21/25 with the skill's own
    // words alone, 0/25 before it: refused as domain_disabled, but for two that working skills of
    // the second set answered) and 23/25 on the board expected (7, 9, 7; 10/25 with the skill's own
    // words alone): the second set's misses are "did the wrapper apply the stock split correctly"
    // (event-risk, for wrapper-trust) and "can I earn yield on tokenized S&P 500 shares on Robinhood
    // chain" (the default board, for event-risk's dividends). The sets' questions were read while
    // the boards' words (graph/offline/choices.ts) were written, so the second is not held out for them.
    expect(routed.map((set) => set.length), boards.flat().filter((b) => !routed.flat().includes(b)).map(({ c, board }) => `${c.prompt} -> ${board}`).join('\n')).toEqual([7, 9, 9]);
    expect(right.flat().length, boards.flat().filter((b) => !right.flat().includes(b)).map(({ c, board }) => `${c.prompt} -> ${board}`).join('\n')).toBeGreaterThanOrEqual(23);
  });

  it.each([
    ['Which tokenized stocks trade at a premium right now?', 'stock-pairs'],
    ['Are tokenized stocks trading at a discount to the underlying?', 'stock-pairs'],
    ['How does the tokenized Microsoft share compare with MSFT on the stock exchange?', 'stock-pairs'],
    ['What premiums do tokenized stocks have on pons?', 'pons-stock-pairs'],
    ['Is it safe to trust a tokenized-stock issuer?', 'wrapper-trust'],
    ['Are the reserves behind the xStocks wrappers real?', 'wrapper-trust'],
    ['Is there a fake MSFT token pretending to be the real one?', 'wrapper-trust'],
    ['Which stock tokens could be squeezed?', 'float-corner'],
    ['Who holds most of the float of the tokenized Tesla share?', 'float-corner'],
    ['Who are the best traders of tokenized stocks?', 'trader-record'],
    ['Which tokenized stocks have a split or dividend coming?', 'event-risk'],
    ['What do earnings announcements do to token prices?', 'event-risk'],
    ['Build me a tech stock-token portfolio with low drawdown', 'portfolio'],
    ['Allocate 10k across tokenized stocks for tech exposure', 'portfolio'],
  ])('plans "%s" on the %s board', (prompt, board) => {
    const plan = planner.plan(prompt);
    expect(plan.kind === 'call' && plan.calls[0]!.tool.skill.id).toBe(STOCKS.id);
    expect(plan.kind === 'call' && plan.calls[0]!.args.board).toBe(board);
  });

  it('gives the portfolio its objective in the question\'s own words, and a token only to the board that reads one', () => {
    const portfolio = planner.plan('Build me a tech stock-token portfolio with low drawdown');
    expect(portfolio.kind === 'call' && portfolio.calls[0]!.args).toEqual({ board: 'portfolio', intent: 'Build me a tech stock-token portfolio with low drawdown' });
    for (const prompt of [`Who were the first buyers of stock token ${TOKEN}?`, `Who bought the stock token ${TOKEN} first?`]) {
      const plan = planner.plan(prompt);
      expect(plan.kind === 'call' && plan.calls[0]!.args).toEqual({ board: 'early-buyers', token: TOKEN });
    }
    const trust = planner.plan(`Can I trust the issuer of stock token ${TOKEN}?`);
    expect(trust.kind === 'call' && trust.calls[0]!.args).toEqual({ board: 'wrapper-trust' });
  });

  it('asks for the listing\'s token before payment when the first buyers are asked for without one', () => {
    for (const prompt of ['Who were the early buyers of this stock token?', 'Who were the first buyers of the tokenized Apple equity?']) {
      const plan = planner.plan(prompt);
      expect(plan).toMatchObject({ kind: 'reply', reason: 'missing_arguments', suggestions: [{ skill: STOCKS.id }] });
      expect(plan.kind === 'reply' && plan.text).toMatch(/needs `token` .*required for early-buyers.*nothing was run and nothing was charged/);
    }
  });

  // Stock trades of members of Congress and the contracts that move listed companies are the public records', not a board's.
  it.each([
    ['Which stocks did members of Congress buy last month?', 'congress-trades-lookup'],
    ['What stocks are senators trading?', 'congress-trades-lookup'],
    ['Which tokenized stocks did lawmakers buy?', 'congress-trades-lookup'],
    ['Which government contracts moved defense stocks?', 'government-contracts'],
    ['Which companies won federal contract awards this week and how did their shares react?', 'government-contracts'],
  ])('routes "%s" to %s, a public record', (prompt, skill) => {
    const plan = planner.plan(prompt);
    expect(plan.kind === 'call' && plan.calls[0]!.tool.skill.id).toBe(skill);
  });

  // Crypto questions sharing the boards' words ("owner", "traders", "liquidity", "first") stay with their own skills.
  it.each([
    ['who owns most of 0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb on arbitrum'],
    ['Who are the best traders on base?'],
    ['Which pools have the deepest liquidity on base?'],
    ['Who bought DEGEN first on base?'],
    [`Can the owner pause contract ${TOKEN} on base?`],
    ['Build me a yield portfolio for my USDC on base'],
  ])('does not answer "%s" with rwa-intel', (prompt) => {
    const plan = planner.plan(prompt);
    expect(plan.kind === 'call' && plan.calls.map((k) => k.tool.skill.id)).not.toContain(STOCKS.id);
  });
});

describe('the questions the issue reports', () => {
  const WALLET = '0x5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f';
  it.each([
    ['Write a haiku about the merge', 'inference'],
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
    ['Which traders on dYdX run the most leverage?', 'perp-venues'],
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
