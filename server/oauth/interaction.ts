/**
 * The login-and-consent step of an authorization request: `GET /oauth/interaction/:uid` shows who
 * asks for what and a "Sign in with Ethereum" button (web/client/authorize.ts); the wallet signs a
 * message whose statement names the client, and `POST /oauth/interaction/:uid/login` verifies it
 * exactly as the headless sign-in does (Accounts.verifySignIn), then finishes the interaction with
 * the login and a grant of the requested scopes on the MCP resource: signing is the consent.
 */
import { PAGE_HEADERS } from '../../web/html.js';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type Provider from 'oidc-provider';
import { errors, type Client, type InteractionResults } from 'oidc-provider';
import type { Hex } from 'viem';
import { signInBody } from '../../payments/accounts.js';
import { SibylError } from '../../skills/core/errors.js';
import { parseBody } from '../../skills/core/validation.js';
import type { Accounts } from '../auth.js';
import { MAX_BODY_BYTES } from '../challenge-lane.js';
import { renderErrorPage, renderSignInPage } from './page.js';
import { INTERACTION_PATH, OAUTH_SCOPES } from './provider.js';
import { MCP_SCOPE, mcpResource, mcpResourceNames } from './scopes.js';
import { ROUTES } from '../../cards/routes.js';

export interface InteractionDeps {
  readonly provider: () => Promise<Provider>;
  readonly accounts: Accounts;
  readonly signInOrigin: () => string;
  /** Makes the request look as if it came to the issuer (see index.ts). */
  readonly asIssuer: (req: Request) => void;
}

/** A client's name as one printable line (a SIWE statement is one line of ASCII). */
function displayName(client: Client): string {
  const name = String(client.clientName ?? '').replace(/[^\x20-\x7e]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 80);
  return name || `client ${client.clientId}`;
}

/** The scopes an authorization request asks for that this server grants. */
function requestedScopes(params: Record<string, unknown>): string[] {
  const asked = new Set(String(params.scope ?? '').split(' ').filter(Boolean));
  return OAUTH_SCOPES.filter((s) => asked.has(s));
}

/** The statement the signer agrees to: the client and what it gets, so the signature is the consent. */
export function consentStatement(clientName: string, scopes: readonly string[]): string {
  return scopes.length
    ? `Sign in to Sibyl and allow ${clientName} the scopes: ${scopes.join(', ')}.`
    : `Sign in to Sibyl for ${clientName}.`;
}

/** An interaction that is gone (expired, finished, or opened without its cookie) is a 404 to the page's script. */
function missingInteraction(): SibylError {
  return new SibylError('not_found', 'no such sign-in request: it expired, was already finished, or was opened in another browser; start again from the application');
}

/** The page's refusals answer 400 in the project's shape, naming the field (`message` or `signature`). */
function asBadRequest(err: SibylError): SibylError {
  const field = /^(message|signature):/.exec(err.message)?.[1] ?? 'message';
  return new SibylError('invalid_body', err.message, { fields: [{ field, rule: err.message.replace(/^\w+:\s*/, '') }] });
}

/** The resources a grant covers: those the request named that name the MCP endpoint, else the canonical one. */
function grantedResources(asked: unknown, origin: string): string[] {
  const names = mcpResourceNames(origin);
  const named = [asked].flat().filter((r): r is string => typeof r === 'string' && names.has(r));
  return named.length ? named : [mcpResource(origin)];
}

export function mountInteraction(app: Express, deps: InteractionDeps): void {
  /** The interaction behind the request's cookie, with its client, or null when there is none. */
  const load = async (req: Request, res: Response) => {
    const provider = await deps.provider();
    deps.asIssuer(req);
    let details;
    try {
      details = await provider.interactionDetails(req, res);
    } catch (err) {
      // No interaction cookie, or an interaction that expired or was finished.
      if (err instanceof errors.OIDCProviderError) return null;
      throw err;
    }
    if (details.uid !== req.params.uid) return null;
    const client = await provider.Client.find(String(details.params.client_id));
    if (!client) return null;
    const scopes = requestedScopes(details.params);
    return { provider, details, client, scopes, statement: consentStatement(displayName(client), scopes) };
  };

  app.get(`${INTERACTION_PATH}/:uid`, async (req, res, next: NextFunction) => {
    try {
      const found = await load(req, res);
      res.set('Cache-Control', 'no-store');
      if (!found) {
        return void res.status(404).type('html').set(PAGE_HEADERS).send(renderErrorPage({ error: 'not_found', error_description: missingInteraction().message }));
      }
      const origin = deps.signInOrigin();
      const resource = mcpResource(origin);
      const redirect = URL.parse(String(found.details.params.redirect_uri ?? ''));
      res.type('html').set(PAGE_HEADERS).send(renderSignInPage({
        clientName: displayName(found.client),
        clientId: found.client.clientId,
        ...(found.client.clientUri && { clientUri: found.client.clientUri }),
        redirectHost: redirect?.host || String(found.details.params.redirect_uri ?? ''),
        scopes: found.scopes,
        resource,
        data: {
          loginUrl: `${INTERACTION_PATH}/${found.details.uid}/login`,
          nonceUrl: ROUTES.signInNonce,
          statement: found.statement,
          resources: [resource],
        },
      }));
    } catch (err) {
      next(err);
    }
  });

  // Its own JSON parser: this is mounted before the application's (see index.ts).
  app.post(`${INTERACTION_PATH}/:uid/login`, express.json({ limit: MAX_BODY_BYTES, strict: true }), async (req, res, next: NextFunction) => {
    try {
      const { message, signature } = parseBody(signInBody, req.is('application/json') ? req.body : undefined);
      const found = await load(req, res);
      if (!found) throw missingInteraction();
      const { provider, details, client, scopes } = found;
      let address: string;
      try {
        ({ address } = await deps.accounts.verifySignIn(message, signature as Hex, deps.signInOrigin(), found.statement));
      } catch (err) {
        throw err instanceof SibylError && err.code === 'sign_in_invalid' ? asBadRequest(err) : err;
      }
      // The grant: exactly what was asked, on the MCP resource (the only one there is).
      const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
      const grant = existing && existing.accountId === address ? existing : new provider.Grant({ accountId: address, clientId: client.clientId });
      if (scopes.length) grant.addOIDCScope(scopes.join(' '));
      const missingClaims = (details.prompt.details as { missingOIDCClaims?: string[] }).missingOIDCClaims;
      if (missingClaims?.length) grant.addOIDCClaims(missingClaims);
      // On the resource the client named (the canonical one, or a loopback alias of it the provider accepted).
      if (scopes.includes(MCP_SCOPE)) for (const resource of grantedResources(details.params.resource, deps.signInOrigin())) grant.addResourceScope(resource, MCP_SCOPE);
      const result: InteractionResults = { login: { accountId: address }, consent: { grantId: await grant.save() } };
      const redirectTo = await provider.interactionResult(req, res, result, { mergeWithLastSubmission: false });
      res.set('Cache-Control', 'no-store').json({ redirectTo, account: address });
    } catch (err) {
      next(err);
    }
  });
}
