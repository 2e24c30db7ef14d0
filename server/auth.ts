/**
 * Accounts for the tool server's paid tools: sign-in with Ethereum (EIP-4361) against a
 * single-use nonce and this server's domain issues a short-lived bearer token; the
 * protected-resource metadata (RFC 9728) says where to get one. Credits are topped up with an
 * x402 payment and read back with their ledger. Nonces and tokens live in the store (hashed), so
 * any instance honours them.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Express, Request } from 'express';
import { z } from 'zod';
import { parseUnits, type Hex, type PublicClient } from 'viem';
import { generateSiweNonce, parseSiweMessage, verifySiweMessage } from 'viem/siwe';
import { SibylError } from '../skills/errors.js';
import { CHAINS, PAYMENT_CHAIN } from '../chain/chains.js';
import { CreditLedger, formatAtomic } from './payments/credits.js';
import type { Store } from '../store/store.js';
import { hasBody, servePaid, type PaidRouteDeps } from './paid-routes.js';
import { parseBody } from './validation.js';
import { CREDIT_TOP_UP_USD } from '../skills/money.js';

export const SIGN_IN = { nonceTtlMs: 10 * 60_000, tokenTtlMs: 60 * 60_000 } as const;
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

export class Accounts {
  constructor(private readonly store: Store, private readonly client: PublicClient) {}

  async nonce(): Promise<string> {
    const nonce = generateSiweNonce();
    await this.store.set(`auth:nonce:${nonce}`, '1', SIGN_IN.nonceTtlMs);
    return nonce;
  }

  /**
   * Verifies the signed message for this server's configured origin (domain, and the URI's origin)
   * and spends its nonce; answers a bearer token.
   */
  async signIn(message: string, signature: Hex, origin: string): Promise<{ accessToken: string; expiresAt: number; address: string }> {
    const domain = new URL(origin).host;
    let fields;
    try {
      fields = parseSiweMessage(message);
    } catch {
      throw new SibylError('sign_in_invalid', 'message: not an EIP-4361 sign-in message');
    }
    if (!fields.address || !fields.nonce) throw new SibylError('sign_in_invalid', 'message: address and nonce are required');
    if (fields.domain !== domain) throw new SibylError('sign_in_invalid', `message: signed for domain ${fields.domain}, not ${domain}`);
    let uriOrigin: string | undefined;
    try {
      uriOrigin = fields.uri ? new URL(fields.uri).origin : undefined;
    } catch {
      uriOrigin = undefined;
    }
    if (uriOrigin !== new URL(origin).origin) throw new SibylError('sign_in_invalid', `message: uri must be on ${new URL(origin).origin}, got ${fields.uri ?? 'none'}`);
    if (fields.chainId !== CHAINS[PAYMENT_CHAIN].chainId) throw new SibylError('sign_in_invalid', `message: chain id must be ${CHAINS[PAYMENT_CHAIN].chainId}`);
    if (!(await this.store.get(`auth:nonce:${fields.nonce}`))) throw new SibylError('sign_in_invalid', 'message: unknown or expired nonce; get one from GET /api/auth/nonce');
    const valid = await verifySiweMessage(this.client, { message, signature, domain, nonce: fields.nonce }).catch(() => false);
    if (!valid) throw new SibylError('sign_in_invalid', 'signature: does not sign this message for its address (or the message is expired or not yet valid)');
    // Single use, also when two instances see the same message at once.
    if (!(await this.store.reserve(`auth:nonce-used:${fields.nonce}`, '1', SIGN_IN.nonceTtlMs))) throw new SibylError('sign_in_invalid', 'message: this nonce was already used');
    await this.store.delete(`auth:nonce:${fields.nonce}`);
    const accessToken = randomBytes(32).toString('base64url');
    const expiresAt = Math.floor((Date.now() + SIGN_IN.tokenTtlMs) / 1000);
    await this.store.set(`auth:token:${sha(accessToken)}`, JSON.stringify({ address: fields.address, expiresAt }), SIGN_IN.tokenTtlMs);
    return { accessToken, expiresAt, address: fields.address };
  }

  /** The account behind an `Authorization: Bearer` header, or null. */
  async account(req: Request): Promise<string | null> {
    const match = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
    if (!match) return null;
    const raw = await this.store.get(`auth:token:${sha(match[1]!)}`);
    if (!raw) return null;
    const { address, expiresAt } = JSON.parse(raw) as { address: string; expiresAt: number };
    return expiresAt * 1000 > Date.now() ? address : null;
  }
}

/** The 401 a paid tool answers without a valid token, pointing to the metadata. */
export function unauthorized(publicUrl: string, resourcePath: string): SibylError {
  return new SibylError('unauthorized', 'paid tools need a bearer token: sign in with Ethereum (GET /api/auth/nonce, POST /api/auth/siwe), then top up credits', {
    wwwAuthenticate: `Bearer resource_metadata="${publicUrl}${PROTECTED_RESOURCE_PATH}${resourcePath}"`,
  });
}

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

/**
 * @param signInOrigin the origin sign-in messages must name (PUBLIC_URL, else the configured
 * listening origin); never taken from the request's Host or X-Forwarded-* headers.
 */
export function mountAccounts(app: Express, accounts: Accounts, credits: CreditLedger, deps: PaidRouteDeps, resourcePath: string, signInOrigin: () => string): void {
  deps.paywall.onSettled((record) => credits.settle(record.payer, record.nonce, record.transaction));
  const metadata = (req: Request) => {
    const url = deps.publicUrl(req);
    return {
      resource: `${url}${resourcePath}`,
      authorization_servers: [url],
      bearer_methods_supported: ['header'],
      resource_name: 'Sibyl MCP tool server (paid tools)',
      resource_documentation: `${url}/openapi.json`,
      'x-sign-in': { method: 'EIP-4361 (sign-in with Ethereum)', chainId: CHAINS[PAYMENT_CHAIN].chainId, nonce: `${url}/api/auth/nonce`, signIn: `${url}/api/auth/siwe`, tokenLifetimeSeconds: SIGN_IN.tokenTtlMs / 1000 },
      'x-credits': { balance: `${url}/api/credits`, topUp: `${url}/api/credits/topup`, payment: 'x402 (USDC on Base)' },
    };
  };
  app.get(PROTECTED_RESOURCE_PATH, (req, res) => void res.json(metadata(req)));
  app.get(`${PROTECTED_RESOURCE_PATH}${resourcePath}`, (req, res) => void res.json(metadata(req)));

  app.get('/api/auth/nonce', async (_req, res) => {
    const nonce = await accounts.nonce();
    const origin = signInOrigin();
    res.json({ nonce, domain: new URL(origin).host, uri: origin, chainId: CHAINS[PAYMENT_CHAIN].chainId, expiresInSeconds: SIGN_IN.nonceTtlMs / 1000 } satisfies z.input<typeof nonceAnswer>);
  });
  app.post('/api/auth/siwe', async (req, res) => {
    const { message, signature } = parseBody(signInBody, hasBody(req) ? req.body : undefined);
    const session = await accounts.signIn(message, signature as Hex, signInOrigin());
    res.json({ ...session, tokenType: 'Bearer' } satisfies z.input<typeof signInAnswer>);
  });

  const account = async (req: Request) => {
    const address = await accounts.account(req);
    if (!address) throw unauthorized(deps.publicUrl(req), resourcePath);
    return address;
  };
  app.get('/api/credits', async (req, res) => {
    const address = await account(req);
    const balance = await credits.balance(address);
    res.json({ account: address, balance: balance.toString(), balanceUsd: formatAtomic(balance), movements: await credits.movements(address) } satisfies z.input<typeof creditsAnswer>);
  });
  app.post('/api/credits/topup', async (req, res) => {
    const address = await account(req);
    const { amountUsd } = parseBody(topUpBody, hasBody(req) ? req.body : undefined);
    const amount = parseUnits(amountUsd, 6);
    await servePaid({
      amount,
      description: `Sibyl tool-server credits for ${address}`,
      run: async () => ({}),
      // Credited once the payment settled; a settlement still pending is credited by reconciliation, never before.
      status: (receipt) => (receipt.pending ? 202 : 200),
      async respond(_answer, receipt) {
        // The payment is made (or may be): what it owes is written through the outbox, which keeps
        // and retries it while the store is down, so the answer never becomes an error.
        const { outbox } = deps.paywall;
        const detail = { account: address, payer: receipt.payer, nonce: receipt.nonce, amount: amount.toString(), transaction: receipt.settlement.transaction };
        let balance: bigint | undefined;
        const written = receipt.pending
          ? await outbox.submit('credit-await-settlement', detail, () => credits.awaitSettlement(receipt.payer, receipt.nonce, address, amount))
          : await outbox.submit('credit-topup', detail, async () => {
              balance = await credits.topUp(address, amount, `x402:${receipt.settlement.transaction}`, receipt);
            });
        // The balance is shown when the store answers at once; the answer never waits on it.
        if (written && receipt.pending) balance = await Promise.race([credits.balance(address), new Promise<undefined>((r) => setTimeout(() => r(undefined), 500).unref())]).catch(() => undefined);
        const credited = receipt.pending ? { status: 'settlement_pending' as const, pendingTopUp: amount.toString() } : { toppedUp: amount.toString() };
        // Not written yet: the credit is queued in this instance and lands when the store is back.
        const shown = balance === undefined ? { balance: null, balanceUsd: null, creditQueued: true as const } : { balance: balance.toString(), balanceUsd: formatAtomic(balance) };
        return { account: address, ...credited, ...shown, payment: receipt.settlement } satisfies z.input<typeof topUpAnswer> | z.input<typeof topUpPendingAnswer>;
      },
    }, req, res, deps);
  });
}
