/**
 * list_service_capabilities: every free and paid tool of the tool server with its price, and how
 * paid tools are billed. It reads the published tool list through the skill context (the surface
 * that serves it gives it), so the answer is the list itself, never a second copy.
 */
import { z } from 'zod';
import { defineFreeTool, envelope, freeOutput } from '../core/free.js';

const tool = { name: z.string(), title: z.string(), description: z.string() };

export const serviceCapabilitiesTool = defineFreeTool({
  id: 'service-capabilities', toolName: 'list_service_capabilities', title: 'Service capabilities',
  description: 'Every free and paid tool of this server with its price, and how paid tools are billed.',
  tags: ['capabilities', 'pricing', 'tools'], input: z.strictObject({}),
  output: freeOutput({
    free: z.array(z.looseObject(tool)).optional(),
    paid: z.array(z.looseObject({ ...tool, priceUsd: z.string().describe('"0.65", or a range "0.35-2.00" over the kinds.') })).optional(),
    billing: z.looseObject({ model: z.string(), signIn: z.string(), topUp: z.string(), perCall: z.string() }).optional(),
  }),
  async read(_input, ctx) {
    const tools = ctx.tools?.list() ?? [];
    return envelope({
      free: tools.filter((t) => t.billing === 'free').map(({ name, title, description }) => ({ name, title, description })),
      paid: tools.filter((t) => t.billing === 'credits').map(({ name, title, description, priceUsd }) => ({ name, title, priceUsd, description })),
      billing: {
        model: 'prepaid credits in USDC, debited per call at the tool\'s price (a range: the kind decides), refunded when nothing is produced',
        signIn: 'EIP-4361: GET /api/auth/nonce, sign, POST /api/auth/siwe for a bearer token (1 h)',
        topUp: 'POST /api/credits/topup { amountUsd } with the bearer token, paid with x402 (USDC on Base)',
        perCall: 'the registry skills\' own tool names (e.g. whale_intel) are paid per call with X-PAYMENT instead',
      },
    }, Date.now(), false, null);
  },
});
