/**
 * The credit accounts' documents: the sign-in (EIP-4361) and top-up bodies and what the account
 * routes answer. server/auth.ts serves them, cards/openapi.ts publishes them, and both read them
 * here, so the document cannot drift from the routes.
 */
import { z } from 'zod';
import { CREDIT_TOP_UP_USD } from '../skills/core/money.js';

/** How long a sign-in nonce and a bearer token live. */
export const SIGN_IN = { nonceTtlMs: 10 * 60_000, tokenTtlMs: 60 * 60_000 } as const;

/** The OAuth scope of the paid MCP tools (the authorization server grants it; OpenAPI and the metadata name it). */
export const MCP_SCOPE = 'mcp:tools';

/** What each scope a client can ask for gives it, as the consent page and OpenAPI say it. */
export const SCOPE_MEANINGS: Readonly<Record<string, string>> = {
  [MCP_SCOPE]: 'call Sibyl\'s paid MCP tools, each billed from your prepaid credits',
  offline_access: 'stay signed in: renew its access without asking you again (a refresh token)',
  openid: 'learn your wallet address (an ID token)',
};

/** Bodies of the sign-in and top-up routes (also published in /openapi.json). */
export const signInBody = z.strictObject({
  message: z.string().min(1).max(4_000).describe('The EIP-4361 message.'),
  signature: z.string().regex(/^0x[0-9a-fA-F]+$/, 'must be 0x-prefixed hex').describe('Its signature.'),
});
const usdAmount = z.string().regex(/^\d{1,4}(\.\d{1,6})?$/, 'must be a USD amount such as "5" or "5.00"')
  .refine((v) => Number(v) >= Number(CREDIT_TOP_UP_USD.min) && Number(v) <= Number(CREDIT_TOP_UP_USD.max), `must be ${CREDIT_TOP_UP_USD.min}-${CREDIT_TOP_UP_USD.max}`);
/** The amount as a decimal string ("5.00") or a JSON number (5, 5.25): a number is read as its shortest decimal form. */
export const topUpBody = z.strictObject({
  amountUsd: z.union([z.string(), z.number()], { error: 'must be a USD amount: a string such as "5.00" or a number such as 5' })
    .transform((v) => (typeof v === 'number' ? String(v) : v))
    .pipe(usdAmount)
    .describe(`USD to add, ${CREDIT_TOP_UP_USD.min}-${CREDIT_TOP_UP_USD.max}, at most 6 decimals: a string such as "5.00" or a number such as 5.`),
});

// What the account routes answer: OpenAPI publishes these, and the routes are typed by them.
const atomic = z.string().regex(/^-?\d+$/).describe('Atomic USDC (6 decimals), as a decimal string.');
const usdText = z.string().describe('USD, "$" and two or more decimals.');
export const nonceAnswer = z.object({
  nonce: z.string(), domain: z.string(), uri: z.string().describe('The origin the message must name.'), chainId: z.number().int(), expiresInSeconds: z.number().int(),
});
export const signInAnswer = z.object({ accessToken: z.string(), tokenType: z.literal('Bearer'), expiresAt: z.number().int().describe('Unix seconds.'), address: z.string() });
export const creditsAnswer = z.object({
  account: z.string(), balance: atomic, balanceUsd: usdText,
  movements: z.array(z.object({ at: z.string(), kind: z.enum(['topup', 'debit', 'refund']), amount: atomic, balanceAfter: atomic, ref: z.string() })).describe('Newest first.'),
});
const settlementReceipt = z.looseObject({ success: z.boolean(), transaction: z.string(), network: z.string(), payer: z.string().optional() })
  .describe('The x402 settlement receipt (also in PAYMENT-RESPONSE / X-PAYMENT-RESPONSE).');
/** A credited balance, or null while the credit is queued (the store did not take it yet). */
const shownBalance = {
  balance: atomic.nullable(),
  balanceUsd: usdText.nullable(),
  creditQueued: z.literal(true).optional().describe('The credit is kept and retried because the store did not take it yet.'),
};
/** 200: settled and credited. */
export const topUpAnswer = z.object({ account: z.string(), toppedUp: atomic.describe('The amount credited.'), ...shownBalance, payment: settlementReceipt });
/** 202: paid, settlement pending; credited once, when reconciliation finds it settled. */
export const topUpPendingAnswer = z.object({
  account: z.string(), status: z.literal('settlement_pending'), pendingTopUp: atomic.describe('Credited once settled.'), ...shownBalance, payment: settlementReceipt,
});

