import { round } from '../data/market.js';
import { describeCoverage } from '../data/coverage.js';
import { indexProvenance } from '../data/provenance.js';
import { SCREEN_RULES, SCREEN_VERSION, screenTokens } from '../data/screening.js';
import { MIN_CLOSED_TRADES, MIN_REALIZED_USD, MIN_WIN_RATE, SMART_MONEY_METHODOLOGY, isSmartMoney, walletRecords } from './engine.js';
import { chainListForTokenInput } from '../core/params.js';
import { resolveToken } from '../data/resolve.js';
import { z } from 'zod';
import { address, coverage, intString, provenanceShape, rowScreenShape, screenSummary, walletPeriodRow } from '../core/outputs.js';
import { PERIOD_NAMES } from '../data/periods.js';
import { defineSkill } from '../core/registry.js';
import { usd } from '../core/summary.js';
import { admitMarket, admitToken } from '../core/admission.js';
import { loadMarket, periodCoverage, periodStartBlock } from '../data/load.js';

const flow = z.object({ token: z.string(), symbol: z.string().nullable(), netUsd: z.number(), boughtUsd: z.number(), soldUsd: z.number(), wallets: z.number().int(), ...rowScreenShape });

export const smartMoneySkill = defineSkill({
  id: 'smart-money',
  title: 'Smart money',
  description: `Wallets with a proven record on a chain (at least ${MIN_CLOSED_TRADES} closed trades, a win rate of at least ${MIN_WIN_RATE * 100}% and $${MIN_REALIZED_USD} realized), ranked by realized profit, and what they accumulated or sold over the period; every token carries the screen's risks, \`flagged\` when it fails it (${SCREEN_RULES}).`,
  tags: ['smart-money', 'wallets', 'flows', 'accumulation', 'buying'],
  examples: ['What is smart money buying on base today?', 'Most profitable wallets on ethereum and what they are accumulating this week'],
  input: chainListForTokenInput,
  price: '1.00',
  catalogPrice: '0.50',
  httpPath: '/x402/data/smartmoney',
  toolName: 'smart_money',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  catalog: { rateLimitPerMinute: 30, timeTargetSeconds: 30 },
  output: z.object({
    ...provenanceShape,
    screen: screenSummary,
    timeperiod: z.enum(PERIOD_NAMES),
    coverage,
    limit: z.number().int(),
    tokenAddress: address.nullable().describe('The token the answer was narrowed to (smart wallets that traded it, its flows only), or null for all.'),
    recordBlockRange: z.object({ from: intString, to: intString }).describe('Records are judged over the whole index.'),
    criteria: z.object({ minClosedTrades: z.number().int(), minWinRate: z.number(), minRealizedUsd: z.number() }),
    walletsEvaluated: z.number().int(),
    smartWalletCount: z.number().int(),
    wallets: z.array(z.object({
      wallet: address, closedTrades: z.number().int(), wins: z.number().int(), winRate: z.number().describe('0-1.'), realizedUsd: z.number(),
      period: z.array(walletPeriodRow).describe('What it bought (+) or sold (-) in the period, net USD.'),
    })).describe('Most realized profit first.'),
    accumulating: z.array(flow).describe('Net bought by smart wallets in the period.'),
    distributing: z.array(flow).describe('Net sold.'),
  }),
  summarize: (r) => {
    const flows = (rows: { symbol: string | null; token: string; netUsd: number; wallets: number; flagged: boolean; risks: string[] }[]) =>
      rows.slice(0, 3).map((f) => `${f.symbol ?? f.token} ${usd(f.netUsd)} by ${f.wallets} wallet${f.wallets === 1 ? '' : 's'}${f.flagged ? ` (flagged: ${f.risks.join('; ')})` : ''}`).join(', ') || 'nothing';
    return `${r.smartWalletCount} smart wallets on ${r.chain} over ${r.timeperiod}; accumulating: ${flows(r.accumulating)}; distributing: ${flows(r.distributing)}.`;
  },
  admit: (input, ctx) => (input.tokenAddress ? admitToken(ctx, input.chain, input.tokenAddress) : admitMarket(ctx, input.chain)),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    const fromBlock = await periodStartBlock(market, checkpoint, input.timeperiod);
    const records = await walletRecords(market, fromBlock);
    const focus = input.tokenAddress ? resolveToken(market, input.tokenAddress) : null;
    // Narrowed to a token: the smart wallets that traded it in the period, and only its flows.
    const smart = [...records.values()].filter((r) => isSmartMoney(r) && (!focus || r.recent.has(focus))).sort((a, b) => b.realizedUsd - a.realizedUsd);
    const symbol = (token: string) => market.tokens.get(token)?.symbol ?? null;
    const money = (n: number) => round(n, 2);
    // What the smart wallets did together in the period, per token.
    const flows = new Map<string, { boughtUsd: number; soldUsd: number; wallets: Set<string> }>();
    for (const r of smart) {
      for (const [token, f] of r.recent) {
        if (focus && token !== focus) continue;
        const agg = flows.get(token) ?? { boughtUsd: 0, soldUsd: 0, wallets: new Set<string>() };
        agg.boughtUsd += f.boughtUsd;
        agg.soldUsd += f.soldUsd;
        agg.wallets.add(r.wallet);
        flows.set(token, agg);
      }
    }
    const tokens = [...flows.entries()]
      .map(([token, f]) => ({ token, symbol: symbol(token), netUsd: money(f.boughtUsd - f.soldUsd), boughtUsd: money(f.boughtUsd), soldUsd: money(f.soldUsd), wallets: f.wallets.size }))
      .sort((a, b) => b.netUsd - a.netUsd);
    const wallets = smart.slice(0, input.limit);
    const accumulating = tokens.filter((t) => t.netUsd > 0).slice(0, input.limit);
    const distributing = tokens.filter((t) => t.netUsd < 0).reverse().slice(0, input.limit);
    // What smart money buys is read as a lead: every token shown carries what the screen found.
    const shown = [...accumulating, ...distributing].map((t) => t.token).concat(wallets.flatMap((r) => [...r.recent.keys()]));
    const screen = await screenTokens(market, shown, ctx.store);
    const flag = (token: string) => screen.row(chain.name, token);
    return {
      ...indexProvenance(chain, checkpoint, `${SMART_MONEY_METHODOLOGY}; ${SCREEN_VERSION}`, fromBlock),
      screen: screen.summary('flagged'),
      timeperiod: input.timeperiod,
      coverage: describeCoverage(periodCoverage(market, checkpoint, input.timeperiod)),
      limit: input.limit,
      tokenAddress: focus,
      // The record is judged on the whole indexed history; the period bounds what they did lately.
      recordBlockRange: { from: '0', to: String(checkpoint.block) },
      criteria: { minClosedTrades: MIN_CLOSED_TRADES, minWinRate: MIN_WIN_RATE, minRealizedUsd: MIN_REALIZED_USD },
      walletsEvaluated: records.size,
      smartWalletCount: smart.length,
      wallets: wallets.map((r) => ({
        wallet: r.wallet,
        closedTrades: r.closedTrades,
        wins: r.wins,
        winRate: round(r.winRate, 4),
        realizedUsd: money(r.realizedUsd),
        period: [...r.recent.entries()]
          .filter(([token]) => !focus || token === focus)
          .map(([token, f]) => ({ token, symbol: symbol(token), netUsd: money(f.boughtUsd - f.soldUsd), ...flag(token) }))
          .filter((f) => f.netUsd !== 0)
          .sort((a, b) => Math.abs(b.netUsd) - Math.abs(a.netUsd)),
      })),
      accumulating: accumulating.map((t) => ({ ...t, ...flag(t.token) })),
      distributing: distributing.map((t) => ({ ...t, ...flag(t.token) })),
    };
  },
});
