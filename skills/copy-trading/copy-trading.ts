/** Copy trading: who is worth copying on a chain (a leaderboard of proven traders), and whether one wallet is. */
import { z } from 'zod';
import { round } from '../data/market.js';
import { PNL_METHODOLOGY, walletPnl } from '../wallet-analysis/pnl.js';
import { describeCoverage } from '../data/coverage.js';
import { indexProvenance } from '../data/provenance.js';
import { SCREEN_VERSION, screenTokens } from '../data/screening.js';
import { SMART_MONEY_METHODOLOGY, isSmartMoney, walletRecords } from '../smart-money/engine.js';
import { TRUST_METHODOLOGY, walletTrust } from '../wallet-analysis/trust.js';
import { FIVE_CHAINS, chainParam, evmAddressParam, limitParam, periodParam } from '../core/params.js';
import { address, coverage, intString, provenanceShape, screenSummary, walletPeriodRow, walletPnlShape, walletTrustShape } from '../core/outputs.js';
import { PERIOD_NAMES } from '../data/periods.js';
import { defineSkill } from '../core/registry.js';
import { admitMarket } from '../core/admission.js';
import { loadMarket, periodCoverage, periodStartBlock } from '../data/load.js';
import { share, usd } from '../core/summary.js';

/** Copyable: a record of at least this many closed trades, this win rate, and a trust score this high. */
export const COPYABLE = { minClosedTrades: 4, minWinRate: 0.6, minTrustScore: 60 } as const;

const record = { closedTrades: z.number().int(), wins: z.number().int(), winRate: z.number().describe('0-1.'), realizedUsd: z.number(), smartMoney: z.boolean() };

export const copyTradingLeaderboardSkill = defineSkill({
  id: 'copy-trading-leaderboard',
  title: 'Copy-trading leaderboard',
  description: 'The traders worth copying on a chain: wallets ranked by realized profit over their whole indexed record (closed trades, win rate, smart-money status), with what each bought or sold in the period, each token with the screen\'s risks.',
  tags: ['copy-trading', 'leaderboard', 'traders', 'profit', 'wallets'],
  examples: ['Who are the best traders to copy on base?', 'Most profitable wallets on ethereum by closed trades'],
  input: z.strictObject({
    chain: chainParam('base', FIVE_CHAINS),
    timeperiod: periodParam('7d'),
    limit: limitParam(1, 100, 10),
    minClosedTrades: z.number().int().min(1).max(100).default(3).describe('Only wallets with at least this many closed trades, 1-100; default 3.'),
  }),
  price: '0.85',
  toolName: 'copy_trading_leaderboard',
  surfaces: ['a2a', 'mcp', 'agent'],
  catalog: { rateLimitPerMinute: 20, timeTargetSeconds: 30 },
  output: z.object({
    ...provenanceShape,
    screen: screenSummary,
    recordBlockRange: z.object({ from: intString, to: intString }).describe('Records are judged over the whole index.'),
    timeperiod: z.enum(PERIOD_NAMES),
    coverage,
    limit: z.number().int(),
    minClosedTrades: z.number().int(),
    tradersRanked: z.number().int(),
    traders: z.array(z.object({ rank: z.number().int(), wallet: address, ...record, period: z.array(walletPeriodRow).describe('Its largest net moves in the period (5 at most).') })).describe('Most realized profit first.'),
  }),
  summarize: (r) =>
    `${r.tradersRanked} traders with at least ${r.minClosedTrades} closed trades; top: ${(r.traders as { wallet: string; realizedUsd: number; winRate: number }[]).slice(0, 3).map((t) => `${t.wallet} (${usd(t.realizedUsd)}, win rate ${share(t.winRate * 100)})`).join('; ') || 'none'}.`,
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    const fromBlock = await periodStartBlock(market, checkpoint, input.timeperiod);
    const ranked = [...(await walletRecords(market, fromBlock)).values()]
      .filter((r) => r.closedTrades >= input.minClosedTrades)
      .sort((a, b) => b.realizedUsd - a.realizedUsd);
    const symbol = (token: string) => market.tokens.get(token)?.symbol ?? null;
    const shown = ranked.slice(0, input.limit);
    // A copied buy is a buy: each token a leader traded carries what the screen found.
    const screen = await screenTokens(market, shown.flatMap((r) => [...r.recent.keys()]), ctx.store);
    return {
      ...indexProvenance(chain, checkpoint, `${SMART_MONEY_METHODOLOGY}; ${SCREEN_VERSION}`, fromBlock),
      screen: screen.summary('flagged'),
      recordBlockRange: { from: '0', to: String(checkpoint.block) },
      timeperiod: input.timeperiod,
      coverage: describeCoverage(periodCoverage(market, checkpoint, input.timeperiod)),
      limit: input.limit,
      minClosedTrades: input.minClosedTrades,
      tradersRanked: ranked.length,
      traders: shown.map((r, i) => ({
        rank: i + 1,
        wallet: r.wallet,
        closedTrades: r.closedTrades,
        wins: r.wins,
        winRate: round(r.winRate, 4),
        realizedUsd: round(r.realizedUsd, 2),
        smartMoney: isSmartMoney(r),
        period: [...r.recent.entries()].map(([token, f]) => ({ token, symbol: symbol(token), netUsd: round(f.boughtUsd - f.soldUsd, 2), ...screen.row(chain.name, token) })).filter((f) => f.netUsd !== 0).sort((a, b) => Math.abs(b.netUsd) - Math.abs(a.netUsd)).slice(0, 5),
      })),
    };
  },
});

export const copyTradingIntelSkill = defineSkill({
  id: 'copy-trading-intel',
  title: 'Copy-trading intel',
  description: `Should you copy this wallet? Its closed-trade record, its profit and loss over the period, its trust score and factors, and a verdict: copyable with at least ${COPYABLE.minClosedTrades} closed trades, a ${COPYABLE.minWinRate * 100}% win rate and a trust score of ${COPYABLE.minTrustScore}.`,
  tags: ['copy-trading', 'wallet', 'due-diligence', 'trader', 'follow'],
  examples: ['Should I copy trades from 0x... on base?', 'Is this trader consistently profitable?'],
  input: z.strictObject({ walletAddress: evmAddressParam('The wallet to assess (0x + 40 hex).'), chain: chainParam('base', FIVE_CHAINS), timeperiod: periodParam('30d') }),
  price: '1.00',
  toolName: 'copy_trading_intel',
  surfaces: ['a2a', 'mcp', 'agent'],
  catalog: { rateLimitPerMinute: 10, timeTargetSeconds: 60 },
  output: z.object({
    ...provenanceShape,
    wallet: address,
    timeperiod: z.enum(PERIOD_NAMES),
    coverage,
    available: z.boolean(),
    reason: z.string().optional().describe('With available: false: the index holds no trade of the wallet.'),
    verdict: z.object({
      copyable: z.boolean(),
      reasons: z.array(z.string()),
      criteria: z.object({ minClosedTrades: z.number().int(), minWinRate: z.number(), minTrustScore: z.number() }),
    }).optional(),
    record: z.object(record).nullable().optional().describe('Its closed-trade record over the whole index.'),
    pnl: z.object(walletPnlShape).optional(),
    trust: z.object(walletTrustShape).optional(),
  }),
  summarize: (r) => `${r.verdict.copyable ? 'Copyable' : 'Not copyable'}: ${r.verdict.reasons.join('; ')}.`,
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    const fromBlock = await periodStartBlock(market, checkpoint, input.timeperiod);
    const wallet = input.walletAddress.toLowerCase();
    const [records, pnl, trust] = await Promise.all([walletRecords(market, fromBlock), walletPnl(market, wallet, fromBlock), walletTrust(chain, market, wallet)]);
    const base = { ...indexProvenance(chain, checkpoint, `${SMART_MONEY_METHODOLOGY}; ${PNL_METHODOLOGY}; ${TRUST_METHODOLOGY}`, 0), wallet: input.walletAddress, timeperiod: input.timeperiod, coverage: describeCoverage(periodCoverage(market, checkpoint, input.timeperiod)) };
    if (!pnl.swapsIndexed) return { ...base, available: false, reason: 'the index holds no trade of this wallet on this chain' };
    const record = records.get(wallet);
    const reasons: string[] = [];
    const closed = record?.closedTrades ?? 0;
    const winRate = record?.winRate ?? 0;
    const score = 'score' in trust ? (trust.score as number) : null;
    reasons.push(`${closed} closed trades (needs ${COPYABLE.minClosedTrades})`, `win rate ${share(winRate * 100)} (needs ${COPYABLE.minWinRate * 100}%)`, `trust score ${score ?? 'n/a'} (needs ${COPYABLE.minTrustScore})`);
    const copyable = closed >= COPYABLE.minClosedTrades && winRate >= COPYABLE.minWinRate && score !== null && score >= COPYABLE.minTrustScore;
    return {
      ...base,
      available: true,
      verdict: { copyable, reasons, criteria: COPYABLE },
      record: record ? { closedTrades: record.closedTrades, wins: record.wins, winRate: round(record.winRate, 4), realizedUsd: round(record.realizedUsd, 2), smartMoney: isSmartMoney(record) } : null,
      pnl,
      trust,
    };
  },
});
