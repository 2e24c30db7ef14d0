/**
 * OAuth 2.1 for the MCP tool server, end to end with the official MCP SDK client: a paid call
 * answers 401, the client discovers the authorization server (RFC 9728, RFC 8414), registers
 * itself (RFC 7591), sends the person to the authorize URL with PKCE; the test does what the
 * sign-in page's browser does (sign the page's EIP-4361 message with a viem account, post it,
 * follow the redirect), the SDK exchanges the code and calls a paid tool billed from credits
 * topped up with x402. Then the refusals: a message for another domain, chain or statement, an
 * unknown, expired or spent nonce, a wrong PKCE verifier, an unregistered redirect URI, another
 * resource, a token of another audience (minted by a second instance on the same Redis), an
 * expired or revoked token; and refresh tokens.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { createHash, randomBytes } from 'node:crypto';
import type { PrivateKeyAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage, parseSiweMessage } from 'viem/siwe';
import { createClient } from 'redis';
import { TEST_REDIS_URL } from '../helpers/env.js';
import { fundedPayer, json, payingFetch, postJson, startTestSibyl, useTestSibyl } from '../helpers/sibyl.js';
import { SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';
import { startPrivateRedis } from '../helpers/redis-server.js';
import { REGISTRATIONS_PER_HOUR } from '../../server/oauth/index.js';

/** Cookies by name, as a browser keeps them for one site (paths ignored: every request sends all). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: this.header() } });
    this.take(res);
    return res;
  }
}

/** The sign-in page: its status and the data its script reads. */
export async function openSignInPage(jar: CookieJar, authorizationUrl: string | URL) {
  const start = await jar.fetch(authorizationUrl);
  if (start.status !== 303 && start.status !== 302) throw new Error(`authorization: ${start.status} ${await start.text()}`);
  const pageUrl = new URL(start.headers.get('location')!, authorizationUrl);
  const page = await jar.fetch(pageUrl);
  const html = await page.text();
  const json = /<script type="application\/json" id="sign-in">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!json) throw new Error(`sign-in page ${page.status}: ${html.slice(0, 300)}`);
  const data = JSON.parse(json) as { loginUrl: string; nonceUrl: string; statement: string; resources: string[] };
  return { pageUrl, html, data, origin: pageUrl.origin };
}

export interface MessageOverrides {
  domain?: string;
  uri?: string;
  chainId?: number;
  nonce?: string;
  statement?: string;
}

/** Builds the message the page's script builds (server's nonce, domain, uri and chain id), with overrides for refusals. */
export async function signInMessage(origin: string, account: PrivateKeyAccount, data: { nonceUrl: string; statement: string; resources: string[] }, overrides: MessageOverrides = {}) {
  const nonce = (await (await fetch(new URL(data.nonceUrl, origin))).json()) as { nonce: string; domain: string; uri: string; chainId: number };
  const message = createSiweMessage({
    domain: nonce.domain, uri: nonce.uri, chainId: nonce.chainId, nonce: nonce.nonce, statement: data.statement, resources: data.resources,
    address: account.address, version: '1', issuedAt: new Date(), ...overrides,
  });
  return { message, signature: await account.signMessage({ message }) };
}

/** Posts a signed message to the page's login URL. */
export function postSignIn(jar: CookieJar, origin: string, loginUrl: string, body: unknown): Promise<Response> {
  return jar.fetch(new URL(loginUrl, origin), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** Follows redirects (keeping cookies) until one leaves `origin`: the redirect back to the client. */
export async function followToClient(jar: CookieJar, from: string, origin: string): Promise<URL> {
  let url = new URL(from, origin);
  for (let hop = 0; hop < 5; hop++) {
    if (url.origin !== origin) return url;
    const res = await jar.fetch(url);
    const location = res.headers.get('location');
    if (!location) throw new Error(`${url}: ${res.status} without a redirect: ${(await res.text()).slice(0, 300)}`);
    url = new URL(location, url);
  }
  throw new Error('too many redirects');
}

/** The whole browser part: the authorization URL in, the client's redirect (with its code) out. */
export async function signInThroughPage(authorizationUrl: string | URL, account: PrivateKeyAccount): Promise<URL> {
  const jar = new CookieJar();
  const { data, origin } = await openSignInPage(jar, authorizationUrl);
  const signed = await signInMessage(origin, account, data);
  const res = await postSignIn(jar, origin, data.loginUrl, signed);
  if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  const { redirectTo } = (await res.json()) as { redirectTo: string };
  return followToClient(jar, redirectTo, origin);
}

/** An OAuthClientProvider kept in memory: what an MCP client application keeps on disk. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  authorizationUrl?: URL;
  private info?: OAuthClientInformationMixed;
  private saved?: OAuthTokens;
  private verifier?: string;

  constructor(readonly redirectUrl: string, readonly clientName = 'Sibyl OAuth test client') {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.info;
  }

  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }

  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }
}

const REDIRECT = 'http://127.0.0.1:53682/callback';
const MCP_ACCEPT = { accept: 'application/json, text/event-stream' };

/** A paid tool call over raw JSON-RPC (stateless server: no initialize needed). */
function paidCall(url: string, token: string | null, walletAddress: string) {
  return postJson(`${url}/api/mcp`, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'analyze_wallet', arguments: { walletAddress, kind: 'portfolio' } } },
    { ...MCP_ACCEPT, ...(token && { authorization: `Bearer ${token}` }) });
}

/** Registers a public client by hand (what the SDK does), answering its client_id. */
async function register(url: string, redirectUris = [REDIRECT]) {
  const res = await postJson(`${url}/oauth/register`, { client_name: 'hand-made client', redirect_uris: redirectUris, grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' });
  return { res, body: await json(res) };
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeUrl(url: string, clientId: string, challenge: string, extra: Record<string, string> = {}) {
  const u = new URL(`${url}/oauth/authorize`);
  const params = { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', scope: 'mcp:tools', resource: `${url}/api/mcp`, state: randomUUID(), ...extra };
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u;
}

function exchange(url: string, clientId: string, code: string, verifier: string, resource = `${url}/api/mcp`) {
  return fetch(`${url}/oauth/token`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT, resource }),
  });
}

/** A client registered by hand, signed in through the page as `account`: its tokens. */
async function handSignIn(url: string, account: PrivateKeyAccount) {
  const { body: client } = await register(url);
  const { verifier, challenge } = pkce();
  const back = await signInThroughPage(authorizeUrl(url, client.client_id, challenge), account);
  const code = back.searchParams.get('code')!;
  const tokens = await json(await exchange(url, client.client_id, code, verifier));
  return { clientId: client.client_id as string, tokens };
}

const sharedRedis = `sibyl-test:oauth:${randomUUID()}:`;

describe('OAuth 2.1 for the MCP tool server', () => {
  // Two instances on one Redis: the second mints tokens for its own origin (another audience).
  const sibyl = useTestSibyl({ redis: sharedRedis });
  const other = useTestSibyl({ redis: sharedRedis });

  afterEach(() => void vi.useRealTimers());

  it('the MCP SDK client signs in through discovery, DCR, PKCE and sign-in with Ethereum, then calls a paid tool billed from credits', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const provider = new MemoryOAuthProvider(REDIRECT);
    const transport = new StreamableHTTPClientTransport(new URL(`${sibyl.url}/api/mcp`), { authProvider: provider });
    const client = new Client({ name: 'oauth-test', version: '1.0.0' });
    await client.connect(transport);
    const args = { walletAddress: account.address, kind: 'portfolio' };

    // A paid call without a token: 401, and the SDK walks discovery and registration to the authorize URL.
    await expect(client.callTool({ name: 'analyze_wallet', arguments: args })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.clientInformation()).toMatchObject({ client_id: expect.any(String) });
    const authUrl = provider.authorizationUrl!;
    expect(authUrl.origin + authUrl.pathname).toBe(`${sibyl.url}/oauth/authorize`);
    expect(Object.fromEntries(authUrl.searchParams)).toMatchObject({ response_type: 'code', code_challenge_method: 'S256', scope: 'mcp:tools', resource: `${sibyl.url}/api/mcp`, redirect_uri: REDIRECT });

    // The page names the client and what it gets; signing its message is the consent.
    const jar = new CookieJar();
    const page = await openSignInPage(jar, authUrl);
    expect(page.html).toContain('Sibyl OAuth test client');
    expect(page.html).toContain('mcp:tools');
    expect(page.data.statement).toBe('Sign in to Sibyl and allow Sibyl OAuth test client the scopes: mcp:tools.');
    const signed = await signInMessage(page.origin, account, page.data);
    const login = await postSignIn(jar, page.origin, page.data.loginUrl, signed);
    expect(login.status, await login.clone().text()).toBe(200);
    const back = await followToClient(jar, (await json(login)).redirectTo, page.origin);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('iss')).toBe(sibyl.url);
    const code = back.searchParams.get('code')!;
    expect(code).toBeTruthy();

    await transport.finishAuth(code);
    const tokens = provider.tokens()!;
    expect(tokens).toMatchObject({ token_type: expect.stringMatching(/^bearer$/i), access_token: expect.any(String), refresh_token: expect.any(String), scope: 'mcp:tools' });

    // The OAuth token is the account: it tops up credits with x402 and reads them back.
    const auth = { authorization: `Bearer ${tokens.access_token}` };
    const { pay } = payingFetch((await fundedPayer('5')).key);
    const top = await pay(`${sibyl.url}/api/credits/topup`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ amountUsd: '1' }) });
    expect(top.status, await top.clone().text()).toBe(200);
    const credits = await json(await fetch(`${sibyl.url}/api/credits`, { headers: auth }));
    expect(credits).toMatchObject({ account: account.address, balance: '1000000' });

    const answer = await client.callTool({ name: 'analyze_wallet', arguments: args });
    expect(answer.structuredContent).toMatchObject({ available: true, skill: 'wallet-portfolio' });
    const after = await json(await fetch(`${sibyl.url}/api/credits`, { headers: auth }));
    expect(BigInt(after.balance)).toBe(1_000_000n - SPEC_SKILL_PRICE['wallet-portfolio']);
    expect(after.movements[0]).toMatchObject({ kind: 'debit', amount: `-${SPEC_SKILL_PRICE['wallet-portfolio']}` });

    // An hour later the access token has expired: the 401 says invalid_token, the SDK refreshes and retries.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3601_000);
    const later = await client.callTool({ name: 'analyze_wallet', arguments: args });
    expect(later.structuredContent).toMatchObject({ available: true, skill: 'wallet-portfolio' });
    expect(provider.tokens()!.access_token).not.toBe(tokens.access_token);
    vi.useRealTimers();
    const last = await json(await fetch(`${sibyl.url}/api/credits`, { headers: { authorization: `Bearer ${provider.tokens()!.access_token}` } }));
    expect(BigInt(last.balance)).toBe(1_000_000n - 2n * SPEC_SKILL_PRICE['wallet-portfolio']);
    await client.close();
  });

  it('a client that reaches the loopback server as localhost signs in too: the token is for the same tool server', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const provider = new MemoryOAuthProvider(REDIRECT);
    const viaLocalhost = sibyl.url.replace('127.0.0.1', 'localhost');
    const transport = new StreamableHTTPClientTransport(new URL(`${viaLocalhost}/api/mcp`), { authProvider: provider });
    const client = new Client({ name: 'oauth-test-localhost', version: '1.0.0' });
    await client.connect(transport);
    const args = { walletAddress: account.address, kind: 'portfolio' };
    await expect(client.callTool({ name: 'analyze_wallet', arguments: args })).rejects.toBeInstanceOf(UnauthorizedError);
    const authUrl = provider.authorizationUrl!;
    expect(authUrl.searchParams.get('resource')).toBe(`${viaLocalhost}/api/mcp`);
    const back = await signInThroughPage(authUrl, account);
    await transport.finishAuth(back.searchParams.get('code')!);
    // Signed in (no credits yet): the tool answers, uncharged, instead of a 401.
    const answer = await client.callTool({ name: 'analyze_wallet', arguments: args });
    expect(answer.structuredContent).toMatchObject({ available: false, reason: 'insufficient_credit' });
    await client.close();
  });

  it('publishes RFC 8414 metadata (PKCE S256, registration, resource scopes) and the resource metadata points to it', async () => {
    const as = await json(await fetch(`${sibyl.url}/.well-known/oauth-authorization-server`));
    expect(as).toMatchObject({
      issuer: sibyl.url,
      authorization_endpoint: `${sibyl.url}/oauth/authorize`,
      token_endpoint: `${sibyl.url}/oauth/token`,
      registration_endpoint: `${sibyl.url}/oauth/register`,
      revocation_endpoint: `${sibyl.url}/oauth/revoke`,
      jwks_uri: `${sibyl.url}/oauth/jwks`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    });
    expect(as.scopes_supported).toContain('mcp:tools');
    expect(as.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(as.token_endpoint_auth_methods_supported).toContain('none');
    expect(await json(await fetch(`${sibyl.url}/.well-known/openid-configuration`))).toMatchObject({ issuer: sibyl.url, token_endpoint: `${sibyl.url}/oauth/token` });
    const prm = await json(await fetch(`${sibyl.url}/.well-known/oauth-protected-resource/api/mcp`));
    expect(prm).toMatchObject({ resource: `${sibyl.url}/api/mcp`, authorization_servers: [sibyl.url], scopes_supported: ['mcp:tools'] });
    const challenge = (await paidCall(sibyl.url, null, privateKeyToAccount(generatePrivateKey()).address)).headers.get('www-authenticate');
    expect(challenge).toBe(`Bearer resource_metadata="${sibyl.url}/.well-known/oauth-protected-resource/api/mcp", scope="mcp:tools"`);
    // Endpoints follow the configured origin, not a forwarded host.
    const forwarded = await json(await fetch(`${sibyl.url}/.well-known/oauth-authorization-server`, { headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' } }));
    expect(forwarded.token_endpoint).toBe(`${sibyl.url}/oauth/token`);
  });

  it('refuses a sign-in message for another domain, uri, chain or statement, an unknown, expired or spent nonce, and a bad signature: 400 naming the field', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const { body: client } = await register(sibyl.url);
    const jar = new CookieJar();
    const page = await openSignInPage(jar, authorizeUrl(sibyl.url, client.client_id, pkce().challenge));
    const refuse = async (body: unknown, pattern: RegExp, field = 'message') => {
      const res = await postSignIn(jar, page.origin, page.data.loginUrl, body);
      const { error } = await json(res);
      expect(res.status, JSON.stringify(error)).toBe(400);
      expect(error).toMatchObject({ code: 'invalid_body', fields: [{ field }] });
      expect(error.message).toMatch(pattern);
    };
    await refuse(await signInMessage(page.origin, account, page.data, { domain: 'evil.example', uri: 'https://evil.example' }), /signed for domain evil\.example/);
    await refuse(await signInMessage(page.origin, account, page.data, { uri: 'https://evil.example/login' }), /uri must be on/);
    await refuse(await signInMessage(page.origin, account, page.data, { chainId: 1 }), /chain id must be 8453/);
    await refuse(await signInMessage(page.origin, account, page.data, { statement: 'Sign in to Sibyl' }), /statement must be/);
    await refuse(await signInMessage(page.origin, account, page.data, { nonce: 'a1b2c3d4e5f6a7b8c9' }), /unknown or expired nonce/);
    const signed = await signInMessage(page.origin, account, page.data);
    const stranger = privateKeyToAccount(generatePrivateKey());
    await refuse({ message: signed.message, signature: await stranger.signMessage({ message: signed.message }) }, /does not sign this message/, 'signature');
    await refuse({ message: signed.message }, /signature/, 'signature');

    // Expired: the nonce's ten minutes run out in Redis (brought forward to now).
    const late = await signInMessage(page.origin, account, page.data);
    const redis = await createClient({ url: TEST_REDIS_URL }).connect();
    try {
      expect(await redis.pTTL(`${sharedRedis}auth:nonce:${parseSiweMessage(late.message).nonce}`)).toBeGreaterThan(9 * 60_000);
      await redis.pExpire(`${sharedRedis}auth:nonce:${parseSiweMessage(late.message).nonce}`, 1);
    } finally {
      await redis.quit();
    }
    await new Promise((r) => setTimeout(r, 20));
    await refuse(late, /unknown or expired nonce/);

    // Spent: a message that signed in once does not sign in again, on this interaction or another.
    const first = await postSignIn(jar, page.origin, page.data.loginUrl, signed);
    expect(first.status).toBe(200);
    const again = new CookieJar();
    const second = await openSignInPage(again, authorizeUrl(sibyl.url, client.client_id, pkce().challenge));
    const replay = await postSignIn(again, second.origin, second.data.loginUrl, signed);
    expect(replay.status).toBe(400);
    expect((await json(replay)).error.message).toMatch(/nonce/);

    // Without the interaction's cookie there is nothing to finish.
    const orphan = await postSignIn(new CookieJar(), second.origin, second.data.loginUrl, await signInMessage(second.origin, account, second.data));
    expect(orphan.status).toBe(404);
    expect((await json(orphan)).error.code).toBe('not_found');
  });

  it('refuses a wrong PKCE verifier, a code used twice, an unregistered redirect URI, plain PKCE, another resource and a non-loopback http redirect URI', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const { body: client } = await register(sibyl.url);
    const { verifier, challenge } = pkce();
    const back = await signInThroughPage(authorizeUrl(sibyl.url, client.client_id, challenge), account);
    const code = back.searchParams.get('code')!;
    const wrong = await exchange(sibyl.url, client.client_id, code, pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(await json(wrong)).toMatchObject({ error: 'invalid_grant' });

    // A refused verifier burns nothing: the right one then redeems the code, once.
    const good = await exchange(sibyl.url, client.client_id, code, verifier);
    const goodBody = await json(good);
    expect(good.status, JSON.stringify(goodBody)).toBe(200);
    expect((await paidCall(sibyl.url, goodBody.access_token, account.address)).status).toBe(200);
    const twice = await exchange(sibyl.url, client.client_id, code, verifier);
    expect(twice.status).toBe(400);
    expect(await json(twice)).toMatchObject({ error: 'invalid_grant' });
    // A code presented twice revokes what it gave (RFC 6749 4.1.2).
    expect((await paidCall(sibyl.url, goodBody.access_token, account.address)).status).toBe(401);

    const unregistered = await fetch(authorizeUrl(sibyl.url, client.client_id, challenge, { redirect_uri: 'http://127.0.0.1:9/elsewhere' }), { redirect: 'manual' });
    expect(unregistered.status).toBe(400);
    expect(unregistered.headers.get('location')).toBeNull();
    expect(await unregistered.text()).toMatch(/redirect_uri/);

    const plain = await fetch(authorizeUrl(sibyl.url, client.client_id, 'x'.repeat(43), { code_challenge_method: 'plain' }), { redirect: 'manual' });
    expect(new URL(plain.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    const noPkce = authorizeUrl(sibyl.url, client.client_id, challenge);
    noPkce.searchParams.delete('code_challenge');
    noPkce.searchParams.delete('code_challenge_method');
    const missing = await fetch(noPkce, { redirect: 'manual' });
    expect(new URL(missing.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');

    const elsewhere = await fetch(authorizeUrl(sibyl.url, client.client_id, challenge, { resource: 'https://evil.example/api/mcp' }), { redirect: 'manual' });
    expect(new URL(elsewhere.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');

    const http = await register(sibyl.url, ['http://app.example/callback']);
    expect(http.res.status).toBe(400);
    expect(http.body).toMatchObject({ error: 'invalid_redirect_uri', error_description: expect.stringMatching(/loopback/) });
    expect((await register(sibyl.url, ['https://app.example/callback'])).res.status).toBe(201);
  });

  it('accepts only tokens for its own MCP resource: another instance\'s token (another audience, same Redis) is refused', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const theirs = await handSignIn(other.url, account);
    expect(theirs.tokens.access_token).toEqual(expect.any(String));
    // Good where it was issued (no credit yet: the tool answers insufficient_credit, nothing debited)...
    const home = await paidCall(other.url, theirs.tokens.access_token, account.address);
    expect(home.status).toBe(200);
    expect(JSON.stringify(await json(home))).toContain('insufficient_credit');
    // ...refused here: its audience is the other origin's /api/mcp.
    const here = await paidCall(sibyl.url, theirs.tokens.access_token, account.address);
    expect(here.status).toBe(401);
    expect((await json(here)).error.code).toBe('unauthorized');
    // And a token for another resource cannot be asked for at all.
    const { body: client } = await register(sibyl.url);
    const { verifier, challenge } = pkce();
    const back = await signInThroughPage(authorizeUrl(sibyl.url, client.client_id, challenge), account);
    const refused = await exchange(sibyl.url, client.client_id, back.searchParams.get('code')!, verifier, `${other.url}/api/mcp`);
    expect(refused.status).toBe(400);
    expect(await json(refused)).toMatchObject({ error: 'invalid_target' });
  });

  it('refreshes tokens; an expired or revoked access token is refused', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const { clientId, tokens } = await handSignIn(sibyl.url, account);
    expect(tokens).toMatchObject({ expires_in: 3600, refresh_token: expect.any(String) });
    expect((await paidCall(sibyl.url, tokens.access_token, account.address)).status).toBe(200);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3601_000);
    const expired = await paidCall(sibyl.url, tokens.access_token, account.address);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toMatch(/scope="mcp:tools", error="invalid_token"$/);
    const refreshed = await fetch(`${sibyl.url}/oauth/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId, resource: `${sibyl.url}/api/mcp` }),
    });
    const fresh = await json(refreshed);
    expect(refreshed.status, JSON.stringify(fresh)).toBe(200);
    expect((await paidCall(sibyl.url, fresh.access_token, account.address)).status).toBe(200);
    vi.useRealTimers();

    const revoked = await fetch(`${sibyl.url}/oauth/revoke`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: fresh.access_token, client_id: clientId }),
    });
    expect(revoked.status).toBe(200);
    expect((await paidCall(sibyl.url, fresh.access_token, account.address)).status).toBe(401);
  });

  it('answers unknown /oauth/ routes with 404 and a non-JSON token request without 415', async () => {
    const unknown = await fetch(`${sibyl.url}/oauth/nothing-here`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error.code).toBe('not_found');
    const interaction = await fetch(`${sibyl.url}/oauth/interaction/abc/other`);
    expect(interaction.status).toBe(404);
    expect((await json(interaction)).error.code).toBe('not_found');
    const form = await fetch(`${sibyl.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code&code=nope&client_id=nobody' });
    expect(form.status).toBe(401);
    expect(await json(form)).toMatchObject({ error: 'invalid_client' });
  });
});

describe('OAuth on two instances behind one origin (one Redis)', () => {
  // PUBLIC_URL names the origin both serve; the test reaches each by its own port.
  const origin = 'http://sibyl.test';
  const prefix = `sibyl-test:oauth-pair:${randomUUID()}:`;
  const a = useTestSibyl({ redis: prefix, env: { PUBLIC_URL: origin } });
  const b = useTestSibyl({ redis: prefix, env: { PUBLIC_URL: origin } });

  /** The origin's URL on one instance. */
  const on = (instance: { url: string }, url: string | URL) => new URL(String(url).replace(origin, instance.url));

  it('signs in on one instance, redeems the code and uses the token on the other, and a revocation on one holds on both', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const metadata = await json(await fetch(`${b.url}/.well-known/oauth-authorization-server`));
    expect(metadata).toMatchObject({ issuer: origin, token_endpoint: `${origin}/oauth/token` });

    // Registered on A, authorized on A (the page's message names the public origin), redeemed on B.
    const reg = await postJson(`${a.url}/oauth/register`, { client_name: 'pair client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    const clientId = (await json(reg)).client_id as string;
    const { verifier, challenge } = pkce();
    const jar = new CookieJar();
    const start = await jar.fetch(on(a, authorizeUrl(origin, clientId, challenge)));
    const page = await jar.fetch(new URL(start.headers.get('location')!, a.url));
    const data = JSON.parse(/id="sign-in">([\s\S]*?)<\/script>/.exec(await page.text())![1]!);
    const signed = await signInMessage(a.url, account, data);
    expect(parseSiweMessage(signed.message)).toMatchObject({ domain: 'sibyl.test', uri: origin });
    const login = await postSignIn(jar, a.url, data.loginUrl, signed);
    expect(login.status, await login.clone().text()).toBe(200);
    const resumed = await jar.fetch(on(a, (await json(login)).redirectTo));
    const back = new URL(resumed.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(REDIRECT);

    const redeemed = await exchange(b.url, clientId, back.searchParams.get('code')!, verifier, `${origin}/api/mcp`);
    const tokens = await json(redeemed);
    expect(redeemed.status, JSON.stringify(tokens)).toBe(200);
    for (const instance of [a, b]) expect((await paidCall(instance.url, tokens.access_token, account.address)).status).toBe(200);

    const revoked = await fetch(`${a.url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: tokens.access_token, client_id: clientId }) });
    expect(revoked.status).toBe(200);
    for (const instance of [a, b]) expect((await paidCall(instance.url, tokens.access_token, account.address)).status).toBe(401);
  });
});

describe('OAuth while the store is down', () => {
  it('answers 503 with Retry-After (a fault of the server, not of the request) and works again once the store is back', async () => {
    const redis = await startPrivateRedis();
    const server = await startTestSibyl({ env: { REDIS_URL: redis.url, REDIS_PREFIX: 'oauth-outage:' } });
    try {
      expect((await register(server.url)).res.status).toBe(201);
      await redis.kill();
      const refused = await register(server.url);
      expect(refused.res.status).toBe(503);
      expect(refused.res.headers.get('retry-after')).toBe('5');
      expect(refused.body).toMatchObject({ error: 'server_error' });
      await redis.restart();
      await expect.poll(async () => (await register(server.url)).res.status, { timeout: 15_000 }).toBe(201);
    } finally {
      await server.close();
      await redis.stop();
    }
  });
});

describe('open registration, bounded', () => {
  it(`lets one address register ${REGISTRATIONS_PER_HOUR} clients an hour, then 429 with Retry-After`, async () => {
    const server = await startTestSibyl();
    try {
      // Near an hour boundary the window may turn mid-test; the count would restart.
      const statuses: number[] = [];
      for (let i = 0; i <= REGISTRATIONS_PER_HOUR; i++) statuses.push((await register(server.url)).res.status);
      expect(statuses.slice(0, REGISTRATIONS_PER_HOUR).every((s) => s === 201)).toBe(true);
      const refused = await register(server.url);
      if (Date.now() % 3_600_000 > 5_000) {
        expect(refused.res.status).toBe(429);
        expect(Number(refused.res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(refused.body.error).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('registrations an hour') });
      }
    } finally {
      await server.close();
    }
  });
});

describe('Client ID Metadata Documents (MCP 2025-11-25)', () => {
  // The client's document at its https URL; the server fetches it through this (the tests have no network).
  const CLIENT_URL = 'https://tools.example/mcp/sibyl-client.json';
  const IMPOSTOR_URL = 'https://tools.example/mcp/impostor.json';
  const document = { client_id: CLIENT_URL, client_name: 'Example tool (metadata document)', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  const fetched: string[] = [];
  const fetchClientDocument = (async (input: string | URL | Request) => {
    const url = String(input instanceof Request ? input.url : input);
    fetched.push(url);
    // A document at another URL that claims CLIENT_URL as its client_id (an impostor), and no document anywhere else.
    const served = url === CLIENT_URL || url === IMPOSTOR_URL ? document : undefined;
    return served
      ? new Response(JSON.stringify(served), { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'max-age=60' } })
      : new Response('not found', { status: 404 });
  }) as typeof fetch;
  const sibyl = useTestSibyl({ fetchClientDocument });

  it('the metadata says so; the MCP SDK client signs in with its document URL as client_id, no registration, and calls a paid tool', async () => {
    const as = await json(await fetch(`${sibyl.url}/.well-known/oauth-authorization-server`));
    expect(as.client_id_metadata_document_supported).toBe(true);

    const account = privateKeyToAccount(generatePrivateKey());
    const provider = Object.assign(new MemoryOAuthProvider(REDIRECT, document.client_name), { clientMetadataUrl: CLIENT_URL });
    const transport = new StreamableHTTPClientTransport(new URL(`${sibyl.url}/api/mcp`), { authProvider: provider });
    const client = new Client({ name: 'oauth-cimd-test', version: '1.0.0' });
    await client.connect(transport);
    const args = { walletAddress: account.address, kind: 'portfolio' };
    await expect(client.callTool({ name: 'analyze_wallet', arguments: args })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.clientInformation()).toMatchObject({ client_id: CLIENT_URL });
    const authUrl = provider.authorizationUrl!;
    expect(authUrl.searchParams.get('client_id')).toBe(CLIENT_URL);

    const jar = new CookieJar();
    const page = await openSignInPage(jar, authUrl);
    // The page names the client as its document does.
    expect(page.html).toContain('Example tool (metadata document)');
    expect(fetched).toContain(CLIENT_URL);
    const signed = await signInMessage(page.origin, account, page.data);
    const login = await postSignIn(jar, page.origin, page.data.loginUrl, signed);
    expect(login.status, await login.clone().text()).toBe(200);
    const back = await followToClient(jar, (await json(login)).redirectTo, page.origin);
    await transport.finishAuth(back.searchParams.get('code')!);
    // Signed in (no credits): the tool answers, uncharged, instead of a 401.
    const answer = await client.callTool({ name: 'analyze_wallet', arguments: args });
    expect(answer.structuredContent).toMatchObject({ available: false, reason: 'insufficient_credit' });
    await client.close();
  });

  it('refuses a client_id URL whose document is missing or names another client', async () => {
    const { challenge } = pkce();
    for (const clientId of ['https://tools.example/none.json', IMPOSTOR_URL]) {
      const refused = await fetch(authorizeUrl(sibyl.url, clientId, challenge), { redirect: 'manual' });
      expect(refused.status, clientId).toBe(400);
      expect(await refused.text(), clientId).toMatch(/invalid_client/);
    }
  });
});
