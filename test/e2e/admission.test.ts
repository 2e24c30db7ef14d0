/**
 * Refusals before payment (docs/protocols.md, "Refusals before payment"): what the request alone decides (a chain that
 * is not EVM, has no indexed DEX or is not indexed by this deployment, a token unknown to the index,
 * a forecast its history cannot feed) is answered with the documented status and code before any
 * 402, on every surface: HTTP operations and aliases, typed bodies on the report path, A2A skill
 * endpoints and JSON-RPC tasks, MCP tools paid per call and MCP tools billed from credits. The
 * official x402 client never signs, no USDC moves and no credit is debited.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import { ClientFactory, ServiceParameters, withA2AExtensions } from '@a2a-js/sdk/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generatePrivateKey } from 'viem/accounts';
import { X402_EXTENSION_URI } from '../../cards/agent-card.js';
import { X402_META } from '../../agent/a2a-executor.js';
import { freshAddress, fundedPayer, signInBearer, json, payingFetch, postJson, rpcUrl, useTestSibyl, usdcBalance } from '../helpers/sibyl.js';

type Case = readonly [path: string, body: Record<string, unknown>, status: number, code: string];

/** Statuses and codes as docs/protocols.md's error table and docs/skills.md's operation notes give them. */
const UNSERVED: readonly Case[] = [
  // "a chain that is not EVM (`solana` outside curve-*: `503 chain_unavailable`, `reason: "not_evm"`),
  // one with no indexed DEX (`zksync`: `reason: "no_dex"`), one this deployment does not index
  // (`reason: "not_indexed"`)"
  ['/x402/data/latest-pairs', { chain: 'zksync' }, 503, 'chain_unavailable'],
  ['/x402/data/latest-pairs', { chain: 'solana' }, 503, 'chain_unavailable'],
  ['/x402/data/top-tokens', { chain: 'zksync' }, 503, 'chain_unavailable'],
  ['/x402/data/top-tokens', { chain: 'solana', timeperiod: '7d' }, 503, 'chain_unavailable'],
  ['/x402/data/topvolume', { chain: 'solana' }, 503, 'chain_unavailable'],
  ['/x402/data/whaleintel', { chain: 'zksync' }, 503, 'chain_unavailable'],
  // The alias sells the same operation, refused the same way.
  ['/x402/data/arbitragescanner', { chain: 'solana' }, 503, 'chain_unavailable'],
  ['/x402/data/arbitrage-scanner', { chain: 'zksync' }, 503, 'chain_unavailable'],
  // "when none can be read it charges nothing"
  ['/x402/data/investment-report', { chains: ['zksync', 'solana'] }, 503, 'chain_unavailable'],
  // token_not_found: "neither an address nor a symbol this chain's index knows"
  ['/x402/data/tokenchart', { tokenAddress: freshAddress() }, 404, 'token_not_found'],
  ['/x402/data/tokenchart', { tokenAddress: 'NOSUCHTOKEN' }, 404, 'token_not_found'],
  ['/x402/data/tokenchart/raw', { tokenAddress: freshAddress(), chain: 'ethereum' }, 404, 'token_not_found'],
  ['/x402/data/ohlcv', { tokenAddress: 'NOSUCHTOKEN', chain: 'arbitrum' }, 404, 'token_not_found'],
  ['/x402/data/holderconcentration', { tokenAddress: freshAddress() }, 404, 'token_not_found'],
  ['/x402/data/tokensniping', { tokenAddress: 'NOSUCHTOKEN', chain: 'bsc' }, 404, 'token_not_found'],
  ['/x402/data/rug-pull-scanner', { tokenAddress: freshAddress(), chain: 'polygon' }, 404, 'token_not_found'],
  // "Fewer than 16 candles ... 503 and nothing charged": the devnet holds minutes, not 30 daily candles.
  ['/x402/data/tokenchart', { tokenAddress: 'WETH', timeperiod: '30d', forecast: true }, 503, 'forecast_unavailable'],
  // Typed capability bodies on the report path, at the capability's own rules.
  ['/x402/svc/report', { service: 'technical-analysis', token: 'NOSUCHTOKEN' }, 404, 'token_not_found'],
  ['/x402/svc/report', { service: 'mev-protection', tokenAddress: freshAddress() }, 404, 'token_not_found'],
  ['/x402/svc/report', { service: 'top-gainers', chain: 'solana' }, 503, 'chain_unavailable'],
  ['/x402/svc/report', { service: 'chart-forecast', token: 'WETH', timeperiod: '30d' }, 503, 'forecast_unavailable'],
  // A2A skill endpoints; chain-markets' stocks on a stock chain without feeds are "503 chain_unavailable, uncharged".
  ['/api/a2a/skills/latest-pairs', { params: { chain: 'zksync' } }, 503, 'chain_unavailable'],
  ['/api/a2a/skills/token-sniping', { params: { tokenAddress: freshAddress() } }, 404, 'token_not_found'],
  ['/api/a2a/skills/chain-markets', { params: { kind: 'stock' } }, 503, 'chain_unavailable'],
];

/** Servable requests: the same paths still ask for payment, so the refusals above are the request's own. */
const SERVED: readonly (readonly [string, Record<string, unknown>])[] = [
  ['/x402/data/latest-pairs', { chain: 'base' }],
  ['/x402/data/tokenchart', { tokenAddress: 'WETH' }],
  ['/x402/data/investment-report', { chains: ['base', 'zksync'] }],
  ['/api/a2a/skills/latest-pairs', { params: { chain: 'base' } }],
];

const a2aExtensions = { serviceParameters: ServiceParameters.create(withA2AExtensions(X402_EXTENSION_URI)) };
const message = (value: unknown): Message => ({
  messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, metadata: undefined, extensions: [], referenceTaskIds: [],
  parts: [{ content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' }],
});
const mcpHeaders = { accept: 'application/json, text/event-stream' };

describe('refusals before payment', () => {
  const sibyl = useTestSibyl();

  it.each(UNSERVED)('%s %j → %i %s before any 402', async (path, body, status, code) => {
    const res = await postJson(`${sibyl.url}${path}`, body);
    const answer = await json(res);
    expect(res.status, JSON.stringify(answer)).toBe(status);
    expect(answer.error).toMatchObject({ code, message: expect.any(String) });
    expect(res.headers.get('payment-required')).toBeNull();
  });

  it.each(SERVED)('%s %j still answers 402 unpaid', async (path, body) => {
    expect((await postJson(`${sibyl.url}${path}`, body)).status).toBe(402);
  });

  it('the official x402 client never signs for a refused request, and no USDC moves', async () => {
    const { key, account } = await fundedPayer('5');
    const { pay, seen } = payingFetch(key);
    for (const [path, body, status, code] of UNSERVED) {
      const res = await pay(`${sibyl.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status, path).toBe(status);
      expect((await json(res)).error.code, path).toBe(code);
    }
    expect(seen).toEqual([]);
    expect(await usdcBalance(account.address)).toBe(5_000_000n);
    expect(await usdcBalance(sibyl.payTo)).toBe(0n);
  });

  it('A2A JSON-RPC: a refused request is rejected with its code, never put in input-required with payment-required', async () => {
    const a2a = await new ClientFactory().createFromUrl(sibyl.url);
    const cases: [unknown, string][] = [
      [{ skill: 'latest-pairs', params: { chain: 'solana' } }, 'chain_unavailable'],
      [{ skill: 'top-gainers', params: { chain: 'zksync' } }, 'chain_unavailable'],
      [{ skill: 'security-scan', params: { tokenAddress: freshAddress() } }, 'token_not_found'],
      [{ skill: 'chart-forecast', params: { token: 'WETH', timeperiod: '30d' } }, 'forecast_unavailable'],
    ];
    for (const [request, code] of cases) {
      const task = (await a2a.sendMessage({ message: message(request) } as never, a2aExtensions)) as Task;
      expect(task.status!.state, JSON.stringify(request)).toBe(TaskState.TASK_STATE_REJECTED);
      expect(task.metadata?.[X402_META.status]).toBeUndefined();
      expect(task.metadata?.[X402_META.required]).toBeUndefined();
      expect(JSON.stringify(task.status!.message)).toContain(code);
    }
    const served = (await a2a.sendMessage({ message: message({ skill: 'latest-pairs', params: { chain: 'base' } }) } as never, a2aExtensions)) as Task;
    expect(served.status!.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(served.metadata![X402_META.status]).toBe('payment-required');
  });

  it('MCP per-call tools: a refused call is an error result, not a 402, and the paying client never signs', async () => {
    const calls: [string, Record<string, unknown>, string][] = [
      ['latest_pairs', { chain: 'zksync' }, 'chain_unavailable'],
      ['top_tokens', { chain: 'solana' }, 'chain_unavailable'],
      ['holder_concentration', { tokenAddress: freshAddress() }, 'token_not_found'],
    ];
    const { key, account } = await fundedPayer('2');
    const { pay, seen } = payingFetch(key);
    for (const [name, args, code] of calls) {
      const rpc = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name, arguments: args } };
      for (const res of [
        await postJson(`${sibyl.url}/api/mcp`, rpc, mcpHeaders),
        await pay(`${sibyl.url}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', ...mcpHeaders }, body: JSON.stringify(rpc) }),
      ]) {
        expect(res.status, name).toBe(200);
        const body = await json(res);
        expect(body).toMatchObject({ jsonrpc: '2.0', id: 9, result: { isError: true } });
        expect(body.result.content[0].text, name).toMatch(new RegExp(`^${code}:`));
      }
    }
    expect(seen).toEqual([]);
    expect(await usdcBalance(account.address)).toBe(2_000_000n);
  });

  it('MCP credit-billed tools: a refused call answers its code with nothing debited (no debit in the ledger)', async () => {
    const key = generatePrivateKey();
    const auth = await signInBearer(sibyl.url, key);
    const { pay } = payingFetch((await fundedPayer('5')).key);
    const topUp = await pay(`${sibyl.url}/api/credits/topup`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ amountUsd: '1' }) });
    expect(topUp.status).toBe(200);

    const client = new Client({ name: 'admission-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${sibyl.url}/api/mcp`), { requestInit: { headers: auth } }));
    const calls: [string, Record<string, unknown>, string][] = [
      ['find_arbitrage', { kind: 'dex', chain: 'solana' }, 'chain_unavailable'],
      ['track_whales', { venue: 'smart_money', chain: 'solana' }, 'chain_unavailable'],
      ['analyze_token_security', { tokenAddress: freshAddress(), kind: 'holders' }, 'token_not_found'],
      ['forecast_chart', { token: 'WETH', timeframe: '1d' }, 'forecast_unavailable'],
    ];
    for (const [name, args, code] of calls) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.structuredContent, name).toMatchObject({ available: false, reason: code, billing: { debitedUsd: '$0' } });
    }
    await client.close();
    const account = await json(await fetch(`${sibyl.url}/api/credits`, { headers: auth }));
    expect(account.balance).toBe('1000000');
    expect(account.movements.map((m: { kind: string }) => m.kind)).toEqual(['topup']);
  });
});

describe('a chain configured elsewhere but not indexed by this deployment', () => {
  // This server indexes base only; the other EVM chains are valid values it does not serve.
  const sibyl = useTestSibyl({ rpcUrls: { base: rpcUrl('base') } });

  it.each([
    ['/x402/data/latest-pairs', { chain: 'ethereum' }],
    ['/x402/data/top-tokens', { chain: 'arbitrum' }],
    ['/x402/data/tokenchart', { tokenAddress: 'WETH', chain: 'optimism' }],
    ['/x402/data/wallet-holdings', { walletAddress: freshAddress(), chain: 'bsc' }],
    ['/x402/data/investment-report', { chains: ['ethereum', 'polygon'] }],
  ])('%s %j → 503 chain_unavailable before any 402', async (path, body) => {
    const res = await postJson(`${sibyl.url}${path}`, body);
    expect(res.status).toBe(503);
    expect((await json(res)).error.code).toBe('chain_unavailable');
  });

  it('still sells base, and a report over base and an unindexed chain', async () => {
    expect((await postJson(`${sibyl.url}/x402/data/latest-pairs`, { chain: 'base' })).status).toBe(402);
    expect((await postJson(`${sibyl.url}/x402/data/investment-report`, { chains: ['ethereum', 'base'] })).status).toBe(402);
  });
});
