/** How to send one swap without being sandwiched: its price impact, the pool's recent sandwiches, and the settings that protect it. */
import { z } from 'zod';
import { formatUnits, parseUnits } from 'viem';
import { out, sides } from '../arbitrage/engine.js';
import { MARKET_METHODOLOGY, round } from '../data/market.js';
import { SANDWICH_METHODOLOGY, detectSandwiches } from './engine.js';
import { indexProvenance } from '../data/provenance.js';
import { resolveToken } from '../data/resolve.js';
import { SCREEN_VERSION, screenTokens, type TokenScreen } from '../data/screening.js';
import { SibylError } from '../core/errors.js';
import { FIVE_CHAINS, chainParam, tokenParam } from '../core/params.js';
import { address, provenanceShape, screenSummary } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { admitToken } from '../core/admission.js';
import { loadMarket } from '../data/load.js';
import { pct, usd } from '../core/summary.js';

const LOOKBACK_SECONDS = 86_400;
const SLIPPAGE_BUFFER_PCT = 0.3;
const MIN_SLIPPAGE_PCT = 0.5;
/** Above this impact a trade is better split. */
const SPLIT_ABOVE_PCT = 1;

const MEV_PROTECTION_METHODOLOGY = `mev-protection/v2 (the token screened first: a buy of a token failing ${SCREEN_VERSION}, or a sell of a honeypot, is not planned; the swap quoted on the token's deepest pool at current reserves, V2 0.3% fee, net of the token's own tax; sandwiches of that pool over the last 24 h by ${SANDWICH_METHODOLOGY}; slippage tolerance = impact + tax + ${SLIPPAGE_BUFFER_PCT} points, at least ${MIN_SLIPPAGE_PCT}%; value at risk = tolerance x size)`;

const SIDES = ['buy', 'sell'] as const;

export const mevProtectionSkill = defineSkill({
  id: 'mev-protection',
  title: 'MEV protection',
  description: 'Before you swap: whether the token passes the screen (a buy of one that fails is not planned, and says why first), the price impact of your trade on the token\'s deepest pool, how often that pool was sandwiched in the last 24 h, what a sandwich could take at a given slippage, and the slippage, split and private-relay settings that protect the trade.',
  tags: ['mev', 'protection', 'sandwich', 'slippage', 'front-running', 'swap'],
  examples: ['How do I buy $5,000 of DEGEN on base without getting sandwiched?', 'Safe slippage for selling 0x... on ethereum'],
  input: z.strictObject({
    tokenAddress: tokenParam('Token to trade: contract address (0x + 40 hex) or symbol.'),
    chain: chainParam('base', FIVE_CHAINS),
    side: z.enum(SIDES).default('buy').describe('buy (pay the pool\'s quote token) or sell (receive it); default buy.'),
    amountUsd: z.number().min(1).max(10_000_000).default(1_000).describe('Trade size in USD, 1-10,000,000; default 1,000.'),
  }),
  price: '0.50',
  toolName: 'mev_protection',
  surfaces: ['a2a', 'mcp', 'agent'],
  catalog: { rateLimitPerMinute: 20, timeTargetSeconds: 30 },
  output: z.object({
    ...provenanceShape,
    screen: screenSummary,
    token: z.object({ address, symbol: z.string().nullable() }),
    side: z.enum(SIDES),
    amountUsd: z.number(),
    planned: z.boolean().describe('false: the screen refuses the trade (see refusal); no plan follows.'),
    refusal: z.string().optional(),
    screened: z.boolean(),
    risks: z.array(z.string()).describe('The screen\'s findings.'),
    pool: z.object({ pair: address, dex: z.string(), quote: z.string(), quoteLiquidityUsd: z.number() }).optional().describe('The token\'s deepest pool, where the swap is quoted.'),
    expectedOutUsd: z.number().optional(),
    priceImpactPct: z.number().optional(),
    taxPct: z.number().optional(),
    sandwichesLast24h: z.number().int().optional(),
    victimsLast24h: z.number().int().optional(),
    risk: z.enum(['high', 'medium', 'low']).optional(),
    valueAtRiskUsd: z.number().optional().describe('At most what a sandwich can take at the recommended tolerance.'),
    recommendation: z.object({ slippagePct: z.number(), splitInto: z.number().int(), privateRelay: z.boolean(), advice: z.array(z.string()) }).optional(),
  }),
  summarize: (r) => r.planned === false ? `Do not ${r.side} ${r.token.symbol}: ${r.refusal}` : `${r.risks.length ? `Risks first: ${r.risks.join('; ')}. ` : ''}` +
    `${r.side} ${usd(r.amountUsd)} of ${r.token.symbol}: impact ${pct(-r.priceImpactPct)}; ${r.sandwichesLast24h} sandwiches on its pool in 24 h; risk ${r.risk}. ` +
    `Set slippage ${r.recommendation.slippagePct}%${r.recommendation.splitInto > 1 ? `, split into ${r.recommendation.splitInto} trades` : ''}${r.recommendation.privateRelay ? ', send through a private relay' : ''} (at most ${usd(r.valueAtRiskUsd)} at risk).`,
  admit: (input, ctx) => admitToken(ctx, input.chain, input.tokenAddress, { priced: true }),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    const token = resolveToken(market, input.tokenAddress);
    const main = market.mainPool(token);
    const tokenUsd = market.priceNow(token)?.usd;
    const quoteUsd = main && market.priceNow(main.quote)?.usd;
    const [tokenDecimals, quoteDecimals] = [market.decimals(token), main ? market.decimals(main.quote) : null];
    if (!main || !tokenUsd || !quoteUsd || tokenDecimals === null || quoteDecimals === null) {
      throw new SibylError('price_unavailable', `no priced pool trades ${input.tokenAddress} on ${input.chain}; nothing was charged`);
    }
    // The swap on the pool as it stands: pay `in`, receive `out`; impact against the mid price, fee included.
    const [payToken, payDecimals, payUsd, getUsd] = input.side === 'buy' ? [main.quote, quoteDecimals, quoteUsd, tokenUsd] : [token, tokenDecimals, tokenUsd, quoteUsd];
    const getDecimals = input.side === 'buy' ? tokenDecimals : quoteDecimals;
    const amountIn = parseUnits((input.amountUsd / payUsd).toFixed(payDecimals), payDecimals);
    const [rin, rout] = sides(main.pool, payToken);
    const received = Number(formatUnits(out(amountIn, rin, rout), getDecimals)) * getUsd;
    const impactPct = round((1 - received / input.amountUsd) * 100, 4);

    // The screen comes before any advice: a buy of a failing token, or a sell that reverts, is not planned.
    const screen = await screenTokens(market, [token], ctx.store);
    const verdict = screen.of(chain.name, token);
    const tokenRef = { address: market.tokens.get(token)!.address, symbol: market.tokens.get(token)!.symbol };
    const refusal = planRefusal(input.side, verdict);
    if (refusal) {
      return {
        ...indexProvenance(chain, checkpoint, `${MEV_PROTECTION_METHODOLOGY}; ${SCREEN_VERSION}`, checkpoint.block),
        screen: screen.summary('excluded', 1),
        token: tokenRef, side: input.side, amountUsd: input.amountUsd,
        planned: false, refusal, screened: verdict.screened, risks: verdict.risks,
      };
    }
    // A token's own tax comes off before the pool sees the trade: the tolerance must cover it or the swap reverts.
    const taxPct = (input.side === 'buy' ? verdict.buyTaxPct : verdict.sellTaxPct) ?? 0;

    const fromBlock = (await market.reader.firstBlockAtOrAfter(checkpoint.timestamp - LOOKBACK_SECONDS)) ?? checkpoint.block + 1;
    // Every pool's swaps: a leg or a victim may be one hop of a route through other pools.
    const sandwiches = await detectSandwiches(chain, market, await market.reader.swaps(fromBlock, checkpoint.block), { pool: main.pool.pair });
    const slippagePct = round(Math.max(MIN_SLIPPAGE_PCT, impactPct + taxPct + SLIPPAGE_BUFFER_PCT), 2);
    const splitInto = impactPct > SPLIT_ABOVE_PCT ? Math.ceil(impactPct / SPLIT_ABOVE_PCT) : 1;
    const risk = sandwiches.length > 0 ? ('high' as const) : impactPct > SPLIT_ABOVE_PCT ? ('medium' as const) : ('low' as const);
    return {
      ...indexProvenance(chain, checkpoint, `${MEV_PROTECTION_METHODOLOGY}; ${MARKET_METHODOLOGY}; ${SCREEN_VERSION}`, fromBlock),
      screen: screen.summary('excluded'),
      token: tokenRef,
      planned: true,
      screened: verdict.screened,
      risks: verdict.risks,
      pool: { pair: main.pool.pair, dex: main.pool.dex, quote: market.tokens.get(main.quote)?.symbol ?? main.quote, quoteLiquidityUsd: round(main.quoteUsd, 2) },
      side: input.side,
      amountUsd: input.amountUsd,
      expectedOutUsd: round(received * (1 - taxPct / 100), 2),
      priceImpactPct: impactPct,
      taxPct,
      sandwichesLast24h: sandwiches.length,
      victimsLast24h: sandwiches.reduce((n, s) => n + s.victims.length, 0),
      risk,
      valueAtRiskUsd: round((slippagePct / 100) * input.amountUsd, 2),
      recommendation: {
        slippagePct,
        splitInto,
        privateRelay: sandwiches.length > 0,
        advice: [
          ...(taxPct > 0 ? [`the token takes a ${taxPct}% ${input.side} tax before the pool: the tolerance covers it; use the router's fee-on-transfer swap`] : []),
          `set the slippage tolerance to ${slippagePct}%: a sandwich can take at most that`,
          ...(splitInto > 1 ? [`split into ${splitInto} trades of about ${usd(input.amountUsd / splitInto)} to keep each impact near ${SPLIT_ABOVE_PCT}%`] : []),
          ...(sandwiches.length > 0 ? ['this pool was sandwiched in the last 24 h: send through a private relay rather than the public mempool'] : []),
        ],
      },
    };
  },
});

/** Why a trade is not planned, or null: a buy of a token that fails the screen; a sell that cannot go through. */
function planRefusal(side: 'buy' | 'sell', verdict: TokenScreen): string | null {
  if (side === 'buy' && verdict.fails) return `no buy was planned: it fails ${SCREEN_VERSION} (${verdict.failures.join('; ')}).`;
  if (side === 'sell' && verdict.honeypot) return `no sell was planned: ${verdict.failures.join('; ')}; no slippage setting lets a sell through.`;
  return null;
}
