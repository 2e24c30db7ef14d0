/**
 * Accounts for the tool server's paid tools: sign-in with Ethereum (EIP-4361) against a
 * single-use nonce and this server's domain issues a short-lived bearer token (headless agents);
 * OAuth 2.1 access tokens (./oauth, whose login step is the same sign-in) are accepted too. The
 * protected-resource metadata (RFC 9728) says where to get either. Credits are topped up with an
 * x402 payment and read back with their ledger. Nonces and tokens live in the store (hashed), so
 * any instance honours them.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Express, Request } from 'express';
import { z } from 'zod';
import { parseUnits, type Hex, type PublicClient } from 'viem';
import { generateSiweNonce, parseSiweMessage, verifySiweMessage } from 'viem/siwe';
import { SibylError } from '../skills/core/errors.js';
import { CHAINS, PAYMENT_CHAIN } from '../chain/chains.js';
import { CreditLedger, formatAtomic } from '../payments/credits.js';
import { topUpOperation } from '../payments/topup.js';
import { SIGN_IN, signInBody, topUpBody, type creditsAnswer, type nonceAnswer, type signInAnswer } from '../payments/accounts.js';
import type { Store } from '../store/store.js';
import { hasBody, servePaid, type PaidRouteDeps } from './paid-routes.js';
import { parseBody } from '../skills/core/validation.js';
import { MCP_SCOPE } from './oauth/scopes.js';
import { ROUTES } from '../cards/routes.js';

export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** The account an issued bearer token stands for, or null when it is unknown, expired, revoked or not for this server. */
export type TokenResolver = (token: string) => Promise<string | null>;

export class Accounts {
  private readonly resolvers: TokenResolver[] = [];

  constructor(private readonly store: Store, private readonly client: PublicClient) {}

  async nonce(): Promise<string> {
    const nonce = generateSiweNonce();
    await this.store.set(`auth:nonce:${nonce}`, '1', SIGN_IN.nonceTtlMs);
    return nonce;
  }

  /**
   * Verifies the signed message for this server's configured origin (domain, and the URI's origin)
   * and spends its nonce; answers the address that signed. The headless sign-in and the OAuth
   * authorize page both sign in through here. `statement`, when given, is the statement the
   * message must carry (the OAuth page's names the client the signer consents to).
   */
  async verifySignIn(message: string, signature: Hex, origin: string, statement?: string): Promise<{ address: string }> {
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
    if (fields.chainId !== CHAINS[PAYMENT_CHAIN].chainId) throw new SibylError('sign_in_invalid', `message: chain id must be ${CHAINS[PAYMENT_CHAIN].chainId}, got ${fields.chainId ?? 'none'}`);
    if (statement !== undefined && fields.statement !== statement) throw new SibylError('sign_in_invalid', `message: statement must be "${statement}"`);
    if (!(await this.store.get(`auth:nonce:${fields.nonce}`))) throw new SibylError('sign_in_invalid', 'message: unknown or expired nonce; get one from GET /api/auth/nonce');
    const valid = await verifySiweMessage(this.client, { message, signature, domain, nonce: fields.nonce }).catch(() => false);
    if (!valid) throw new SibylError('sign_in_invalid', 'signature: does not sign this message for its address (or the message is expired or not yet valid)');
    // Single use, also when two instances see the same message at once.
    if (!(await this.store.reserve(`auth:nonce-used:${fields.nonce}`, '1', SIGN_IN.nonceTtlMs))) throw new SibylError('sign_in_invalid', 'message: this nonce was already used');
    await this.store.delete(`auth:nonce:${fields.nonce}`);
    return { address: fields.address };
  }

  /** The headless sign-in: a verified message buys a short-lived bearer token. */
  async signIn(message: string, signature: Hex, origin: string): Promise<{ accessToken: string; expiresAt: number; address: string }> {
    const { address } = await this.verifySignIn(message, signature, origin);
    const accessToken = randomBytes(32).toString('base64url');
    const expiresAt = Math.floor((Date.now() + SIGN_IN.tokenTtlMs) / 1000);
    await this.store.set(`auth:token:${sha(accessToken)}`, JSON.stringify({ address, expiresAt }), SIGN_IN.tokenTtlMs);
    return { accessToken, expiresAt, address };
  }

  /**
   * Further bearer tokens to accept (OAuth access tokens, ./oauth): each resolver answers the
   * account behind a token it issued and still honours, else null.
   */
  acceptTokens(resolver: TokenResolver): void {
    this.resolvers.push(resolver);
  }

  /** The account behind an `Authorization: Bearer` header (a sign-in token or an accepted OAuth token), or null. */
  async account(req: Request): Promise<string | null> {
    const token = bearerToken(req);
    if (!token) return null;
    const raw = await this.store.get(`auth:token:${sha(token)}`);
    if (raw) {
      const { address, expiresAt } = JSON.parse(raw) as { address: string; expiresAt: number };
      return expiresAt * 1000 > Date.now() ? address : null;
    }
    for (const resolve of this.resolvers) {
      const address = await resolve(token);
      if (address) return address;
    }
    return null;
  }
}

/**
 * The 401 a paid tool answers without a valid token, pointing to the metadata and naming the scope
 * to ask for; when a token was sent but is not honoured (unknown, expired, revoked, another
 * audience) it says so (RFC 6750 `invalid_token`), so an OAuth client refreshes or signs in again.
 */
export function unauthorized(publicUrl: string, resourcePath: string, req?: Request): SibylError {
  const presented = req !== undefined && bearerToken(req) !== null;
  return new SibylError('unauthorized', presented
    ? 'the bearer token is unknown, expired, revoked or not for this server: sign in again (or refresh it), then retry'
    : 'paid tools need a bearer token: sign in with Ethereum (GET /api/auth/nonce, POST /api/auth/siwe) or through OAuth (the authorization server in the protected-resource metadata), then top up credits', {
    wwwAuthenticate: `Bearer resource_metadata="${publicUrl}${PROTECTED_RESOURCE_PATH}${resourcePath}", scope="${MCP_SCOPE}"${presented ? ', error="invalid_token"' : ''}`,
  });
}

/** The token of an `Authorization: Bearer` header, or null. */
function bearerToken(req: Request): string | null {
  return /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1] ?? null;
}

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
      // The issuer is the configured origin, never a request header (as sign-in messages' domain).
      authorization_servers: [signInOrigin()],
      scopes_supported: [MCP_SCOPE],
      bearer_methods_supported: ['header'],
      resource_name: 'Sibyl MCP tool server (paid tools)',
      resource_documentation: `${url}/openapi.json`,
      'x-sign-in': { method: 'EIP-4361 (sign-in with Ethereum)', chainId: CHAINS[PAYMENT_CHAIN].chainId, nonce: `${url}/api/auth/nonce`, signIn: `${url}/api/auth/siwe`, tokenLifetimeSeconds: SIGN_IN.tokenTtlMs / 1000 },
      'x-credits': { balance: `${url}/api/credits`, topUp: `${url}/api/credits/topup`, payment: 'x402 (USDC on Base)' },
    };
  };
  app.get(PROTECTED_RESOURCE_PATH, (req, res) => void res.json(metadata(req)));
  app.get(`${PROTECTED_RESOURCE_PATH}${resourcePath}`, (req, res) => void res.json(metadata(req)));

  app.get(ROUTES.signInNonce, async (_req, res) => {
    const nonce = await accounts.nonce();
    const origin = signInOrigin();
    res.json({ nonce, domain: new URL(origin).host, uri: origin, chainId: CHAINS[PAYMENT_CHAIN].chainId, expiresInSeconds: SIGN_IN.nonceTtlMs / 1000 } satisfies z.input<typeof nonceAnswer>);
  });
  app.post(ROUTES.signIn, async (req, res) => {
    const { message, signature } = parseBody(signInBody, hasBody(req) ? req.body : undefined);
    const session = await accounts.signIn(message, signature as Hex, signInOrigin());
    res.json({ ...session, tokenType: 'Bearer' } satisfies z.input<typeof signInAnswer>);
  });

  const account = async (req: Request) => {
    const address = await accounts.account(req);
    if (!address) throw unauthorized(deps.publicUrl(req), resourcePath, req);
    return address;
  };
  app.get(ROUTES.credits, async (req, res) => {
    const address = await account(req);
    const balance = await credits.balance(address);
    res.json({ account: address, balance: balance.toString(), balanceUsd: formatAtomic(balance), movements: await credits.movements(address) } satisfies z.input<typeof creditsAnswer>);
  });
  app.post(ROUTES.creditsTopUp, async (req, res) => {
    const address = await account(req);
    const { amountUsd } = parseBody(topUpBody, hasBody(req) ? req.body : undefined);
    const amount = parseUnits(amountUsd, 6);
    await servePaid(topUpOperation(credits, deps.paywall.outbox, address, amount), req, res, deps);
  });
}
