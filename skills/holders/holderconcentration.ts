import { holderConcentration, HOLDERS_METHODOLOGY } from './engine.js';
import { indexProvenance } from '../data/provenance.js';
import { resolveToken } from '../data/resolve.js';
import { tokenOnChainInput } from '../core/params.js';
import { z } from 'zod';
import { address, provenanceShape, tokenRef } from '../core/outputs.js';
import { ENTITY_KINDS } from '../data/entities.js';
import { defineSkill } from '../core/registry.js';
import { share } from '../core/summary.js';
import { admitToken } from '../core/admission.js';
import { loadMarket } from '../data/load.js';

const entityKind = z.enum(ENTITY_KINDS);

export const holderConcentrationSkill = defineSkill({
  id: 'holder-concentration',
  title: 'Holder concentration',
  description: 'How concentrated a token\'s holders are: top-1 and top-10 shares, Gini and Nakamoto coefficients, the top holders, with pools and burn addresses excluded and listed, treasuries, exchanges and protocol contracts marked, and the figures again without them.',
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
    topHolders: z.array(z.object({ address, balance: z.string(), sharePct: z.number(), entity: entityKind.nullable().describe('What the holder is when it is no wallet acting for itself (entities/v1); null for a plain wallet.') })),
    entities: z.array(z.object({ address, balance: z.string(), sharePct: z.number(), entity: entityKind, role: z.string().describe('Within its kind: pool, lending-market, contract, token-deployer, first-mint-holder, custody, protocol-user…') }))
      .describe('The largest holders that are entities (treasuries, issuers, exchanges, protocol contracts, protocol actors), as whale tracking classifies them.'),
    entityCount: z.number().int(),
    withoutEntities: z.object({
      circulating: z.string(), holderCount: z.number().int(), top1Pct: z.number(), top10Pct: z.number(), gini: z.number(), nakamotoCoefficient: z.number().int(),
      topHolders: z.array(z.object({ address, balance: z.string(), sharePct: z.number() })),
    }).describe('The same figures over the wallets acting for themselves: entities left out.'),
  }),
  summarize: (r) => {
    const top = r.topHolders[0];
    const plain = r.withoutEntities;
    return `${r.token.symbol ?? r.token.address}: ${r.holderCount} holders; the largest holds ${share(r.top1Pct)} and the top 10 ${share(r.top10Pct)} of the circulating supply ` +
      `(Gini ${r.gini}; ${r.nakamotoCoefficient} holder${r.nakamotoCoefficient === 1 ? '' : 's'} hold more than half)${top ? `; top: ${top.address}${top.entity ? ` (${top.entity})` : ''}` : ''}` +
      (r.entityCount ? `. Without the ${r.entityCount} entit${r.entityCount === 1 ? 'y' : 'ies'} (treasuries, issuers, exchanges, protocol contracts and actors): ${plain.holderCount} wallets, the largest holding ${share(plain.top1Pct)} and the top 10 ${share(plain.top10Pct)}.` : '.');
  },
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
