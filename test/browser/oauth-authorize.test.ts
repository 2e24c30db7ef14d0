/**
 * The OAuth sign-in page in Chromium: an authorization request (a registered public client, PKCE
 * S256) lands on /oauth/interaction/:uid, which names the client and what it gets; "Sign in with
 * Ethereum" has the injected EIP-1193 test wallet sign the page's EIP-4361 message, and the browser
 * is sent back to the client's redirect URI with a code the test exchanges for a token that the
 * tool server accepts. A refusal (a message for another domain) is shown on the page as the server
 * worded it.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { parseSiweMessage } from 'viem/siwe';
import { hexToString, type Hex } from 'viem';
import { injectWallet, launchBrowser, saveScreenshot, trackCspViolations } from '../helpers/browser.js';
import { json, postJson, useTestSibyl } from '../helpers/sibyl.js';

const CLIENT_NAME = 'Browser Test MCP Client';

let browser: Browser;
/** The client's loopback listener (as a native MCP client runs one): what the browser is sent back to. */
let listener: Server;
let REDIRECT: string;
beforeAll(async () => {
  browser = await launchBrowser();
  listener = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>back at the client</p>'));
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  REDIRECT = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback`;
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => listener?.close(resolve));
});

describe('OAuth sign-in page', () => {
  const sibyl = useTestSibyl();

  /** A registered client and an authorization URL with a fresh PKCE pair. */
  async function authorization() {
    const reg = await postJson(`${sibyl.url}/oauth/register`, { client_name: CLIENT_NAME, redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' });
    expect(reg.status).toBe(201);
    const clientId = (await json(reg)).client_id as string;
    const verifier = randomBytes(32).toString('base64url');
    const url = new URL(`${sibyl.url}/oauth/authorize`);
    const state = randomUUID();
    for (const [k, v] of Object.entries({
      response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, scope: 'mcp:tools', resource: `${sibyl.url}/api/mcp`, state,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
    })) url.searchParams.set(k, v);
    return { clientId, verifier, url, state };
  }

  it('signs in with the injected wallet, returns a code to the client, and the code buys a token the tool server accepts', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const { clientId, verifier, url, state } = await authorization();
    const context = await browser.newContext({ viewport: { width: 900, height: 760 } });
    try {
      const page = await context.newPage();
      const blocked = trackCspViolations(page);
      const wallet = await injectWallet(page, account, 8453);

      await page.goto(url.href);
      expect(page.url()).toMatch(new RegExp(`^${sibyl.url}/oauth/interaction/[\\w-]+$`));
      await expect.poll(() => page.locator('h1').textContent()).toBe('Sign in to Sibyl');
      expect(await page.locator('#client-name').textContent()).toBe(CLIENT_NAME);
      expect(await page.locator('#scopes').textContent()).toContain('mcp:tools');
      await saveScreenshot(page, 'oauth-authorize');

      await Promise.all([page.waitForURL((u) => u.href.startsWith(REDIRECT), { timeout: 20_000 }), page.locator('#sign-in-button').click()]);
      const back = new URL(page.url());
      expect(back.searchParams.get('state')).toBe(state);
      expect(back.searchParams.get('iss')).toBe(sibyl.url);
      const code = back.searchParams.get('code')!;
      expect(code).toBeTruthy();

      // The wallet was asked for its account, then to sign the page's message naming the client.
      const sign = wallet.requests.find((r) => r.method === 'personal_sign')!;
      expect(sign).toBeDefined();
      const message = parseSiweMessage(hexToString((sign.params as [Hex])[0]));
      expect(message).toMatchObject({ domain: new URL(sibyl.url).host, uri: sibyl.url, chainId: 8453, address: account.address, statement: `Sign in to Sibyl and allow ${CLIENT_NAME} the scopes: mcp:tools.` });

      const token = await fetch(`${sibyl.url}/oauth/token`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT, resource: `${sibyl.url}/api/mcp` }),
      });
      const tokens = await json(token);
      expect(token.status, JSON.stringify(tokens)).toBe(200);
      const credits = await fetch(`${sibyl.url}/api/credits`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(credits.status).toBe(200);
      expect(await json(credits)).toMatchObject({ account: account.address, balance: '0' });
      expect(blocked).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the server\'s refusal of a message signed for another domain, and sends the browser nowhere', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const { url } = await authorization();
    const context = await browser.newContext({ viewport: { width: 900, height: 760 } });
    try {
      const page = await context.newPage();
      const blocked = trackCspViolations(page);
      await injectWallet(page, account, 8453);
      // A phishing page's nonce: the real nonce, but another site's domain and URI.
      await page.route('**/api/auth/nonce', async (route) => {
        const real = await (await route.fetch()).json();
        await route.fulfill({ json: { ...real, domain: 'evil.example', uri: 'https://evil.example' } });
      });
      await page.goto(url.href);
      const interaction = page.url();
      await page.locator('#sign-in-button').click();
      const status = page.locator('#status.error');
      await status.waitFor({ timeout: 20_000 });
      expect(await status.textContent()).toBe(`Sign-in refused: message: signed for domain evil.example, not ${new URL(sibyl.url).host}`);
      expect(page.url()).toBe(interaction);
      await saveScreenshot(page, 'oauth-authorize-refused');
      expect(blocked).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
