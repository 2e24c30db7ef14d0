/** get_bitcoin_cycle_position (free): Bitcoin's cycle position by MVRV, with its inputs, in the free-tool envelope. */
import { z } from 'zod';
import { defineFreeTool, freeOutput, list, record } from '../../core/free.js';
import { CYCLE_METHODOLOGY, cyclePosition } from './engine.js';

export const bitcoinCycleTool = defineFreeTool({
  id: 'bitcoin-cycle-position',
  toolName: 'get_bitcoin_cycle_position',
  title: 'Bitcoin cycle position',
  description: 'Where Bitcoin stands in its market cycle by MVRV (market cap / realised cap, with signal bands and the 7-day trend), with its inputs from the Bitcoin index: NVT, realised and market cap, the last complete day\'s active addresses, transactions, volume, miner revenue and fees, dormant supply, exchange flows, price, and a daily series.',
  tags: ['bitcoin', 'cycle', 'mvrv', 'nvt', 'realized-cap', 'on-chain'],
  examples: ['Where is bitcoin in its market cycle?', 'Is bitcoin overheated by MVRV?'],
  input: z.strictObject({}),
  output: freeOutput({
    source: z.string().optional().describe('The Esplora API, blocks and price source read.'),
    mvrv: z.looseObject({ value: z.number(), signal: z.enum(['undervalued', 'neutral', 'heated', 'overheated']), trend7d: z.number().nullable() }).optional(),
    nvt: z.number().nullable().optional(),
    realizedCap: z.number().optional(), marketCap: z.number().optional(), realizedPrice: z.number().optional(), priceUsd: z.number().optional(),
    day: z.string().optional().describe('The complete UTC day the activity figures are.'),
    activeAddresses: z.number().int().optional(), txCount: z.number().int().optional(), txVolume: z.number().optional(),
    minerRevenue: z.number().optional(), totalFees: z.number().optional(), dormantSupplyPct: z.number().optional(),
    exchangeFlow: z.looseObject({ inflow: z.number(), outflow: z.number(), net: z.number(), signal: z.enum(['net_inflow', 'net_outflow', 'balanced']) }).optional(),
    units: record(),
    timeSeries: list(),
    methodology: z.string().optional(),
  }),
  async read(_input, ctx) {
    const result = cyclePosition(ctx.bitcoin);
    return result.available ? result : { ...result, methodology: CYCLE_METHODOLOGY };
  },
});
