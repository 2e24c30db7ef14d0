/**
 * Liquidation monitor: lending positions by health factor on a chain's Aave v3 market (or the
 * embedded world's market at the same address), read from the chain (liquidations/v1): those at
 * or under a health factor with their collateral and debt, the price fall that liquidates each,
 * and the period's liquidations with the liquidator's bonus.
 */
import { z } from 'zod';
import { CHAINS, LENDING_MARKETS, type EvmChainName } from '../../chain/chains.js';
import { admitChain } from '../core/admission.js';
import { SibylError } from '../core/errors.js';
import { LIQUIDATIONS_METHODOLOGY, firstBlockAtOrAfter, scanLiquidations } from './engine.js';
import { PERIODS } from '../data/periods.js';
import { provenance } from '../data/provenance.js';
import { address, provenanceShape } from '../core/outputs.js';
import { EVM_CHAINS, chainParam, limitParam, periodParam } from '../core/params.js';
import { defineSkill } from '../core/registry.js';
import { usd } from '../core/summary.js';

const holding = z.object({ asset: address, symbol: z.string().nullable(), amount: z.string().describe('Token units.'), valueUsd: z.number().nullable().describe('At the pool oracle\'s price; null without one.') });

const position = z.object({
  borrower: address,
  healthFactor: z.number().describe('Collateral value times its liquidation threshold over debt; liquidatable under 1.'),
  healthFactorRaw: z.string().describe('The pool\'s figure exactly (18 decimals), as a decimal integer.'),
  liquidatable: z.boolean(),
  totalCollateralUsd: z.number(),
  totalDebtUsd: z.number(),
  liquidationThresholdPct: z.number().describe('Collateral-weighted liquidation threshold.'),
  ltvPct: z.number(),
  collateral: z.array(holding),
  debt: z.array(holding),
  priceMoveToLiquidation: z.object({
    pct: z.number().describe('The fall of every collateral price together (debt prices unchanged) that brings the health factor to 1: -(1 - 1/HF) * 100, rounded away from zero; 0 when already liquidatable.'),
    collateral: address.nullable().describe('The one collateral asset, when there is one.'),
    priceUsd: z.number().nullable().describe('Its oracle price now.'),
    liquidationPriceUsd: z.number().nullable().describe('The oracle price at which it becomes liquidatable (just under price / HF).'),
  }),
});

const liquidation = z.object({
  block: z.number().int(), tx: z.string(), borrower: address, liquidator: address,
  collateral: holding.describe('Collateral seized, valued at its block\'s oracle price.'),
  debt: holding.describe('Debt covered, valued at its block\'s oracle price.'),
  receiveAToken: z.boolean(),
  bonusUsd: z.number().nullable().describe('Seized value minus debt covered: what the liquidator made; null where the block\'s prices are unknown.'),
  pricedFrom: z.enum(['block-state', 'oracle-log']).nullable().describe('block-state: read at the block; oracle-log: the oracle\'s last logged price at or before it.'),
});

/** The chains with a lending market to read (chain/chains.ts; the stock chain's too, which find_yield names): a request for another is refused before payment. */
const LENDING_CHAINS = Object.keys(LENDING_MARKETS) as EvmChainName[];

export const liquidationMonitorSkill = defineSkill({
  id: 'liquidation-monitor',
  title: 'Liquidation monitor',
  description: 'Lending positions (Aave v3 interface) by health factor on a chain: every borrower at or under a health factor threshold, lowest first, with its collateral and debt per asset, the price fall that would liquidate it and the liquidation price of a single collateral; and the period\'s liquidations with the collateral seized, the debt covered and the liquidator\'s bonus in USD.',
  tags: ['liquidation', 'lending', 'loans', 'aave', 'health-factor', 'liquidation-threshold', 'borrow', 'borrowers', 'collateral', 'underwater'],
  examples: ['Borrowers about to be liquidated', 'Which loans are close to their liquidation threshold?', 'Aave positions with a health factor under 1.05 on base'],
  input: z.strictObject({
    chain: chainParam('base', EVM_CHAINS),
    maxHealthFactor: z.number().min(1).max(2).default(1.1).describe('Positions with a health factor at or under this, 1-2; default 1.10.'),
    limit: limitParam(1, 100, 10),
    timeperiod: periodParam('24h').describe(`Recent liquidations over this period: one of ${Object.keys(PERIODS).join(', ')}; default 24h.`),
  }),
  price: '0.75',
  toolName: 'liquidation_monitor',
  surfaces: ['a2a', 'mcp', 'agent'],
  catalog: { rateLimitPerMinute: 10, timeTargetSeconds: 60 },
  output: z.object({
    ...provenanceShape,
    protocol: z.string(),
    pool: address,
    oracle: address,
    maxHealthFactor: z.number(),
    timeperiod: z.string(),
    borrowLogs: z.number().int().describe('Borrow logs of the pool read (all blocks to asOf).'),
    borrowers: z.number().int().describe('Distinct borrowers (onBehalfOf) in them.'),
    positionsWithDebt: z.number().int(),
    positionsAtOrUnder: z.number().int().describe('Positions with debt at or under maxHealthFactor (the list stops at limit).'),
    positions: z.array(position).describe('Lowest health factor first.'),
    liquidations: z.object({
      count: z.number().int().describe('LiquidationCall logs in the period.'),
      bonusUsd: z.number().describe('Sum of the priced bonuses.'),
      unpriced: z.number().int(),
      rows: z.array(liquidation).describe('Newest first, up to limit.'),
    }),
  }),
  summarize: (r) => {
    const rows = r.positions as { borrower: string; healthFactor: number; totalDebtUsd: number; priceMoveToLiquidation: { pct: number } }[];
    const liq = `${r.liquidations.count} liquidation${r.liquidations.count === 1 ? '' : 's'} over ${r.timeperiod} (liquidators' bonus ${usd(r.liquidations.bonusUsd)})`;
    if (!rows.length) return `No position on ${r.chain}'s ${r.protocol} pool has a health factor at or under ${r.maxHealthFactor} (${r.positionsWithDebt} with debt); ${liq}.`;
    return `${r.positionsAtOrUnder} of ${r.positionsWithDebt} positions on ${r.chain} are at or under a health factor of ${r.maxHealthFactor}; closest: ` +
      `${rows.slice(0, 3).map((p) => `${p.borrower} at ${p.healthFactor} (${usd(p.totalDebtUsd)} debt, liquidated by a ${Math.abs(p.priceMoveToLiquidation.pct)}% collateral fall)`).join('; ')}; ${liq}.`;
  },
  admit: async (input, ctx) => {
    if (!(LENDING_CHAINS as string[]).includes(input.chain)) {
      throw new SibylError('chain_unavailable', `no lending market is announced on ${CHAINS[input.chain].title} (lending chains: ${LENDING_CHAINS.join(', ')}); nothing was charged`, { reason: 'no_lending_market' });
    }
    admitChain(ctx, input.chain);
  },
  async handler(input, ctx) {
    const chain = ctx.chains.get(input.chain);
    const market = LENDING_MARKETS[chain.name]!;
    const head = await chain.client.getBlock();
    const fromBlock = await firstBlockAtOrAfter(chain, Number(head.timestamp) - PERIODS[input.timeperiod].seconds, head);
    const scan = await scanLiquidations(chain, market, { head: head.number, fromBlock, maxHealthFactor: input.maxHealthFactor, limit: input.limit });
    // A pool announced but not deployed on this chain's node: no answer to sell.
    if (!scan.available) throw new SibylError('chain_unavailable', `${scan.reason}; nothing was charged`, { reason: 'no_lending_pool' });
    const { available: _available, ...found } = scan;
    return {
      ...provenance(chain, { number: head.number, timestamp: head.timestamp }, LIQUIDATIONS_METHODOLOGY, { from: fromBlock > head.number ? head.number : fromBlock, to: head.number }),
      protocol: market.protocol, pool: market.pool, oracle: market.oracle,
      maxHealthFactor: input.maxHealthFactor, timeperiod: input.timeperiod,
      ...found,
    };
  },
});
