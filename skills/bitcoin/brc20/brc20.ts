/**
 * brc20-analytics: BRC-20 tickers from the Bitcoin index's inscription plug-in — supply minted
 * against max, mint progress, holders and top holders, and recent transfers.
 */
import { z } from 'zod';
import type { Brc20Index } from './indexer.js';
import { brc20Report, BRC20_METHODOLOGY } from './report.js';
import { BRC20_OBSERVER } from '../observers/observers.js';
import { bitcoinProvenanceShape } from '../../../indexer/bitcoin/provenance.js';
import { admitObserver, coverageGap, observerOf, observerProvenance } from '../observers/read.js';
import { isoTime } from '../../core/outputs.js';
import { rowsParam, TOOL_ROWS } from '../../core/params.js';
import { defineSkill } from '../../core/registry.js';

const amount = z.string().describe('Whole tokens, decimal string.');

const tickerRow = z.object({
  tick: z.string().describe('Ticker as indexers key it (lower case, 4 bytes).'),
  max: amount, lim: amount.describe('Most one mint may take.'), decimals: z.number().int(),
  minted: amount, mintProgressPct: z.number().describe('minted / max, percent.'), fullyMinted: z.boolean(),
  mints: z.number().int().describe('Valid mint inscriptions.'), invalidMints: z.number().int().describe('Mint inscriptions refused (over lim, after max, malformed amount).'),
  holders: z.number().int().describe('Addresses with a positive balance (available + transferable).'),
  transferInscriptions: z.number().int(), invalidTransfers: z.number().int().describe('Transfer inscriptions over the owner\'s available balance.'),
  transfers: z.number().int().describe('Transfer inscriptions sent on (completed transfers).'),
  burned: amount.describe('Sent to OP_RETURN outputs.'),
  deploy: z.object({ inscriptionId: z.string(), height: z.number().int(), time: isoTime }),
  lastMintHeight: z.number().int().nullable(),
  topHolders: z.array(z.object({ address: z.string(), balance: amount, transferable: amount.describe('Part of the balance inscribed for transfer, not sent yet.'), sharePct: z.number() })).describe('Largest first, up to limit.'),
});

const transferRow = z.object({
  tick: z.string(), inscriptionId: z.string(), from: z.string(), to: z.string().nullable(),
  outcome: z.enum(['sent', 'returned', 'burned']).describe('sent: to the address that received the sat; returned: the sat went to fees, so the amount went back to the sender; burned: to an OP_RETURN.'),
  amount, txid: z.string(), height: z.number().int(), time: isoTime,
});

export const brc20AnalyticsSkill = defineSkill({
  id: 'brc20-analytics',
  title: 'BRC-20 analytics',
  description: 'BRC-20 tokens on Bitcoin, from an inscription index read through the Esplora API: per ticker the amount minted against max, mint progress, valid and refused mints, the addresses holding it with the largest balances, and completed transfers, with the most recent transfers. Each answer names the blocks read.',
  tags: ['bitcoin', 'brc20', 'ordinals', 'inscriptions', 'brc20-holders', 'mints'],
  examples: ['Top BRC-20 tokens by holders', 'How much of ordi is minted?', 'Recent BRC-20 transfers'],
  input: z.strictObject({ limit: rowsParam(TOOL_ROWS) }),
  price: '0.50',
  catalog: { rateLimitPerMinute: 30, timeTargetSeconds: 30 },
  toolName: 'brc20_analytics',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    available: z.boolean(),
    reason: z.string().optional().describe('With available: false: why the index cannot give the whole picture.'),
    ...bitcoinProvenanceShape.shape,
    totals: z.object({ tickers: z.number().int(), holders: z.number().int().describe('Distinct addresses holding any ticker.'), mints: z.number().int(), transfers: z.number().int(), pendingTransfers: z.number().int().describe('Transfer inscriptions not sent on yet.') }).optional(),
    tickers: z.array(tickerRow).describe('Most holders first, up to limit.'),
    recentTransfers: z.array(transferRow).describe('Newest first, up to limit.'),
  }),
  summarize: (r) => {
    if (!r.available) return `BRC-20 analytics not available: ${r.reason}`;
    const t = r.tickers as z.infer<typeof tickerRow>[];
    if (!t.length) return `No BRC-20 ticker deployed in blocks ${r.blockRange.from}-${r.blockRange.to}.`;
    return `${r.totals.tickers} BRC-20 tickers, ${r.totals.holders} holders: ${t.slice(0, 5).map((x) => `${x.tick} ${x.minted}/${x.max} minted (${x.mintProgressPct}%), ${x.holders} holders`).join('; ')}.`;
  },
  needs: ['bitcoin'],
  admit: (_input, ctx) => admitObserver(ctx, BRC20_OBSERVER, 'BRC-20 analytics', 'brc20'),
  async handler(input, ctx) {
    const { bitcoin, index, observer } = observerOf<Brc20Index>(ctx, BRC20_OBSERVER);
    const coverage = observer.coverage;
    const provenance = observerProvenance(bitcoin, index, coverage, 'BRC-20', BRC20_METHODOLOGY);
    const gap = await coverageGap(bitcoin, coverage, 'brc20');
    if (gap) return { available: false, reason: gap, ...provenance, tickers: [], recentTransfers: [] };
    return { available: true, ...provenance, ...brc20Report(observer, input.limit) };
  },
});
