/**
 * One rule for settling (docs/architecture.md, "A paid request, in one picture"; skills/core/produced.ts): an
 * answer that produced nothing (`available: false`, or none of the rows a skill declares as its
 * product) is never settled, whichever way it was bought. Every working paid skill that can answer
 * nothing (listed from the registry) is driven to it from the world (an address with no code, a
 * wallet with no trade, a chain nobody traded on) and bought on every surface that sells it: its
 * x402 HTTP path, a typed body on the x402 report path, the A2A skill endpoint, A2A JSON-RPC
 * (a2a-x402), the MCP tool paid per call with x402, and the MCP paid tool on credits. Where the
 * request and one chain read decide it (a review or audit of an address with no code), it is
 * refused before any payment instead, on every surface. Skills that cannot be driven there from a
 * world say why. Each time the chain is asked, not the server: the authorization is unused
 * (`authorizationState` false), the payer's USDC and the recipient's are unchanged, and the credits
 * are whole; the payer receives the answer (`available: false`, its reason) with `charged: false`.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, http, parseAbi, parseUnits, toEventSelector, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import { ClientFactory, ServiceParameters, withA2AExtensions } from '@a2a-js/sdk/client';
import { x402Client } from '@x402/core/client';
import { decodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { X402_EXTENSION_URI } from '../../cards/agent-card.js';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { TOPICS } from '../../indexer/events.js';
import { X402_META } from '../../agent/a2a-executor.js';
import { X402_NETWORK } from '../../payments/terms.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { PAID_TOOLS } from '../../skills/catalog/paid-tools.js';
import { formatUsd } from '../../skills/core/money.js';
import type { Skill } from '../../skills/core/registry.js';
import { creditedMcpClient } from '../helpers/mcp-credits.js';
import { freshAddress, fundedPayer, json, payingFetch, postJson, rpcUrl, startTestSibyl, usdcBalance, USDC, type TestSibyl, TEST_SERVER_PARTS } from '../helpers/sibyl.js';
import { SPEC_A2A_SKILLS } from '../helpers/spec-prices.js';

/** Every deployment part present: the list below covers the Bitcoin skills too. */
const everything = createRegistry();
/** As the test server is: no Bitcoin chain, no QRNG. */
const served = createRegistry([], TEST_SERVER_PARTS);

/** A paid skill that can answer nothing: its answer's `available` admits false, or it declares the rows that are its product. */
function canProduceNothing(skill: Skill): boolean {
  const available = (skill.output.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>).available;
  return !skill.free && (available?.safeParse(false).success === true || skill.productRows !== undefined);
}

/** What in the world makes the answer nothing, each checked on the chain before buying. */
type World = 'no-code' | 'no-activity' | 'no-swaps' | 'no-market';

interface Drivable {
  readonly world: World;
  /** The skill's params for a fresh address. */
  readonly params: (address: Address) => Record<string, unknown>;
  /** The paid MCP tool's kind that sells it on credits, with the tool's arguments (when a paid tool sells it). */
  readonly credits?: { readonly kind: string; readonly args: (address: Address) => Record<string, unknown> };
  /** A kind that sells it on credits whose inputs cannot ask for the nothing (the spec's inputs lack the field), and why. */
  readonly creditsCannotAsk?: { readonly kind: string; readonly why: string };
}

/** One the request and a cheap chain read decide: refused by its admission before any payment is asked for. */
interface Refused extends Drivable {
  /** The refusal's status and code (docs/protocols.md's error table). */
  readonly refused: { readonly status: number; readonly code: string };
}

/** A word no prediction market's question holds. */
const NO_MARKET = 'zanzibarquux';

/** Each skill of the list: how the world drives it to nothing, or why it cannot be. */
const NOTHING: Record<string, Drivable | Refused | { readonly unreachable: string }> = {
  // An address with no code: "404 contract_not_found", refused before any payment.
  'smart-contract-audit': { world: 'no-code', refused: { status: 404, code: 'contract_not_found' }, params: (a) => ({ address: a, chain: 'base' }), credits: { kind: 'contract_audit', args: (a) => ({ tokenAddress: a }) } },
  'contract-review': { world: 'no-code', refused: { status: 404, code: 'contract_not_found' }, params: (a) => ({ address: a, chain: 'base' }), credits: { kind: 'contract', args: (a) => ({ address: a }) } },
  'copy-trading-intel': { world: 'no-activity', params: (a) => ({ walletAddress: a, chain: 'base' }), credits: { kind: 'intel', args: (a) => ({ walletAddress: a }) } },
  'wallet-trust-score': { world: 'no-activity', params: (a) => ({ walletAddress: a, chain: 'base' }), credits: { kind: 'trust', args: (a) => ({ walletAddress: a }) } },
  // A chain nobody has traded on: no token rose, none traded in any window.
  'top-gainers': { world: 'no-swaps', params: () => ({ chain: 'base', timeperiod: '24h' }), credits: { kind: 'top_gainers', args: () => ({ chain: 'base' }) } },
  'top-gainers-comprehensive': { world: 'no-swaps', params: () => ({ chain: 'base' }), credits: { kind: 'alpha_ranked', args: () => ({ chain: 'base' }) } },
  'market-movers': { world: 'no-swaps', params: () => ({ chain: 'base', timeperiod: '24h' }), credits: { kind: 'movers', args: () => ({ chain: 'base' }) } },
  'chain-markets': { world: 'no-swaps', params: () => ({ sort: 'gainers' }) },
  topvolume: { world: 'no-swaps', params: () => ({ chain: 'base', timeperiod: '24h' }) },
  // A query no market's question answers to (the venues are read to check it).
  'prediction-market-discovery': { world: 'no-market', params: () => ({ query: NO_MARKET }), credits: { kind: 'markets', args: () => ({ query: NO_MARKET }) } },
  'spread-analysis': { world: 'no-market', params: () => ({ query: NO_MARKET }), credits: { kind: 'spread', args: () => ({ query: NO_MARKET }) } },
  'insider-scan': { world: 'no-market', params: () => ({ query: NO_MARKET }), credits: { kind: 'insiders', args: () => ({ query: NO_MARKET }) } },
  'conviction-scanner': { world: 'no-market', params: () => ({ query: NO_MARKET }), credits: { kind: 'conviction', args: () => ({ query: NO_MARKET }) } },
  'cross-platform-arbitrage': { world: 'no-market', params: () => ({ query: NO_MARKET }), creditsCannotAsk: { kind: 'prediction_market', why: 'find_arbitrage takes no query (the spec\'s inputs): on credits it compares every event open on both venues' } },
  'longshot-fader': { unreachable: 'its gap is a venue with under 20 resolved markets to calibrate on; the embedded venues hold markets resolved from two weeks before their history on (a query that names no market still sells the calibration)' },
  'rwa-intel': { unreachable: 'its gaps (a board that finds nothing: a listing nobody bought, no stock token in an intent) need a stock chain with issuers and feeds, which this devnet does not carry (its admission refuses before any payment); test/e2e/stocks.test.ts buys such a board and checks nothing moves' },
  'perp-smart-money': { unreachable: 'its gap is a perp venue on which no account has a record yet, and the test server reads no perp venue (PERPS=off); test/e2e/perps.test.ts serves a venue two days old, buys it and checks nothing moves' },
  'top-tokens': { unreachable: 'its gap is a chain with no priced token; every chain the devnet deploys has priced pools from genesis' },
  'altcoin-season-index': { unreachable: 'its gaps are a benchmark with no price over the period or no liquid altcoin; every chain the test devnet indexes prices both over every period (measured: 6 chains x 1h/24h/7d/30d all available)' },
  'brc20-analytics': { unreachable: 'its only gap (an index that began after BRC-20 did) is refused by its admission before any payment; the handler\'s check repeats it' },
  'runes-analytics': { unreachable: 'its only gap (an index that began after runes activation) is refused by its admission before any payment; the handler\'s check repeats it' },
  'bitcoin-staking-analysis': { unreachable: 'its only gap (an index that began after Babylon staking) is refused by its admission before any payment; the handler\'s check repeats it' },
};
const REFUSED = Object.entries(NOTHING).filter((e): e is [string, Refused] => 'refused' in e[1]);
const DRIVABLE = Object.entries(NOTHING).filter((e): e is [string, Drivable] => 'world' in e[1] && !('refused' in e[1]));

/** The Swap events of every DEX version the devnet deploys (V2 as the indexer reads it, V3, V4). */
const SWAP_TOPICS = [
  TOPICS.swap,
  toEventSelector('event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)'),
  toEventSelector('event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)'),
];
const usdcAuth = parseAbi(['function authorizationState(address authorizer, bytes32 nonce) view returns (bool)']);
const authorizationOf = (payload: PaymentPayload) => (payload.payload as { authorization: { nonce: Hex; value: string } }).authorization;

const mcpHeaders = { accept: 'application/json, text/event-stream' };
const a2aExtensions = { serviceParameters: ServiceParameters.create(withA2AExtensions(X402_EXTENSION_URI)) };
function message(parts: Message['parts'], extra: Partial<Message> = {}): Message {
  return { messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, parts, metadata: undefined, extensions: [], referenceTaskIds: [], ...extra };
}
const dataPart = (value: unknown) => ({ content: { $case: 'data' as const, value }, metadata: undefined, filename: '', mediaType: 'application/json' });
const textPart = (value: string) => ({ content: { $case: 'text' as const, value }, metadata: undefined, filename: '', mediaType: 'text/plain' });

/** What the payer receives for nothing, on every surface: the answer, unavailable, with its reason, not charged. */
const unsold = (reason: string) => ({ available: false, reason, charged: false, error: { code: 'no_answer', message: expect.stringMatching(/nothing was charged/i) } });

describe('nothing produced is never settled, on any surface', () => {
  // A devnet of its own: nobody else trades on it (its rankings stay empty) or pays its recipient.
  let devnet: Devnet;
  let url: string;
  let sibyl: TestSibyl;
  beforeAll(async () => {
    devnet = await startDevnet({ chains: ['base'], basePort: 0 });
    url = devnet.chains[0]!.rpcUrl;
    // Polygon (the run's shared devnet): where the insider scan reads accounts' funding.
    sibyl = await startTestSibyl({ rpcUrls: { base: url, polygon: rpcUrl('polygon') } });
  }, 120_000);
  afterAll(async () => {
    await sibyl?.close();
    await devnet?.stop();
  });
  const chain = () => createPublicClient({ transport: http(url) });
  const authorizationUsed = (payer: Address, nonce: Hex) => chain().readContract({ address: USDC, abi: usdcAuth, functionName: 'authorizationState', args: [payer, nonce] });

  /** The world, read from the chain: what makes this skill's answer nothing holds. */
  async function worldHolds(world: World, address: Address): Promise<void> {
    if (world === 'no-market') {
      const venues = sibyl.context.prediction!;
      const questions = [...(await venues.polymarket.markets()).map((m) => m.question), ...(await venues.kalshi.markets()).map((m) => m.title)];
      expect(questions.length).toBeGreaterThan(0);
      expect(questions.filter((q) => q.toLowerCase().includes(NO_MARKET))).toEqual([]);
      return;
    }
    expect(await chain().getCode({ address })).toBeUndefined();
    if (world === 'no-activity') expect(await chain().getTransactionCount({ address })).toBe(0);
    if (world === 'no-swaps') expect(await chain().request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: 'latest', topics: [SWAP_TOPICS] }] })).toEqual([]);
  }

  it('the list is the registry\'s: every working paid skill that can answer nothing has a way from the world to it, or says why not', () => {
    expect(Object.keys(NOTHING).sort()).toEqual(everything.published().filter(canProduceNothing).map((s) => s.id).sort());
    // The three the issue found settled are bought, not excused: refused before payment, or paid and not settled.
    expect([...REFUSED, ...DRIVABLE].map(([id]) => id)).toEqual(expect.arrayContaining(['smart-contract-audit', 'contract-review', 'copy-trading-intel']));
    for (const [id, drive] of [...REFUSED, ...DRIVABLE]) {
      expect(served.published().map((s) => s.id), id).toContain(id);
      // Every paid tool kind that sells it on credits is bought below.
      const kinds = PAID_TOOLS.flatMap((t) => Object.entries(t.kinds).filter(([, k]) => k.skill === id).map(([kind]) => kind));
      expect(kinds, id).toEqual(drive.credits ? [drive.credits.kind] : drive.creditsCannotAsk ? [drive.creditsCannotAsk.kind] : []);
    }
  });

  it.each(REFUSED)('%s: an answer of nothing the request decides is refused before any payment on every surface', { timeout: 240_000 }, async (id, drive) => {
    const skill = served.byId(id)!;
    const address = freshAddress();
    await worldHolds(drive.world, address);
    const params = drive.params(address);
    const { status, code } = drive.refused;
    const { key, account } = await fundedPayer('5', url);
    const { pay, seen } = payingFetch(key);
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) => pay(`${sibyl.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    // x402 over HTTP (a typed body on the report path) and the A2A endpoint: the refusal, no 402.
    for (const [path, body] of [['/x402/svc/report', { service: id, ...params }], [`/api/a2a/skills/${id}`, { params }]] as const) {
      const res = await post(path, body);
      expect(res.status, path).toBe(status);
      expect((await json(res)).error, path).toMatchObject({ code, message: expect.stringContaining('nothing was charged') });
    }
    // The MCP tool paid per call: an error result, not a 402.
    const perCall = await json(await post('/api/mcp', { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: skill.toolName, arguments: params } }, mcpHeaders));
    expect(perCall).toMatchObject({ id: 4, result: { isError: true } });
    expect(perCall.result.content[0].text).toMatch(new RegExp(`^${code}: `));
    // The official client never signed: nothing was asked for.
    expect(seen).toEqual([]);
    expect(await usdcBalance(account.address, url)).toBe(5_000_000n);
    // A2A JSON-RPC: the task is rejected with the code, never put in input-required.
    const a2a = await new ClientFactory().createFromUrl(sibyl.url);
    const task = (await a2a.sendMessage({ message: message([dataPart({ skill: id, params })]) } as never, a2aExtensions)) as Task;
    expect(task.status!.state).toBe(TaskState.TASK_STATE_REJECTED);
    expect(task.metadata?.[X402_META.required]).toBeUndefined();
    expect(JSON.stringify(task.status!.message)).toContain(code);
    // MCP credits: answered with the code, never debited.
    const tool = PAID_TOOLS.find((t) => t.kinds[drive.credits!.kind]?.skill === id)!;
    const mcp = await creditedMcpClient(sibyl.url, url, '2');
    const before = await mcp.credits();
    const result = await mcp.client.callTool({ name: tool.name, arguments: { [tool.kindField ?? 'kind']: drive.credits!.kind, ...drive.credits!.args(address) } });
    expect(result.structuredContent).toMatchObject({ available: false, reason: code, skill: id, billing: { debitedUsd: '$0' } });
    expect(await mcp.credits()).toBe(before);
    await mcp.client.close();
  });

  it.each(DRIVABLE)('%s: bought on every surface that sells it, nothing moves', { timeout: 240_000 }, async (id, drive) => {
    const skill = served.byId(id)!;
    const address = freshAddress();
    await worldHolds(drive.world, address);
    const params = drive.params(address);
    // What the skill answers for it, run in process: nothing (the reason every surface must show).
    const answer = (await skill.handler(skill.input.parse(params), sibyl.context)) as { available: boolean; reason: string };
    expect(answer).toMatchObject({ available: false, reason: expect.any(String) });
    // The published A2A price (docs/skills.md), where the spec lists the skill: what the catalogue surfaces charge.
    const listed = SPEC_A2A_SKILLS[id as keyof typeof SPEC_A2A_SKILLS];
    const catalogPrice = listed === undefined ? skill.quote(skill.input.parse(params), 'catalog') : parseUnits(listed, 6);
    const recipient = await usdcBalance(sibyl.payTo, url);
    const bought: string[] = [];

    /** Pays `path` with the official x402 client from a fresh $5 wallet; checks on chain that nothing moved. */
    const viaFetch = async (path: string, body: unknown, price: bigint, headers: Record<string, string> = {}) => {
      bought.push(path);
      const { key, account } = await fundedPayer('5', url);
      const { pay, seen } = payingFetch(key);
      const res = await pay(`${sibyl.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      expect(seen, `${path}: the client paid once`).toHaveLength(1);
      const authorization = authorizationOf(decodePaymentSignatureHeader(seen[0]!) as PaymentPayload);
      expect(BigInt(authorization.value), `${path}: at its price`).toBe(price);
      expect(res.headers.get('payment-response'), path).toBeNull();
      expect(res.headers.get('x-payment-response'), path).toBeNull();
      expect(await authorizationUsed(account.address, authorization.nonce), `${path}: authorization unused`).toBe(false);
      expect(await usdcBalance(account.address, url), path).toBe(5_000_000n);
      return { res, body: await json(res), header: seen[0]! };
    };

    if (skill.httpPath) {
      // Its own paid HTTP path.
      const own = await viaFetch(skill.httpPath, params, skill.quote(skill.input.parse(params)));
      expect(own.res.status, JSON.stringify(own.body)).toBe(422);
      expect(own.body).toMatchObject(unsold(answer.reason));
    }
    if (skill.surfaces.includes('agent')) {
      // A typed body on the x402 report path.
      const typed = await viaFetch('/x402/svc/report', { service: id, ...params }, catalogPrice);
      expect(typed.res.status, JSON.stringify(typed.body)).toBe(422);
      expect(typed.body).toMatchObject(unsold(answer.reason));
      // The released authorization is still the payer's: presented again, it is not a replay.
      const again = await postJson(`${sibyl.url}/x402/svc/report`, { service: id, ...params }, { 'X-PAYMENT': typed.header });
      expect(again.status).toBe(422);
    }
    if (skill.surfaces.includes('a2a')) {
      // The A2A skill endpoint, paid with x402.
      const a2aHttp = await viaFetch(`/api/a2a/skills/${id}`, { params }, catalogPrice);
      expect(a2aHttp.res.status, JSON.stringify(a2aHttp.body)).toBe(422);
      expect(a2aHttp.body).toMatchObject(unsold(answer.reason));
      // The whole answer, provenance included, not only its verdict.
      expect(Object.keys(a2aHttp.body)).toEqual(expect.arrayContaining(Object.keys(answer)));

      // A2A JSON-RPC with the a2a-x402 extension: the task fails with payment-failed, the answer as its artifact.
      bought.push('a2a json-rpc');
      const { key, account } = await fundedPayer('5', url);
      const signer = x402Client.fromConfig({ schemes: [{ network: X402_NETWORK, client: new ExactEvmScheme(privateKeyToAccount(key)) }], spendControls: { maxAmountPerPayment: formatUsd(catalogPrice) } });
      const a2a = await new ClientFactory().createFromUrl(sibyl.url);
      const asked = (await a2a.sendMessage({ message: message([dataPart({ skill: id, params })]) } as never, a2aExtensions)) as Task;
      expect(asked.status!.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      const required = asked.metadata![X402_META.required] as PaymentRequired;
      expect(BigInt(required.accepts[0]!.amount)).toBe(catalogPrice);
      const payload = await signer.createPaymentPayload(required);
      const done = (await a2a.sendMessage({ message: message([textPart('paid')], { taskId: asked.id, contextId: asked.contextId, metadata: { [X402_META.payload]: payload } }) } as never, a2aExtensions)) as Task;
      expect(done.status!.state, JSON.stringify(done.status)).toBe(TaskState.TASK_STATE_FAILED);
      expect(done.status!.message!.metadata).toMatchObject({ [X402_META.status]: 'payment-failed', [X402_META.error]: 'no_answer', [X402_META.receipts]: [{ success: false, transaction: '' }] });
      const artifact = done.artifacts[0]!.parts.find((p) => p.content?.$case === 'data')!.content!.value;
      expect(artifact).toMatchObject(unsold(answer.reason));
      expect(await authorizationUsed(account.address, authorizationOf(payload).nonce)).toBe(false);
      expect(await usdcBalance(account.address, url)).toBe(5_000_000n);
    }
    if (skill.surfaces.includes('mcp') && skill.toolName) {
      // The MCP tool paid per call: a JSON-RPC error result carrying the same body.
      const rpc = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: skill.toolName, arguments: params } };
      const perCall = await viaFetch('/api/mcp', rpc, catalogPrice, mcpHeaders);
      expect(perCall.res.status).toBe(200);
      expect(perCall.body).toMatchObject({ id: 3, result: { isError: true, structuredContent: unsold(answer.reason) } });
      expect(perCall.body.result.content[0].text).toMatch(/^no_answer: /);
    }
    // Nothing reached the recipient from any of them.
    expect(await usdcBalance(sibyl.payTo, url)).toBe(recipient);

    if (drive.credits) {
      // The paid MCP tool on credits: the debit refunded, the answer with its own reason.
      bought.push('mcp credits');
      const tool = PAID_TOOLS.find((t) => t.kinds[drive.credits!.kind]?.skill === id)!;
      const mcp = await creditedMcpClient(sibyl.url, url, '2');
      const before = await mcp.credits();
      const result = await mcp.client.callTool({ name: tool.name, arguments: { [tool.kindField ?? 'kind']: drive.credits.kind, ...drive.credits.args(address) } });
      expect(result.structuredContent).toMatchObject({ ...unsold(answer.reason), skill: id, billing: { debitedUsd: '$0' } });
      expect(await mcp.credits()).toBe(before);
      await mcp.client.close();
    }
    // Every skill here is sold on at least three ways to pay.
    expect(bought.length, bought.join(', ')).toBeGreaterThanOrEqual(3);
  });

  it('the report agent answering only a gap is refused the same way: 422 no_answer, not charged, nothing settled', { timeout: 120_000 }, async () => {
    const address = freshAddress();
    const { key, account } = await fundedPayer('5', url);
    const { pay, seen } = payingFetch(key);
    const res = await pay(`${sibyl.url}/x402/svc/report`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: `Should I copy trades from ${address} on base?` }) });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(422);
    expect(body).toMatchObject({ available: false, charged: false, error: { code: 'no_answer' }, analysis: expect.stringContaining('not available') });
    expect(seen).toHaveLength(1);
    expect(res.headers.get('payment-response')).toBeNull();
    expect(await authorizationUsed(account.address, authorizationOf(decodePaymentSignatureHeader(seen[0]!) as PaymentPayload).nonce)).toBe(false);
    expect(await usdcBalance(account.address, url)).toBe(5_000_000n);
  });
});
