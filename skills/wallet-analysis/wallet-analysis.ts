/** What the index says about one wallet: its trading profit and loss, and a trust score with its evidence. */
import { z } from 'zod';
import { describeCoverage } from '../data/coverage.js';
import { indexProvenance } from '../data/provenance.js';
import { PNL_METHODOLOGY, walletPnl } from './pnl.js';
import { TRUST_METHODOLOGY, walletTrust } from './trust.js';
import { FIVE_CHAINS, chainParam, evmAddressParam, periodParam } from '../core/params.js';
import { address, coverage, provenanceShape, walletPnlShape, walletTrustShape } from '../core/outputs.js';
import { PERIOD_NAMES } from '../data/periods.js';
import { defineSkill } from '../core/registry.js';
import { admitMarket } from '../core/admission.js';
import { share, usd } from '../core/summary.js';
import { loadMarket, periodCoverage, periodStartBlock } from '../data/load.js';

const wallet = evmAddressParam('The wallet (0x + 40 hex).');

const walletHead = { ...provenanceShape, wallet: address };

export const walletPnlSkill = defineSkill({
  id: 'wallet-pnl',
  title: 'Wallet PnL',
  description: 'Profit and loss of a wallet\'s DEX trading on a chain (how much it made or lost): realized profit of its sells in the period at average cost, unrealized profit of what it still holds, volume, win rate and the per-token breakdown.',
  tags: ['wallet', 'pnl', 'profit', 'loss', 'performance', 'trading'],
  examples: ['How much has 0x... made trading on base this month?', 'Realized and unrealized profit of a wallet over 7 days'],
  input: z.strictObject({ walletAddress: wallet, chain: chainParam('base', FIVE_CHAINS), timeperiod: periodParam('30d') }),
  price: '1.00',
  toolName: 'wallet_pnl',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({ ...walletHead, timeperiod: z.enum(PERIOD_NAMES), coverage, ...walletPnlShape }),
  summarize: (r) =>
    `Over ${r.timeperiod}: realized ${usd(r.realizedUsd)}, unrealized ${usd(r.unrealizedUsd)}, total ${usd(r.totalPnlUsd)} from ${r.tradesInPeriod} trades ` +
    `(${usd(r.volumeUsd)} traded; win rate ${r.winRate === null ? 'n/a' : share(r.winRate * 100)}); ${r.swapsIndexed} swaps indexed in all.`,
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    const fromBlock = await periodStartBlock(market, checkpoint, input.timeperiod);
    return {
      ...indexProvenance(chain, checkpoint, PNL_METHODOLOGY, fromBlock),
      wallet: input.walletAddress,
      timeperiod: input.timeperiod,
      coverage: describeCoverage(periodCoverage(market, checkpoint, input.timeperiod)),
      ...(await walletPnl(market, input.walletAddress, fromBlock)),
    };
  },
});

export const walletTrustSkill = defineSkill({
  id: 'wallet-trust-score',
  title: 'Wallet trust score',
  description: 'A 0-100 trust score for a wallet (counterparty) from its indexed history: age, activity, trading record, sandwich attacks on others, and tokens it deployed whose liquidity was pulled, each factor with its points and evidence.',
  tags: ['wallet', 'trust', 'reputation', 'risk', 'counterparty', 'scam'],
  examples: ['Can I trust wallet 0x... on base?', 'Reputation check of a counterparty address'],
  input: z.strictObject({ walletAddress: wallet, chain: chainParam('base', FIVE_CHAINS) }),
  price: '0.60',
  toolName: 'wallet_trust_score',
  surfaces: ['a2a', 'mcp', 'agent'],
  catalog: { rateLimitPerMinute: 30, timeTargetSeconds: 30 },
  output: z.object({ ...walletHead, ...walletTrustShape }),
  summarize: (r) =>
    `Trust score ${r.score}/100 (${r.grade}): ${(r.factors as { factor: string; points: number; evidence: string }[]).map((f) => `${f.factor} ${f.points >= 0 ? '+' : ''}${f.points} (${f.evidence})`).join('; ')}.`,
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    return { ...indexProvenance(chain, checkpoint, TRUST_METHODOLOGY, 0), wallet: input.walletAddress, ...(await walletTrust(chain, market, input.walletAddress)) };
  },
});
