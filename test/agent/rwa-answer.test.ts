/**
 * The report's written answer to a tokenized-stock question: rwa-intel's own summary first (the
 * verdict), then the rows of the board that was read, found where the board keeps them
 * (`portfolio.holdings`, `traders.best`), never the empty list of chains it could not read.
 * The results are shaped by the skill's own output schema.
 */
import { describe, expect, it } from 'vitest';
import { writeAnswer, type ToolOutcome } from '../../graph/answer.js';
import { agentTools } from '../../graph/tools.js';
import { createRegistry } from '../../skills/catalog/index.js';

const registry = createRegistry();
const tools = agentTools(registry);
const skill = registry.byId('rwa-intel')!;
const address = (digit: number) => `0x${String(digit).repeat(40)}`;
const head = { source: 'embedded-devnet', asOf: { timestamp: '2026-12-07T12:00:00.000Z' }, sources: ['index:stockchain@1200', 'feeds:stockchain@1200'], methodology: 'board/v1', available: true, session: 'open', tokensRead: 14, unavailableChains: [] };
const wallet = (digit: number, pnlUsd: number) => ({ wallet: address(digit), trades: 5, boughtUsd: 9_000, soldUsd: 7_000, realizedUsd: pnlUsd, unrealizedUsd: 0, pnlUsd, returnPct: (pnlUsd / 9_000) * 100, winRate: 0.5 });
const holding = (underlying: string, company: string, weightPct: number, digit: number) => ({
  underlying, company, sector: 'tech', weightPct, chain: 'stockchain', token: address(digit), symbol: `b${underlying}`, issuer: 'Backed', premiumPct: 0.2, liquidityUsd: 180_000, volatilityPct: 24.1, maxDrawdownPct: 8.2,
});
const wrapper = (symbol: string, chain: string, premiumPct: number) => ({
  chain, token: address(1), symbol, issuer: 'Backed', venue: 'uniswap-v2', pool: address(2), priceUsd: 230 * (1 + premiumPct / 100), multiplier: 1, fairUsd: 230, premiumPct, multiplierLag: null, liquidityUsd: 182_300, volume24hUsd: 12_000, paused: false,
});

const RESULTS = {
  portfolio: {
    ...head, board: 'portfolio',
    portfolio: {
      intent: { sectors: ['tech'], tickers: [], stance: 'cautious', broad: false },
      holdings: [holding('AAPL', 'Apple', 35, 1), holding('MSFT', 'Microsoft', 35, 4), holding('NVDA', 'NVIDIA', 30, 6)],
      excluded: [], volatilityPct: 21.7, maxDrawdownPct: 9.4, weighting: 'inverse-volatility, capped at 35%', executes: false,
    },
  },
  'trader-record': { ...head, board: 'trader-record', traders: { withRecord: 37, best: [wallet(9, 5_000), wallet(8, 1_200)], worst: [wallet(5, -2_100)] } },
  'stock-pairs': {
    ...head, board: 'stock-pairs',
    unavailableChains: [{ chain: 'ethereum', reason: 'not indexed' }, { chain: 'arbitrum', reason: 'not indexed' }],
    pairs: [{ underlying: 'AAPL', underlyingUsd: 230, feedUpdatedAt: '2026-12-07T11:59:00.000Z', session: 'open', wrappers: [wrapper('bAAPL', 'stockchain', 2.41), wrapper('xAAPL', 'base', -0.3)], spreadPct: 2.71 }],
  },
} as const;

/** The answer written for one board's result, and that board's own summary (the verdict it must lead with). */
const answer = (board: keyof typeof RESULTS, question: string) => {
  const result = RESULTS[board] as unknown as Record<string, unknown>;
  const parsed = skill.output!.safeParse(result);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  const outcome: ToolOutcome = { skill: skill.id, tool: 'rwa_intel', args: { board }, ok: true, result };
  return { prose: writeAnswer([outcome], tools, question), verdict: skill.summarize!(result) };
};

describe('the written answer to a tokenized-stock question', () => {
  it('leads with the portfolio proposal and lists its holdings, not the empty list of chains it could not read', () => {
    const { prose, verdict } = answer('portfolio', 'Build me a tech stock-token portfolio with low drawdown');
    expect(prose.split('\n')[0]).toBe(verdict);
    expect(verdict).toMatch(/AAPL 35%.*MSFT 35%.*NVDA 30%/);
    expect(prose).toMatch(/portfolio\.holdings: 3 rows; first 3:\n- underlying AAPL, company Apple/);
    expect(prose).not.toMatch(/unavailableChains/);
  });

  it('leads with the best and worst traders and lists the best of them', () => {
    const { prose, verdict } = answer('trader-record', 'Who are the best traders of tokenized stocks?');
    expect(prose.split('\n')[0]).toBe(verdict);
    expect(verdict).toContain(address(9));
    expect(prose).toMatch(new RegExp(`traders\\.best: 2 rows; first 2:\\n- wallet ${address(9)}`));
  });

  it('lists the pairs, not the chains it could not read, however many those are', () => {
    const { prose, verdict } = answer('stock-pairs', 'Which tokenized stocks trade at a premium right now?');
    expect(prose.split('\n')[0]).toBe(verdict);
    expect(verdict).toMatch(/bAAPL on stockchain \+2\.41%/);
    expect(prose).toMatch(/pairs: 1 row; first 1:\n- underlying AAPL/);
  });
});
