import { indexProvenance } from '../data/provenance.js';
import { resolveToken } from '../data/resolve.js';
import { DEFAULT_SNIPER_WINDOW, detectSnipers, sniperMethodology } from './engine.js';
import { tokenOnChainInput } from '../core/params.js';
import { z } from 'zod';
import { address, isoTime, provenanceShape, tokenRef } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { admitToken } from '../core/admission.js';
import { loadMarket } from '../data/load.js';

export const tokenSnipingSkill = defineSkill({
  id: 'token-sniping',
  title: 'Token sniping',
  description: 'Wallets that bought a token in the first blocks after its liquidity was added, what they bought, what they still hold and what they have sold since.',
  tags: ['snipers', 'launches', 'security'],
  examples: ['Any snipers on token 0x... on base?', 'Who bought this token in the first block on ethereum?'],
  input: tokenOnChainInput,
  price: '1.00',
  catalogPrice: '0.50',
  httpPath: '/x402/data/tokensniping',
  toolName: 'token_sniping',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  output: z.object({
    ...provenanceShape,
    token: tokenRef,
    window: z.object({ blocks: z.number().int(), seconds: z.number().int() }).describe('How soon after first liquidity a buy counts.'),
    pools: z.array(z.object({ pool: address, liquidityBlock: z.number().int(), liquidityAt: isoTime, liquidityProvider: address.nullable() })),
    sniperCount: z.number().int(),
    stillHoldingCount: z.number().int(),
    snipers: z.array(z.object({
      wallet: address, pool: address,
      firstBuyBlock: z.number().int(), blocksAfterLiquidity: z.number().int(), secondsAfterLiquidity: z.number().int(),
      bought: z.number().describe('Token units.'), holdsNow: z.number(), soldSince: z.number(),
      buyTxs: z.array(z.string()),
    })),
  }),
  summarize: (r) =>
    `${r.token.symbol ?? r.token.address}: ${r.sniperCount} sniper${r.sniperCount === 1 ? '' : 's'} bought within ${r.window.blocks} blocks of first liquidity; ${r.stillHoldingCount} still hold` +
    `${r.snipers[0] ? `; first: ${r.snipers[0].wallet}, ${r.snipers[0].blocksAfterLiquidity} blocks after liquidity` : ''}.`,
  admit: (input, ctx) => admitToken(ctx, input.chain, input.tokenAddress),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    const token = resolveToken(market, input.tokenAddress);
    const report = await detectSnipers(chain, market, token);
    const info = market.tokens.get(token)!;
    const firstPool = Math.min(...report.pools.map((p) => p.liquidityBlock), checkpoint.block);
    return {
      ...indexProvenance(chain, checkpoint, sniperMethodology(DEFAULT_SNIPER_WINDOW), firstPool),
      token: { address: info.address, symbol: info.symbol, name: info.name },
      window: DEFAULT_SNIPER_WINDOW,
      pools: report.pools,
      sniperCount: report.snipers.length,
      stillHoldingCount: report.snipers.filter((s) => s.holdsNow > 0).length,
      snipers: report.snipers,
    };
  },
});
