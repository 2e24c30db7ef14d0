/**
 * The MCP server's paid tools with the official MCP client: 401 pointing to the metadata without a
 * token, sign-in with Ethereum (single-use nonce, domain bound), a credit top-up paid with the
 * official x402 client, paid calls debiting exactly the price, refunds when nothing is produced,
 * kinds without an engine never debited, concurrent calls that never overdraw, and the legacy
 * per-skill tools paid per call with X-PAYMENT.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { freeToolSkills } from '../../cards/mcp-tools.js';
import { PAID_TOOLS } from '../../skills/catalog/paid-tools.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { freshAddress, fundedPayer, json, payingFetch, postJson, useTestSibyl, usdcBalance, USDC } from '../helpers/sibyl.js';
import { SPEC_PATH_PRICE, SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';

const registry = createRegistry();

describe('MCP paid tools: sign-in, credits, billing', () => {
  const sibyl = useTestSibyl();

  async function signIn(key = generatePrivateKey()) {
    const account = privateKeyToAccount(key);
    const { nonce, domain, uri, chainId } = await json(await fetch(`${sibyl.url}/api/auth/nonce`));
    const message = createSiweMessage({ domain, address: account.address, uri, version: '1', chainId, nonce, statement: 'Sign in to Sibyl' });
    const signature = await account.signMessage({ message });
    const res = await postJson(`${sibyl.url}/api/auth/siwe`, { message, signature });
    return { res, body: await json(res), message, signature, account };
  }

  async function funded(usd: string) {
    const session = await signIn();
    const { key } = await fundedPayer('50');
    const { pay } = payingFetch(key);
    const top = await pay(`${sibyl.url}/api/credits/topup`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${session.body.accessToken}` }, body: JSON.stringify({ amountUsd: usd }) });
    expect(top.status, await top.clone().text()).toBe(200);
    const client = new Client({ name: 'paid-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${sibyl.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${session.body.accessToken}` } } }));
    const balance = async () => BigInt((await json(await fetch(`${sibyl.url}/api/credits`, { headers: { authorization: `Bearer ${session.body.accessToken}` } }))).balance);
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await client.callTool({ name, arguments: args });
      return { isError: r.isError === true, body: r.structuredContent as any, text: (r.content as { text: string }[])[0]?.text };
    };
    return { session, client, balance, call, token: session.body.accessToken as string };
  }

  it('lists 42 tools: 19 free and 23 paid with prices from the registry', async () => {
    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${sibyl.url}/api/mcp`)));
    const { tools } = await client.listTools();
    await client.close();
    expect(tools).toHaveLength(42);
    expect(tools.filter((t) => PAID_TOOLS.some((p) => p.name === t.name))).toHaveLength(23);
    expect(freeToolSkills(registry)).toHaveLength(19);
    const listed = (await json(await fetch(`${sibyl.url}/api/mcp/tools`))).tools;
    const priceOf = (name: string) => listed.find((t: { name: string }) => t.name === name).priceUsd;
    expect([priceOf('ask_service'), priceOf('analyze_token_security'), priceOf('inspect_onchain'), priceOf('analyze_wallet'), priceOf('scan_market'), priceOf('find_yield'), priceOf('run_backtest')])
      .toEqual(['1.00', '0.35-2.00', '0.25-0.35', '0.25-1.00', '0.25-0.60', '0.10-0.75', '0.75-2.00']);
    expect(tools.find((t) => t.name === 'generate_quantum_key')!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
  });

  it('answers a paid call without a token with 401 and WWW-Authenticate pointing to the protected-resource metadata', async () => {
    const res = await postJson(`${sibyl.url}/api/mcp`, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask_service', arguments: { prompt: 'hi' } } }, { accept: 'application/json, text/event-stream' });
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer resource_metadata="/);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1]!;
    const metadata = await json(await fetch(metadataUrl));
    expect(metadata).toMatchObject({ resource: `${sibyl.url}/api/mcp`, authorization_servers: [sibyl.url], bearer_methods_supported: ['header'] });
    expect(await json(await fetch(`${sibyl.url}/.well-known/oauth-protected-resource`))).toMatchObject({ resource: `${sibyl.url}/api/mcp` });
  });

  it('signs in with Ethereum once per nonce, only for this domain', async () => {
    const first = await signIn();
    expect(first.res.status).toBe(200);
    expect(first.body).toMatchObject({ tokenType: 'Bearer', address: first.account.address, expiresAt: expect.any(Number) });
    const replay = await postJson(`${sibyl.url}/api/auth/siwe`, { message: first.message, signature: first.signature });
    expect(replay.status).toBe(401);
    expect((await json(replay)).error.code).toBe('sign_in_invalid');
    const account = privateKeyToAccount(generatePrivateKey());
    const { nonce } = await json(await fetch(`${sibyl.url}/api/auth/nonce`));
    const elsewhere = createSiweMessage({ domain: 'evil.example', address: account.address, uri: 'https://evil.example', version: '1', chainId: 8453, nonce });
    const refused = await postJson(`${sibyl.url}/api/auth/siwe`, { message: elsewhere, signature: await account.signMessage({ message: elsewhere }) });
    expect(refused.status).toBe(401);
    expect((await fetch(`${sibyl.url}/api/credits`, { headers: { authorization: 'Bearer not-a-token' } })).status).toBe(401);
  });

  /** A request with headers fetch will not send as given (Host). */
  function rawRequest(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const req = request(`${sibyl.url}${path}`, { method, headers }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('binds sign-in to the configured origin, never to the Host or X-Forwarded-* headers', async () => {
    // No PUBLIC_URL: the server's configured listening origin, http://HOST:PORT.
    const configured = new URL(sibyl.url);
    const relayed = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
    const issued = await rawRequest('GET', '/api/auth/nonce', relayed);
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({ domain: configured.host, uri: configured.origin, chainId: 8453 });

    const account = privateKeyToAccount(generatePrivateKey());
    for (const headers of [{ host: 'evil.example' }, relayed]) {
      const { nonce } = await json(await fetch(`${sibyl.url}/api/auth/nonce`));
      const phished = createSiweMessage({ domain: 'evil.example', address: account.address, uri: 'https://evil.example', version: '1', chainId: 8453, nonce });
      const refused = await rawRequest('POST', '/api/auth/siwe', { ...headers, 'content-type': 'application/json' },
        JSON.stringify({ message: phished, signature: await account.signMessage({ message: phished }) }));
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('sign_in_invalid');
      expect(refused.body.error.message).toMatch(/domain/);
      expect(refused.body.error.message).toContain(configured.host);
    }

    // The legitimate origin still signs in, whatever Host the request carried.
    const { nonce } = await json(await fetch(`${sibyl.url}/api/auth/nonce`));
    const genuine = createSiweMessage({ domain: configured.host, address: account.address, uri: configured.origin, version: '1', chainId: 8453, nonce });
    const signedIn = await rawRequest('POST', '/api/auth/siwe', { host: 'evil.example', 'content-type': 'application/json' },
      JSON.stringify({ message: genuine, signature: await account.signMessage({ message: genuine }) }));
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ tokenType: 'Bearer', address: account.address });
  });

  it('tops up with x402, debits exactly the price, refunds when nothing is produced, never debits a kind without an engine', async () => {
    const { call, balance, client } = await funded('2');
    expect(await balance()).toBe(2_000_000n);
    const portfolio = await call('analyze_wallet', { walletAddress: privateKeyToAccount(generatePrivateKey()).address, kind: 'portfolio' });
    expect(portfolio.body).toMatchObject({ available: true, skill: 'wallet-portfolio', analysis: expect.any(String) });
    // The text block is the written answer itself, not the record (docs/protocols.md, "Tool results").
    expect(portfolio.text).toBe(portfolio.body.analysis);
    expect(portfolio.body.analysis.length).toBeGreaterThan(0);
    expect(await balance()).toBe(2_000_000n - SPEC_SKILL_PRICE['wallet-portfolio']);

    const nothing = await call('analyze_wallet', { walletAddress: freshAddress(), kind: 'trust' });
    // Nothing produced: the skill's own answer and reason, refunded, as every surface answers it.
    expect(nothing.body).toMatchObject({ available: false, reason: expect.stringMatching(/no activity of this wallet/), charged: false, error: { code: 'no_answer' }, skill: 'wallet-trust-score', billing: { debitedUsd: '$0' } });
    expect(await balance()).toBe(2_000_000n - SPEC_SKILL_PRICE['wallet-portfolio']);

    const asked = await call('ask_service', { prompt: 'List the newest pairs on base' });
    expect(asked.body).toMatchObject({ available: true, skill: 'general-analysis', analysis: expect.stringContaining('Latest DEX pairs'), toolsUsed: [{ skill: 'latest-pairs' }] });
    expect(await balance()).toBe(2_000_000n - SPEC_SKILL_PRICE['wallet-portfolio'] - SPEC_SKILL_PRICE['general-analysis']);

    const disabled = await call('analyze_bitcoin', { kind: 'mempool' });
    expect(disabled.body).toMatchObject({ available: false, reason: 'domain_disabled' });
    const badInput = await call('inspect_onchain', { kind: 'transaction' });
    expect(badInput.isError).toBe(true);
    expect(badInput.text).toMatch(/txHash/);
    // A contract (USDC's): the audit is admitted, and its $2.00 is more than the balance holds.
    const tooDear = await call('analyze_token_security', { tokenAddress: USDC, kind: 'contract_audit' });
    expect(tooDear.body).toMatchObject({ available: false, reason: 'insufficient_credit' });
    expect(await balance()).toBe(2_000_000n - SPEC_SKILL_PRICE['wallet-portfolio'] - SPEC_SKILL_PRICE['general-analysis']);
    await client.close();
  });

  it('tops up with a numeric amount as well as the string form; other types and amounts are refused before any 402', async () => {
    const session = await signIn();
    const auth = { authorization: `Bearer ${session.body.accessToken}` };
    // Unpaid: the challenge asks exactly the amount, whichever form it came in.
    for (const amountUsd of [1.5, '1.5', '1.500000']) {
      const unpaid = await postJson(`${sibyl.url}/api/credits/topup`, { amountUsd }, auth);
      expect(unpaid.status, JSON.stringify(amountUsd)).toBe(402);
      expect((await json(unpaid)).accepts[0].amount).toBe('1500000');
    }
    for (const amountUsd of [true, null, 0.5, 1000.01, 1.0000001, -2, [1], { usd: 1 }, '1e3']) {
      const refused = await postJson(`${sibyl.url}/api/credits/topup`, { amountUsd }, auth);
      expect(refused.status, JSON.stringify(amountUsd)).toBe(400);
      const { error } = await json(refused);
      expect(error.code).toBe('invalid_body');
      expect(error.fields.map((f: { field: string }) => f.field)).toContain('amountUsd');
    }
    const { key } = await fundedPayer('5');
    const { pay } = payingFetch(key);
    const top = await pay(`${sibyl.url}/api/credits/topup`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ amountUsd: 2 }) });
    expect(top.status, await top.clone().text()).toBe(200);
    expect(await json(top)).toMatchObject({ toppedUp: '2000000', balance: '2000000' });
    const account = await json(await fetch(`${sibyl.url}/api/credits`, { headers: auth }));
    expect(account).toMatchObject({ balance: '2000000', movements: [{ kind: 'topup', amount: '2000000' }] });
  });

  it('never overdraws under concurrent calls: a $1.00 balance pays two $0.35 calls of five', async () => {
    const { call, balance, client } = await funded('1');
    const results = await Promise.all(Array.from({ length: 5 }, () => call('analyze_wallet', { walletAddress: privateKeyToAccount(generatePrivateKey()).address, kind: 'portfolio' })));
    const served = results.filter((r) => r.body.available).length;
    expect(served).toBe(2);
    expect(results.filter((r) => r.body.reason === 'insufficient_credit')).toHaveLength(3);
    expect(await balance()).toBe(1_000_000n - 2n * SPEC_SKILL_PRICE['wallet-portfolio']);
    await client.close();
  });

  it('sells the registry skills\' own tool names per call with X-PAYMENT', async () => {
    const rpc = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'latest_pairs', arguments: { chain: 'base', limit: 2 } } };
    const unpaid = await postJson(`${sibyl.url}/api/mcp`, rpc, { accept: 'application/json, text/event-stream' });
    expect(unpaid.status).toBe(402);
    expect((await json(unpaid)).accepts[0].amount).toBe(String(SPEC_PATH_PRICE['latest-pairs']));
    const { key, account } = await fundedPayer('5');
    const { pay } = payingFetch(key);
    const paid = await pay(`${sibyl.url}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(rpc) });
    expect(paid.status).toBe(200);
    // Settled, and the payer paid exactly the operation's spec price.
    expect(decodePaymentResponseHeader(paid.headers.get('payment-response')!)).toMatchObject({ success: true });
    expect(await usdcBalance(account.address)).toBe(5_000_000n - SPEC_PATH_PRICE['latest-pairs']);
    const body = await json(paid);
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 7, result: { structuredContent: { limit: 2, pairs: expect.any(Array) } } });
  });
});
