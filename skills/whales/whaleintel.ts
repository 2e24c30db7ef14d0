import { WHALE_METHODOLOGY, WHALE_MIN_USD, whaleActivity, whaleWallets } from './flows.js';
import { round } from '../data/market.js';
import { usd } from '../core/summary.js';
import { ENTITY_KINDS, entityBook } from '../data/entities.js';
import { describeCoverage } from '../data/coverage.js';
import { indexProvenance } from '../data/provenance.js';
import { chainListForTokenInput } from '../core/params.js';
import { resolveToken } from '../data/resolve.js';
import { z } from 'zod';
import { address, isoTime, periodAnswerShape } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { admitMarket, admitToken } from '../core/admission.js';
import { loadMarket, periodCoverage, periodStartBlock } from '../data/load.js';

export const whaleIntelSkill = defineSkill({
  id: 'whale-tracking',
  title: 'Whale tracking',
  description: `Whale activity on a chain over a period: every swap and transfer worth at least $${WHALE_MIN_USD.toLocaleString('en-US')}, and the wallets behind them ranked by volume.`,
  tags: ['whales', 'flows', 'wallets', 'big-moves'],
  examples: ['Show me the biggest whale moves on base in the last 24h', 'Whale transfers on ethereum this week'],
  input: chainListForTokenInput,
  price: '1.00',
  catalogPrice: '0.45',
  httpPath: '/x402/data/whaleintel',
  toolName: 'whale_intel',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  catalog: { rateLimitPerMinute: 30, timeTargetSeconds: 30 },
  output: z.object({
    ...periodAnswerShape,
    limit: z.number().int(),
    tokenAddress: address.nullable().describe('The token the moves were narrowed to, or null for all.'),
    minUsd: z.number().describe('Smallest move counted, USD.'),
    eventCount: z.number().int(),
    wallets: z.array(z.object({
      wallet: address, events: z.number().int(), volumeUsd: z.number(),
      whale: z.boolean().describe('A whale on the whole index: a plain wallet (no entity) with whale-size moves in two blocks or more, one a transfer to another wallet.'),
      entity: z.enum(ENTITY_KINDS).nullable().describe('What the address is when it is no wallet acting for itself (entities/v1): protocol, issuer, treasury, exchange or protocol-actor; null for a plain wallet.'),
    })),
    events: z.array(z.object({
      kind: z.enum(['swap', 'transfer']),
      wallet: address,
      counterparty: z.string().nullable(),
      token: address.describe('A swap: the token paid in (sold); a transfer: the token sent.'),
      symbol: z.string().nullable(),
      tokenOut: address.nullable().describe('A swap: the token received (bought); null for a transfer.'),
      symbolOut: z.string().nullable(),
      usd: z.number(),
      block: z.number().int(),
      time: isoTime,
      tx: z.string(),
    })),
  }),
  summarize: (r) => {
    const top = r.wallets[0] as { wallet: string; events: number; volumeUsd: number; whale: boolean; entity: string | null } | undefined;
    const of = r.tokenAddress ? ` of ${(r.events as WhaleMove[])[0]?.token === r.tokenAddress ? ((r.events as WhaleMove[])[0]?.symbol ?? r.tokenAddress) : r.tokenAddress}` : '';
    if (!top) return `No move${of} of at least ${usd(r.minUsd)} on ${r.chain} over ${r.timeperiod}.`;
    const moves = (r.events as WhaleMove[]).filter((e) => e.wallet === top.wallet);
    const largest = moves[0];
    return `${r.eventCount} moves${of} of at least ${usd(r.minUsd)} on ${r.chain} over ${r.timeperiod}, by ${r.wallets.length} wallets. ` +
      `The most: ${top.wallet}${top.whale ? ' (a whale)' : top.entity ? ` (${top.entity}, not a whale)` : ''}, ${usd(top.volumeUsd)} in ${top.events} move${top.events === 1 ? '' : 's'}` +
      `${largest ? `; largest: ${describeMove(largest)}` : ''}.`;
  },
  admit: (input, ctx) => (input.tokenAddress ? admitToken(ctx, input.chain, input.tokenAddress) : admitMarket(ctx, input.chain)),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    const fromBlock = await periodStartBlock(market, checkpoint, input.timeperiod);
    const focus = input.tokenAddress ? resolveToken(market, input.tokenAddress) : null;
    const events = (await whaleActivity(market, fromBlock)).filter((e) => !focus || e.token === focus || e.tokenOut === focus);
    // Whether a wallet is a whale is judged on the whole index, not the period alone; entities are
    // classified once (skills/data/entities.ts), as holder-concentration classifies them.
    const entities = await entityBook(market);
    const whales = whaleWallets(await whaleActivity(market, 0), entities);
    const wallets = new Map<string, { wallet: string; events: number; volumeUsd: number }>();
    for (const e of events) {
      const w = wallets.get(e.wallet) ?? { wallet: e.wallet, events: 0, volumeUsd: 0 };
      w.events++;
      w.volumeUsd += e.usd;
      wallets.set(e.wallet, w);
    }
    return {
      ...indexProvenance(chain, checkpoint, WHALE_METHODOLOGY, fromBlock),
      timeperiod: input.timeperiod,
      coverage: describeCoverage(periodCoverage(market, checkpoint, input.timeperiod)),
      limit: input.limit,
      tokenAddress: focus,
      minUsd: WHALE_MIN_USD,
      eventCount: events.length,
      wallets: [...wallets.values()].sort((a, b) => b.volumeUsd - a.volumeUsd).slice(0, input.limit).map((w) => ({ ...w, volumeUsd: round(w.volumeUsd, 2), whale: whales.has(w.wallet), entity: entities.kind(w.wallet) })),
      events: events.slice(0, input.limit).map((e) => ({ ...e, usd: round(e.usd, 2) })),
    };
  },
});

type WhaleMove = { kind: 'swap' | 'transfer'; wallet: string; counterparty: string | null; symbol: string | null; token: string; symbolOut: string | null; tokenOut: string | null; usd: number; block: number };

/** One move in words, with which way it went. */
function describeMove(e: WhaleMove): string {
  const name = (symbol: string | null, token: string | null) => symbol ?? token ?? 'a token';
  return e.kind === 'swap'
    ? `swapped ${usd(e.usd)} of ${name(e.symbol, e.token)} for ${name(e.symbolOut, e.tokenOut)} (block ${e.block})`
    : `sent ${usd(e.usd)} of ${name(e.symbol, e.token)} to ${e.counterparty} (block ${e.block})`;
}
