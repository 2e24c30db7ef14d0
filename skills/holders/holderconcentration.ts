import { holderConcentration, HOLDERS_METHODOLOGY } from './engine.js';
import { indexProvenance } from '../data/provenance.js';
import { resolveToken } from '../data/resolve.js';
import { tokenOnChainInput } from '../core/params.js';
import { z } from 'zod';
import { address, provenanceShape, tokenRef } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { share } from '../core/summary.js';
import { admitToken } from '../core/admission.js';
import { loadMarket } from '../data/load.js';

export const holderConcentrationSkill = defineSkill({
  id: 'holder-concentration',
  title: 'Holder concentration',
  description: 'How concentrated a token\'s holders are: top-1 and top-10 shares, Gini and Nakamoto coefficients, the top holders, with pools and burn addresses excluded and listed.',
  tags: ['holders', 'top-holders', 'who-holds', 'distribution', 'security'],
  examples: ['How concentrated are the holders of 0x... on ethereum?', 'Who holds most of this token on base?'],
  input: tokenOnChainInput,
  price: '0.55',
  catalogPrice: '0.35',
  httpPath: '/x402/data/holderconcentration',
  toolName: 'holder_concentration',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  output: z.object({
    ...provenanceShape,
    token: tokenRef,
    totalSupply: z.string().describe('Decimal, token units.'),
    circulating: z.string().describe('Supply outside the excluded addresses.'),
    holderCount: z.number().int(),
    top1Pct: z.number(),
    top10Pct: z.number(),
    gini: z.number().describe('0 (equal) to 1.'),
    nakamotoCoefficient: z.number().int().describe('Fewest holders that hold more than half.'),
    excluded: z.array(z.object({ address, reason: z.string().describe('liquidity_pool, burn_address or token_contract.'), balance: z.string() })),
    topHolders: z.array(z.object({ address, balance: z.string(), sharePct: z.number() })),
  }),
  summarize: (r) =>
    `${r.token.symbol ?? r.token.address}: ${r.holderCount} holders; the largest holds ${share(r.top1Pct)} and the top 10 ${share(r.top10Pct)} of the circulating supply ` +
    `(Gini ${r.gini}; ${r.nakamotoCoefficient} holder${r.nakamotoCoefficient === 1 ? '' : 's'} hold more than half)${r.topHolders[0] ? `; top: ${r.topHolders[0].address}` : ''}.`,
  admit: (input, ctx) => admitToken(ctx, input.chain, input.tokenAddress),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    const token = resolveToken(market, input.tokenAddress);
    const info = market.tokens.get(token)!;
    const report = await holderConcentration(market, await market.reader.balances(token), token);
    return {
      ...indexProvenance(chain, checkpoint, HOLDERS_METHODOLOGY, 0),
      token: { address: info.address, symbol: info.symbol, name: info.name },
      ...report,
    };
  },
});
