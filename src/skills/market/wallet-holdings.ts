import { z } from 'zod';
import { walletHoldings } from '../../intel/holdings.js';
import { chainParam, evmAddressParam } from '../params.js';
import { defineSkill } from '../registry.js';

export const walletHoldingsSkill = defineSkill({
  id: 'wallet-holdings',
  title: 'Wallet holdings',
  description:
    'ERC-20 balances of a wallet on one EVM chain with USD prices read from DEX pools, plus its native balance and total value.',
  tags: ['wallet', 'portfolio', 'balances'],
  examples: ['What does 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 hold on base?', 'Portfolio value of my wallet on ethereum'],
  input: z.strictObject({
    walletAddress: evmAddressParam('The wallet to inspect (0x + 40 hex).'),
    chain: chainParam('ethereum', ['ethereum', 'base', 'bsc', 'arbitrum', 'polygon']),
  }),
  price: '0.55',
  httpPath: '/x402/data/wallet-holdings',
  toolName: 'wallet_holdings',
  surfaces: ['http', 'a2a', 'mcp', 'agent'],
  async handler(input, ctx) {
    return { ...(await walletHoldings(ctx.chains.get(input.chain), input.walletAddress, ctx.logs)) };
  },
});
