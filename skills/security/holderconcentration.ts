import { holderConcentration, HOLDERS_METHODOLOGY } from '../intel/holders.js';
import { indexProvenance } from '../intel/provenance.js';
import { resolveToken } from '../intel/resolve.js';
import { tokenOnChainInput } from '../params.js';
import { defineSkill } from '../registry.js';
import { admitToken } from '../admission.js';
import { loadMarket } from '../market/load.js';

export const holderConcentrationSkill = defineSkill({
  id: 'holder-concentration',
  title: 'Holder concentration',
  description: 'How concentrated a token\'s holders are: top-1 and top-10 shares, Gini and Nakamoto coefficients, the top holders, with pools and burn addresses excluded and listed.',
  tags: ['holders', 'distribution', 'security'],
  examples: ['How concentrated are the holders of 0x... on ethereum?', 'Who holds most of this token on base?'],
  input: tokenOnChainInput,
  price: '0.55',
  catalogPrice: '0.35',
  httpPath: '/x402/data/holderconcentration',
  toolName: 'holder_concentration',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
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
