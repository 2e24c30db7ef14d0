/**
 * rwa-intel: the tokenized-equity boards (the spec's `board`, with `intent` for the portfolio and
 * `token` for early buyers), each read from the chains at the block their indexes stand at.
 * A board that cannot be read is refused (503, nothing charged), never answered empty.
 */
import { z } from 'zod';
import { SibylError } from '../core/errors.js';
import { address, chainGap, isoTime } from '../core/outputs.js';
import { evmAddressParam } from '../core/params.js';
import { defineSkill } from '../core/registry.js';
import type { SkillContext } from '../core/context.js';
import { loadMarket } from '../data/load.js';
import { MARKET_METHODOLOGY } from '../data/market.js';
import { TRADES_METHODOLOGY } from '../data/trades.js';
import { pct, usd } from '../core/summary.js';
import { EARNINGS_MOVE_PCT, BACK_AT_FAIR_PCT } from './event-risk.js';
import { FAIR_VALUE_METHODOLOGY, sessionAt } from './fair-value.js';
import { FLOAT_METHODOLOGY } from './float.js';
import { PAIR_MIN_LIQUIDITY_USD } from './pairs.js';
import { EARLY_BUYERS, EARLY_WINDOW_HOURS, MIN_RECORD_TRADES } from './records.js';
import { STOCK_MARKETS_METHODOLOGY, admitStockMarkets, loadStockMarkets, stockChains } from './stock-market.js';
import { MULTIPLIER_LAG_HOURS, RESERVE_COVERAGE_FLOOR, STALE_ATTESTATION_HOURS, TRUST_FLAGS } from './trust.js';
import { PONS_VENUE, RWA_BOARDS, readBoard, type RwaBoard } from './boards.js';

export { RWA_BOARDS, type RwaBoard } from './boards.js';

const pairRow = z.object({
  underlying: z.string(), underlyingUsd: z.number(), feedUpdatedAt: isoTime, session: z.enum(['open', 'closed']),
  wrappers: z.array(z.object({
    chain: z.string(), token: address, symbol: z.string(), issuer: z.string(), venue: z.string().nullable(), pool: z.string().nullable(),
    priceUsd: z.number(), multiplier: z.number().describe('ERC-8056 uiMultiplier: shares per raw token.'), fairUsd: z.number().describe('Underlying x the multiplier it should carry (its own, unless it lags an action its peers applied).'),
    premiumPct: z.number().describe('Price over fair value, less one, percent.'),
    multiplierLag: z.object({ action: z.string(), peer: z.string(), premiumAtOwnMultiplierPct: z.number().nullable() }).nullable().describe('Its multiplier has not applied an action a peer wrapper applied: fair value counts it; the premium at its own multiplier beside.'),
    liquidityUsd: z.number(), volume24hUsd: z.number(), paused: z.boolean(),
  })),
  spreadPct: z.number().nullable().describe('Highest premium less lowest among its wrappers, percentage points.'),
});
const impostorRow = z.object({
  chain: z.string(), address, symbol: z.string().nullable(), name: z.string().nullable(),
  copies: z.object({ issuer: z.string(), symbol: z.string(), chain: z.string().nullable(), address: address.nullable() }).describe('The issuer it passes for; the genuine token it copies where a chain read has it, else null (it follows the issuer\'s symbol pattern).'), priceUsd: z.number().nullable(), liquidityUsd: z.number(),
});
const walletResult = {
  wallet: address, trades: z.number().int(), boughtUsd: z.number(), soldUsd: z.number(), realizedUsd: z.number(), unrealizedUsd: z.number(),
  pnlUsd: z.number(), returnPct: z.number().nullable(), winRate: z.number().nullable(),
};

const output = z.object({
  source: z.string(), asOf: z.object({ timestamp: isoTime }), sources: z.array(z.string()).describe('index:<chain>@<block> per chain read, and feeds:<chain>@<block>.'),
  methodology: z.string(),
  available: z.boolean(), reason: z.string().optional(),
  board: z.enum(RWA_BOARDS),
  session: z.enum(['open', 'closed']).describe('The underlying market at the moment read: open Monday-Friday UTC; closed, premiums are against the last close.'),
  tokensRead: z.number().int().describe('Genuine stock tokens read across the chains.'),
  unavailableChains: z.array(chainGap),
  pairs: z.array(pairRow).optional().describe('stock-pairs / pons-stock-pairs: underlyings, widest premium first.'),
  venue: z.object({ chain: z.string(), dex: z.string() }).optional().describe('pons-stock-pairs: the venue read.'),
  issuers: z.array(z.object({
    chain: z.string(), issuer: address, name: z.string(), verdict: z.enum(['sound', 'watch', 'unsound']),
    tokens: z.array(z.object({
      chain: z.string(), token: address, symbol: z.string(), underlying: z.string(), multiplier: z.number(), supplyShares: z.number(), reserveShares: z.number().nullable(),
      supplySharesAtAttestation: z.number().nullable().describe('What the attested reserves must cover: the supply\'s shares at the attestation\'s block.'),
      coveragePct: z.number().nullable().describe('Reserves over supplySharesAtAttestation, percent.'), attestationAgeHours: z.number().nullable(),
      mints: z.object({ count: z.number().int(), shares: z.number() }), burns: z.object({ count: z.number().int(), shares: z.number() }),
      powers: z.object({ owner: z.string().nullable(), canMint: z.boolean(), canBurn: z.boolean(), canPause: z.boolean(), canBlocklist: z.boolean(), canSetMultiplier: z.boolean(), paused: z.boolean(), pauses: z.number().int(), blocklistings: z.number().int() }),
      multiplierLag: z.object({ hours: z.number().nullable().describe('Null: not applied yet.'), action: z.string(), peer: z.string() }).nullable(),
      flags: z.array(z.enum(TRUST_FLAGS)),
    })),
  })).optional().describe('wrapper-trust: issuers, unsound first.'),
  impostors: z.array(impostorRow).optional().describe('wrapper-trust: tokens copying a genuine one that no registered issuer lists.'),
  floats: z.array(z.object({
    chain: z.string(), token: address, symbol: z.string(), underlying: z.string(), supplyShares: z.number(), issuerHeldShares: z.number(), floatShares: z.number(), floatUsd: z.number().nullable(),
    inPoolsShares: z.number(), topHoldersPct: z.number(), inPoolsPct: z.number(), holders: z.number().int(), liquidityUsd: z.number(),
    topHolders: z.array(z.object({ address, shares: z.number(), pctOfFloat: z.number() })), cornerScore: z.number(), squeezable: z.boolean(),
  })).optional().describe('float-corner: highest corner score first.'),
  listing: z.object({
    chain: z.string(), token: address, symbol: z.string(), underlying: z.string(), issuer: z.string(), pool: address.nullable(), liquidityAt: isoTime.nullable(), priceNowUsd: z.number().nullable(),
  }).optional().describe('early-buyers: the listing read.'),
  earlyBuyers: z.array(z.object({
    ...walletResult, firstBuyAt: isoTime, minutesAfterLiquidity: z.number(), firstBuyShares: z.number(), firstBuyPriceUsd: z.number(), holding: z.boolean(),
  })).optional(),
  traders: z.object({ best: z.array(z.object(walletResult)), worst: z.array(z.object(walletResult)), withRecord: z.number().int() }).optional().describe('trader-record.'),
  events: z.array(z.object({
    chain: z.string(), token: address, symbol: z.string(), underlying: z.string(), issuer: z.string(),
    ahead: z.object({ kind: z.enum(['split', 'reverse-split', 'dividend', 'earnings']), effectiveAt: isoTime, hoursAhead: z.number(), multiplier: z.object({ now: z.number(), next: z.number() }) }).nullable(),
    premiumPct: z.number().nullable(), liquidityUsd: z.number(),
    past: z.array(z.object({
      kind: z.enum(['split', 'reverse-split', 'dividend', 'earnings']), at: isoTime, multiplier: z.object({ before: z.number(), after: z.number() }).nullable(), underlyingMovePct: z.number().nullable(),
      premiumPct: z.object({ hourBefore: z.number().nullable(), hourAfter: z.number().nullable(), sixHoursAfter: z.number().nullable() }), hoursToFair: z.number().nullable(),
    })),
    worstPremiumAfterPct: z.number().nullable(),
  })).optional().describe('event-risk: events ahead first, then the worst behaved at past events.'),
  portfolio: z.object({
    intent: z.object({ sectors: z.array(z.string()), tickers: z.array(z.string()), stance: z.enum(['cautious', 'balanced', 'bold']), broad: z.boolean() }),
    holdings: z.array(z.object({
      underlying: z.string(), company: z.string(), sector: z.string(), weightPct: z.number(), chain: z.string(), token: address, symbol: z.string(), issuer: z.string(),
      premiumPct: z.number(), liquidityUsd: z.number(), volatilityPct: z.number().nullable(), maxDrawdownPct: z.number().nullable(),
    })),
    excluded: z.array(z.object({ chain: z.string(), token: address, symbol: z.string(), reason: z.string() })),
    volatilityPct: z.number().nullable(), maxDrawdownPct: z.number().nullable(), weighting: z.string(),
    executes: z.literal(false).describe('A proposal: nothing is bought and no transaction is built.'),
  }).optional(),
});

export type RwaAnswer = z.input<typeof output>;
type Answer = RwaAnswer;

const METHODOLOGIES: Record<RwaBoard, string> = {
  'stock-pairs': `stock-pairs/v1 (every genuine wrapper of an underlying with >= $${PAIR_MIN_LIQUIDITY_USD.toLocaleString('en-US')} liquidity, premium to underlying x multiplier)`,
  'pons-stock-pairs': `stock-pairs/v1 on one venue (the stock chain's AMM, ${PONS_VENUE.dex})`,
  'wrapper-trust': `wrapper-trust/v1 (reserves = the issuer's latest attestation against the supply x multiplier at its block, short below ${RESERVE_COVERAGE_FLOOR * 100}%; stale after ${STALE_ATTESTATION_HOURS} h; mints and burns from transfers from and to zero; a multiplier applied more than ${MULTIPLIER_LAG_HOURS} h after a peer wrapper's lags; impostors as stock-markets/v1)`,
  'float-corner': FLOAT_METHODOLOGY,
  'early-buyers': `early-buyers/v1 (the first ${EARLY_BUYERS} distinct wallets to buy within ${EARLY_WINDOW_HOURS} h of the pool's first liquidity, same-block round trips aside; ${TRADES_METHODOLOGY}; average cost, unrealised at the price now)`,
  'trader-record': `trader-record/v1 (wallets with >= ${MIN_RECORD_TRADES} trades in genuine stock tokens on every chain read; ${TRADES_METHODOLOGY}; average-cost realised plus unrealised at the price now)`,
  'event-risk': `event-risk/v1 (ahead: a multiplier change scheduled under ERC-8056's pending extension; past: multiplier changes and earnings read from the feed, an in-session round moving >= ${EARNINGS_MOVE_PCT}%; premium an hour before, an hour and six after, hours until within ${BACK_AT_FAIR_PCT}%)`,
  portfolio: 'stock-portfolio/v1 (sectors, tickers and a stance read from the intent; each underlying through its genuine wrapper with the smallest premium and enough liquidity from a sound issuer; equal or inverse-volatility weights; volatility and drawdown from the feeds resampled hourly in session)',
};

async function admitBoard(input: { board: RwaBoard; token?: string }, ctx: SkillContext): Promise<void> {
  await admitStockMarkets(ctx);
  if (input.board !== 'early-buyers') return;
  for (const name of stockChains(ctx)) {
    const known = await loadMarket(ctx, name).then(({ market }) => market.tokens.has(input.token!.toLowerCase()), () => false);
    if (known) return;
  }
  throw new SibylError('token_not_found', `${input.token} is not a token of any stock chain's index (${stockChains(ctx).join(', ')}); nothing was charged`);
}

export const rwaIntelSkill = defineSkill({
  id: 'rwa-intel',
  title: 'Tokenized-equity intelligence',
  description: 'Tokenized stocks across issuers and chains, valued against the underlying share (its price feed x the token\'s ERC-8056 multiplier): stock pairs and their premiums (all venues, or the stock chain\'s own AMM), wrapper trust (reserves against supply, attestation age, mints and burns, owner powers, multiplier lag, impostors), float and corner risk, the first buyers of a listing, the best and worst traders, event risk around splits, dividends and earnings, and a portfolio proposal for a plain-words objective (never executed).',
  tags: ['rwa', 'tokenized-stocks', 'tokenized-equities', 'stock-tokens', 'equities', 'stocks', 'shares', 'xstocks', 'premium', 'issuer', 'wrapper', 'real-world-assets', 'dividends', 'stock-split', 'earnings', 'market-hours'],
  examples: ['Which tokenized stocks trade at a premium right now?', 'Can I trust the issuer of this stock token?', 'Which stock tokens could be squeezed?', 'Build me a tech stock-token portfolio with low drawdown', 'Who bought this stock token first?'],
  input: z.strictObject({
    board: z.enum(RWA_BOARDS).default('float-corner').describe(`One of ${RWA_BOARDS.join(', ')}; default float-corner.`),
    intent: z.string().trim().min(1).max(500).optional().describe('The objective in plain words, for portfolio (e.g. "tech exposure, low drawdown"); nothing is executed.'),
    token: evmAddressParam('A stock token contract (0x + 40 hex); required for early-buyers.').optional(),
  }).superRefine((i, c) => {
    if (i.board === 'early-buyers' && !i.token) c.addIssue({ code: 'custom', path: ['token'], message: 'is required when board is early-buyers' });
  }),
  price: '0.25',
  toolName: 'rwa_intel',
  surfaces: ['a2a', 'agent'],
  needs: ['stocks'],
  output,
  summarize: (r: Answer) => summary(r),
  admit: async (input, ctx) => admitBoard(input, ctx),
  async handler(input, ctx) {
    const markets = await loadStockMarkets(ctx);
    const head = {
      source: [...new Set(markets.chains.map((c) => c.loaded.chain.source))].join(','),
      asOf: { timestamp: new Date(markets.at * 1000).toISOString() },
      sources: [...markets.sources],
      methodology: `${METHODOLOGIES[input.board]}; ${STOCK_MARKETS_METHODOLOGY}; ${MARKET_METHODOLOGY}`,
      board: input.board, session: sessionAt(markets.at), tokensRead: markets.stocks.length, unavailableChains: [...markets.unavailable],
    };
    if (!markets.stocks.length) return { ...head, available: false, reason: 'no registered issuer lists a stock token on the chains read' };
    const board = await readBoard(input, markets);
    return { ...head, ...board } as Answer;
  },
});

function summary(r: Answer): string {
  if (!r.available) return `${r.board}: ${r.reason}.`;
  const when = r.session === 'closed' ? ' (underlying market closed: premiums against the last close)' : '';
  switch (r.board) {
    case 'stock-pairs':
    case 'pons-stock-pairs': {
      const rows = (r.pairs ?? []).flatMap((p) => p.wrappers.map((w) => ({ ...w, underlying: p.underlying })));
      const line = (w: (typeof rows)[number]) => `${w.symbol} on ${w.chain} ${pct(w.premiumPct)} to ${w.underlying} x ${w.multiplier} (${usd(w.liquidityUsd)} liquidity)`;
      const premiums = rows.filter((w) => w.premiumPct > 0).sort((a, b) => b.premiumPct - a.premiumPct);
      const discounts = rows.filter((w) => w.premiumPct < 0).sort((a, b) => a.premiumPct - b.premiumPct);
      return `Widest premiums${when}: ${premiums.slice(0, 3).map(line).join('; ') || 'none'}; widest discounts: ${discounts.slice(0, 3).map(line).join('; ') || 'none'}.`;
    }
    case 'wrapper-trust': {
      const bad = (r.issuers ?? []).filter((i) => i.verdict !== 'sound');
      return `${(r.issuers ?? []).length} issuers; ${bad.length ? bad.map((i) => `${i.name} on ${i.chain} ${i.verdict} (${[...new Set(i.tokens.flatMap((t) => t.flags))].join(', ')})`).join('; ') : 'all sound'}; ${(r.impostors ?? []).length} impostor token(s)${(r.impostors ?? []).length ? `: ${(r.impostors ?? []).map((i) => `${i.symbol} on ${i.chain} copying ${i.copies.symbol}`).join(', ')}` : ''}.`;
    }
    case 'float-corner':
      return `Most squeezable: ${(r.floats ?? []).slice(0, 3).map((f) => `${f.symbol} on ${f.chain} (score ${f.cornerScore}, top holders ${f.topHoldersPct}% of the float, ${f.inPoolsPct}% in pools)`).join('; ')}.`;
    case 'early-buyers':
      return `First buyers of ${r.listing?.symbol}: ${(r.earlyBuyers ?? []).length}, ${(r.earlyBuyers ?? []).filter((b) => b.pnlUsd > 0).length} in profit; best ${usd(Math.max(...(r.earlyBuyers ?? []).map((b) => b.pnlUsd)))}.`;
    case 'trader-record':
      return `${r.traders?.withRecord} stock-token traders; best ${r.traders?.best.slice(0, 2).map((t) => `${t.wallet} ${usd(t.pnlUsd)}`).join(', ')}; worst ${r.traders?.worst.slice(0, 2).map((t) => `${t.wallet} ${usd(t.pnlUsd)}`).join(', ') || 'none at a loss'}.`;
    case 'event-risk': {
      const ahead = (r.events ?? []).filter((e) => e.ahead);
      return `${ahead.length ? `Ahead: ${ahead.slice(0, 3).map((e) => `${e.symbol} ${e.ahead!.kind} in ${e.ahead!.hoursAhead} h`).join('; ')}` : 'No event scheduled ahead'}; past events read on ${(r.events ?? []).filter((e) => e.past.length).length} token(s).`;
    }
    case 'portfolio':
      return `Proposal (${r.portfolio?.weighting}): ${r.portfolio?.holdings.map((h) => `${h.underlying} ${h.weightPct}% via ${h.symbol} on ${h.chain}`).join(', ')}; volatility ${r.portfolio?.volatilityPct ?? 'n/a'}%, nothing executed.`;
  }
}
