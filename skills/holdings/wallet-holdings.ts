import { z } from 'zod';
import { HOLDINGS_METHODOLOGY, walletHoldings } from './engine.js';
import { indexProvenance } from '../data/provenance.js';
import { loadMarket } from '../data/load.js';
import { FIVE_CHAINS, chainParam, evmAddressParam } from '../core/params.js';
import { defineSkill } from '../core/registry.js';
import { usd } from '../core/summary.js';
import { address, provenanceShape } from '../core/outputs.js';
import { admitMarket } from '../core/admission.js';

export const walletHoldingsSkill = defineSkill({
  id: 'wallet-portfolio',
  title: 'Wallet holdings',
  description:
    'ERC-20 balances of a wallet on one EVM chain, replayed from indexed Transfer logs and valued at DEX pool prices, plus its native balance and total value.',
  tags: ['wallet', 'portfolio', 'balances'],
  examples: ['What does 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 hold on base?', 'Portfolio value of my wallet on ethereum'],
  input: z.strictObject({
    walletAddress: evmAddressParam('The wallet to inspect (0x + 40 hex).'),
    chain: chainParam('ethereum', FIVE_CHAINS),
  }),
  price: '0.55',
  catalogPrice: '0.35',
  httpPath: '/x402/data/wallet-holdings',
  toolName: 'wallet_holdings',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  output: z.object({
    ...provenanceShape,
    wallet: address,
    native: z.object({ symbol: z.string(), balance: z.string().describe('Decimal, in native units.'), priceUsd: z.number().nullable(), valueUsd: z.number().nullable() }),
    holdings: z.array(z.object({
      token: address,
      symbol: z.string().nullable(),
      name: z.string().nullable(),
      decimals: z.number().int(),
      balance: z.string().describe('Decimal, in token units.'),
      priceUsd: z.number().nullable(),
      valueUsd: z.number().nullable(),
      pricedBy: z.string().nullable().describe('The pool that priced it, or peg for the USD stablecoin.'),
      unpricedReason: z.string().optional(),
    })).describe('Largest value first.'),
    totalUsd: z.number(),
    unpricedCount: z.number().int(),
  }),
  summarize: (r) =>
    `${r.wallet} on ${r.chain}: ${usd(r.totalUsd)} in all; ${r.native.balance} ${r.native.symbol}${r.holdings.length ? `; largest: ${r.holdings.slice(0, 3).map((h: { symbol: string | null; token: string; valueUsd: number | null }) => `${h.symbol ?? h.token} ${usd(h.valueUsd)}`).join(', ')}` : '; no token held'}${r.unpricedCount ? `; ${r.unpricedCount} unpriced` : ''}.`,
  admit: (input, ctx) => admitMarket(ctx, input.chain),
  async handler(input, ctx) {
    const { chain, market, checkpoint } = await loadMarket(ctx, input.chain);
    // Balances are replayed over the whole index.
    return { ...indexProvenance(chain, checkpoint, HOLDINGS_METHODOLOGY, 0), ...(await walletHoldings(market, checkpoint, input.walletAddress)) };
  },
});
