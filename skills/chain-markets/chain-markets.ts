/**
 * Markets across the indexed chains (the catalogue's exact params; docs/skills.md): the chain-markets board (kind,
 * sort, limit) and alpha-ranked gainers (optional `chain`). Tokenized stocks are the genuine
 * stock tokens the stock engines read (skills/stocks), each with its premium to fair value
 * (underlying x multiplier); a deployment that cannot value them refuses `kind: stock` and
 * `sort: premium` before payment, never answering an empty board.
 */
import { z } from 'zod';
import { formatUnits } from 'viem';
import { SibylError } from '../core/errors.js';
import { MARKET_METHODOLOGY, TRADEABLE_LIQUIDITY_USD, round } from '../data/market.js';
import { RANKING_RULES, qualifying, tokenRows, type RankedBy, type TokenRow } from '../data/rankings.js';
import { SCREEN_RULES, SCREEN_VERSION, screenList, type RowScreen } from '../data/screening.js';
import type { Market } from '../data/market.js';
import type { ChainName } from '../../chain/chains.js';
import type { SkillContext } from '../core/context.js';
import { EVM_CHAINS, limitParam } from '../core/params.js';
import { chainGap, isoTime, rowScreenShape, screenSummary, tokenRowShape } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { admitMarket } from '../core/admission.js';
import { loadAllMarkets, periodStartBlock } from '../data/load.js';
import { pct, usd } from '../core/summary.js';
import { admitStockMarkets, loadStockMarkets, STOCK_MARKETS_METHODOLOGY, type StockMarkets } from '../stocks/stock-market.js';

const MIN_LIQUIDITY_USD = TRADEABLE_LIQUIDITY_USD;
const KINDS = ['all', 'crypto', 'stock'] as const;
const SORTS = ['volume', 'mcap', 'liquidity', 'gainers', 'losers', 'premium'] as const;

type StockFacts = { underlying: string; issuer: string; multiplier: number; supplyShares: number; pricePerShareUsd: number; fairUsd: number | null; premiumPct: number | null; session: 'open' | 'closed' | null };
type Row = TokenRow & { chain: ChainName; marketCapUsd: number | null };
type MarketRow = Row & { kind: 'crypto' | 'stock'; stock: StockFacts | null };
type Listed = MarketRow & RowScreen;

/** Token rows of every indexed chain (or one), 24 h, with market cap from the indexed supply; unreadable chains listed. */
async function crossChainRows(ctx: SkillContext, only?: ChainName): Promise<{ rows: Row[]; unavailable: { chain: string; reason: string }[]; sources: string[]; markets: Map<string, Market> }> {
  const rows: Row[] = [];
  const sources: string[] = [];
  const markets = new Map<string, Market>();
  const { loaded, unavailable } = await loadAllMarkets(ctx, only ? [only] : undefined);
  for (const { chain: connected, market, checkpoint } of loaded) {
    sources.push(`index:${connected.name}@${checkpoint.block}`);
    markets.set(connected.name, market);
    const fromBlock = await periodStartBlock(market, checkpoint, '24h');
    for (const r of await tokenRows(market, checkpoint, '24h', fromBlock)) {
      const decimals = market.decimals(r.token);
      const supply = decimals === null ? null : Object.values(await market.reader.balances(r.token)).reduce((s, b) => s + BigInt(b), 0n);
      rows.push({ ...r, chain: connected.name, marketCapUsd: supply === null ? null : round(Number(formatUnits(supply, decimals!)) * r.priceUsd, 2) });
    }
  }
  if (only && unavailable.length) throw new SibylError('chain_unavailable', `${only}: ${unavailable[0]!.reason}; nothing was charged`);
  return { rows, unavailable, sources, markets };
}

/**
 * Marks the genuine stock tokens among the rows with what a stock row adds: its underlying, issuer,
 * multiplier, the shares its supply stands for, the price per share and the premium to fair value
 * (the market cap stays raw supply x price, which the multiplier cannot inflate).
 */
function markStocks(rows: Row[], stocks: StockMarkets | null): MarketRow[] {
  const byToken = new Map((stocks?.stocks ?? []).map((s) => [`${s.chain}:${s.address.toLowerCase()}`, s]));
  return rows.map((r) => {
    const s = byToken.get(`${r.chain}:${r.token.toLowerCase()}`);
    if (!s) return { ...r, kind: 'crypto' as const, stock: null };
    return {
      ...r, kind: 'stock' as const,
      stock: {
        underlying: s.underlying, issuer: s.issuer.name, multiplier: s.multiplier, supplyShares: round(s.supplyShares, 6), pricePerShareUsd: round(r.priceUsd / s.multiplier, 6),
        fairUsd: s.fair ? round(s.fair.fairUsd, 6) : null, premiumPct: s.fair ? round(s.fair.premiumPct, 3) : null, session: s.fair?.session ?? null,
      },
    };
  });
}

/** A token on one of the indexed chains, with its market cap and the screen's verdict. */
const chainRow = z.object({ ...tokenRowShape, chain: z.string(), marketCapUsd: z.number().nullable().describe('Indexed supply x price.'), ...rowScreenShape });
const stockFacts = z.object({
  underlying: z.string().describe('The share it wraps (ticker).'), issuer: z.string(), multiplier: z.number().describe('ERC-8056 uiMultiplier: shares per raw token.'),
  supplyShares: z.number().describe('Raw supply x multiplier.'), pricePerShareUsd: z.number().describe('Price / multiplier.'),
  fairUsd: z.number().nullable().describe('Underlying price (its feed) x multiplier; null without a feed.'), premiumPct: z.number().nullable().describe('Price / fair - 1, percent.'),
  session: z.enum(['open', 'closed']).nullable().describe('The underlying market when read: closed, the premium is against the last close.'),
});
const marketRow = chainRow.extend({ kind: z.enum(['crypto', 'stock']), stock: stockFacts.nullable().describe('Stock tokens only.') });
const boardHead = {
  source: z.string(),
  asOf: z.object({ timestamp: isoTime }),
  sources: z.array(z.string()).describe('index:<chain>@<block> for each chain read.'),
  methodology: z.string(),
  screen: screenSummary,
  available: z.boolean().describe('false when no token qualifies for the board (reason says which rule none met).'),
  reason: z.string().optional(),
  criterion: z.string().describe('What a token must show to be listed.'),
  limit: z.number().int(),
  count: z.number().int().describe('Tokens listed: at most limit, fewer when fewer qualify.'),
  qualified: z.number().int().describe('Tokens that meet the criterion, before the screen and the limit.'),
  unavailableChains: z.array(chainGap),
};

/** The board's answer when nothing qualifies, or nothing at all. */
const emptyBoard = (listed: number, qualified: number, criterion: string) =>
  !listed && { reason: qualified ? `every token that ${criterion} fails the screen` : `no indexed token ${criterion} over 24h` };

export const chainMarketsSkill = defineSkill({
  id: 'chain-markets',
  title: 'Chain markets',
  description: `The markets board across every indexed chain: tokens with price, 24 h change, liquidity, volume and market cap (indexed supply x price), crypto tokens, tokenized stocks (genuine issuers' tokens, with underlying, multiplier, shares and premium to fair value = underlying x multiplier) or both, sorted by volume, market cap, liquidity, gainers, losers or premium (stocks); each carries the screen's risks (${SCREEN_RULES} flag a token, and leave the gainers board).`,
  tags: ['markets', 'board', 'tokens', 'market-cap', 'volume'],
  examples: ['Biggest markets by volume across all chains', 'Largest tokens by market cap'],
  input: z.strictObject({
    kind: z.enum(KINDS).default('all').describe('all, crypto or stock; default all.'),
    sort: z.enum(SORTS).default('volume').describe(`Sort by: ${SORTS.join(', ')}; default volume (premium: stock tokens only, highest first).`),
    limit: limitParam(1, 500, 50),
  }).superRefine((i, c) => {
    if (i.sort === 'premium' && i.kind === 'crypto') c.addIssue({ code: 'custom', path: ['sort'], message: 'premium applies to stock tokens only: kind must be stock or all' });
  }),
  price: '0.25',
  toolName: 'chain_markets',
  surfaces: ['a2a', 'mcp'],
  output: z.object({
    ...boardHead,
    kind: z.enum(KINDS),
    sort: z.enum(SORTS),
    totalTokens: z.number().int(),
    tokens: z.array(marketRow),
    excludedByScreen: z.array(marketRow).optional().describe('sort gainers: tokens failing the screen.'),
    note: z.string().optional(),
  }),
  summarize: (r) => !r.count ? `${r.reason}.` : `${r.count} of ${r.qualified} qualifying tokens by ${r.sort}; top: ${(r.tokens as Listed[]).slice(0, 3).map((t) => `${t.symbol} on ${t.chain} (${t.stock ? `${t.stock.premiumPct === null ? 'no feed' : `${pct(t.stock.premiumPct)} to ${t.stock.underlying} x ${t.stock.multiplier}`}, ` : ''}${usd(t.volumeUsd)} volume, ${pct(t.changePct)})${t.flagged ? ` flagged: ${t.risks.join('; ')}` : ''}`).join('; ')}.`,
  admit: async (input, ctx) => {
    if (input.kind === 'stock' || input.sort === 'premium') await admitStockMarkets(ctx);
  },
  async handler(input, ctx) {
    const { rows: read, unavailable, sources, markets } = await crossChainRows(ctx);
    // Stocks are read wherever they can be valued; asked for, they must be (admission said so).
    const stocks = input.kind === 'crypto' ? null : await loadStockMarkets(ctx).catch((err) => {
      if (input.kind === 'stock' || input.sort === 'premium') throw err;
      return null;
    });
    const rows = markStocks(read, stocks).filter((r) => input.kind === 'all' || r.kind === input.kind);
    // Only tokens that are what the board's sort says (data/rankings.ts); market cap needs a readable supply.
    const { criterion, sorted } = input.sort === 'mcap'
      ? { criterion: 'has a market cap (readable supply)', sorted: rows.filter((r) => r.marketCapUsd !== null).sort((a, b) => b.marketCapUsd! - a.marketCapUsd!) }
      : input.sort === 'premium'
        ? { criterion: 'is a genuine stock token valued against its underlying\'s feed', sorted: rows.filter((r) => r.stock?.premiumPct != null).sort((a, b) => b.stock!.premiumPct! - a.stock!.premiumPct!) }
        : { criterion: RANKING_RULES[input.sort as RankedBy].criterion, sorted: qualifying(rows, input.sort as RankedBy) };
    // Gainers recommend: failing tokens leave the list. Every other board ranks and flags.
    const policy = input.sort === 'gainers' ? 'excluded' : 'flagged';
    const { listed, excluded, screen } = await screenList(ctx.store, sorted, (r) => ({ market: markets.get(r.chain)!, token: r.token }), input.limit, policy);
    const none = emptyBoard(listed.length, sorted.length, criterion);
    return {
      source: 'index', asOf: { timestamp: new Date().toISOString() }, sources: [...sources, ...(stocks ? stocks.sources.filter((x) => x.startsWith('feeds:')) : [])],
      methodology: `chain-markets/v1 (${MARKET_METHODOLOGY}; market cap = indexed supply x price; ${SCREEN_VERSION}${stocks ? `; ${STOCK_MARKETS_METHODOLOGY}` : ''})`, screen,
      available: !none, ...none, criterion,
      kind: input.kind, sort: input.sort, limit: input.limit, totalTokens: rows.length, count: listed.length, qualified: sorted.length,
      unavailableChains: unavailable, tokens: listed, ...(policy === 'excluded' && { excludedByScreen: excluded }),
      ...(input.kind === 'all' && !stocks && { note: 'tokenized stocks could not be valued here (their feeds\' chain is not read): all is crypto' }),
    };
  },
});

export const alphaGainersSkill = defineSkill({
  id: 'top-gainers-comprehensive',
  title: 'Alpha-ranked gainers',
  description: `Gainers of the last 24 h across every indexed chain (or one), ranked by alpha: the price change weighted by how much of the pool traded (volume / liquidity, capped at 1), so a move on real turnover outranks a thin one; tokens under $${MIN_LIQUIDITY_USD.toLocaleString('en-US')} liquidity are left out, and so are tokens that fail the screen (${SCREEN_RULES}), listed apart with their risks.`,
  tags: ['gainers', 'alpha', 'momentum', 'cross-chain'],
  examples: ['Best risers across all chains today', 'Alpha-ranked gainers on arbitrum'],
  input: z.strictObject({ chain: z.enum(EVM_CHAINS).optional().describe(`Narrow to one chain: ${EVM_CHAINS.join(', ')}.`), limit: limitParam(1, 100, 10) }),
  price: '0.25',
  toolName: 'top_gainers_comprehensive',
  surfaces: ['a2a', 'mcp'],
  output: z.object({
    ...boardHead,
    chain: z.string().describe('The chain asked for, or all.'),
    tokens: z.array(chainRow.extend({ turnover: z.number().describe('min(1, volume / liquidity).'), alpha: z.number().describe('24 h change x turnover.') })),
    excludedByScreen: z.array(chainRow.extend({ turnover: z.number(), alpha: z.number() })),
  }),
  summarize: (r) => !r.count ? `${r.reason}.` : `Top alpha (${r.qualified} qualified): ${(r.tokens as { symbol: string; chain: string; changePct: number; alpha: number }[]).slice(0, 3).map((t) => `${t.symbol} on ${t.chain} ${pct(t.changePct)} (alpha ${t.alpha})`).join('; ')}.`,
  admit: async (input, ctx) => {
    if (input.chain) await admitMarket(ctx, input.chain);
  },
  async handler(input, ctx) {
    const { rows, unavailable, sources, markets } = await crossChainRows(ctx, input.chain);
    // Gainers only (rose and traded in the window, data/rankings.ts), of tradeable size.
    const ranked = qualifying(rows, 'gainers')
      .filter((r) => r.liquidityUsd >= MIN_LIQUIDITY_USD)
      .map((r) => ({ ...r, turnover: round(Math.min(1, r.volumeUsd / r.liquidityUsd), 4), alpha: round(r.changePct! * Math.min(1, r.volumeUsd / r.liquidityUsd), 4) }))
      .sort((a, b) => b.alpha - a.alpha);
    const { listed, excluded, screen } = await screenList(ctx.store, ranked, (r) => ({ market: markets.get(r.chain)!, token: r.token }), input.limit, 'excluded');
    const criterion = `${RANKING_RULES.gainers.criterion}, with at least $${MIN_LIQUIDITY_USD.toLocaleString('en-US')} liquidity`;
    const none = emptyBoard(listed.length, ranked.length, criterion);
    return {
      source: 'index', asOf: { timestamp: new Date().toISOString() }, sources,
      methodology: `alpha-gainers/v1 (24 h change x min(1, volume / liquidity); liquidity >= $${MIN_LIQUIDITY_USD}; ${MARKET_METHODOLOGY}; ${SCREEN_VERSION})`, screen,
      available: !none, ...none, criterion,
      chain: input.chain ?? 'all', limit: input.limit, count: listed.length, qualified: ranked.length, unavailableChains: unavailable, tokens: listed, excludedByScreen: excluded,
    };
  },
});
