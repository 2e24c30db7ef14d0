/**
 * Tokenized equities (docs/skills.md, "Tokenized equities") bought as a user buys them: every
 * rwa-intel board over A2A `{params}` with the official x402 client, over A2A JSON-RPC, as
 * analyze_tokenized_stocks on prepaid credits, chain-markets' stock rows, and the report agent;
 * each at the spec's price (test/helpers/spec-prices.ts, never the registry). The world is the
 * stock chain and Arbitrum (the other issuers, the under-reserved one and the impostor) over
 * 25 days, long enough to hold the split the stocks' schedule always draws within three weeks,
 * handed to Sibyl by RPC URL. Figures are checked against the world's labels and true prices.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, erc20Abi, http, type Address } from 'viem';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { startWorld, worldGenesisTimestamp } from '../../world/index.js';
import type { StockLabels } from '../../world/modules/stocks.js';
import { fairValueUsd, multiplierNumber, trueMultiplier } from '../../world/stocks/plan.js';
import { StockPaths } from '../../world/stocks/underlyings.js';
import { RWA_BOARDS } from '../../skills/stocks/boards.js';
import { creditedMcpClient } from '../helpers/mcp-credits.js';
import { fundedPayer, json, payingFetch, postJson, rpcUrl, startTestSibyl, walletPoster, type TestSibyl } from '../helpers/sibyl.js';
import { SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';
import { a2aParamsFailures, kindFailures, paidJsonRpc } from '../helpers/surfaces.js';

const SEED = 'e2e-stocks';
const DAYS = 25;

let devnet: Devnet;
let sibyl: TestSibyl;
let labels: { chain: string; stocks: NonNullable<StockLabels['stocks']> }[];
let paths: StockPaths;

beforeAll(async () => {
  devnet = await startDevnet({ chains: ['stockchain', 'arbitrum'], basePort: 0, genesisTimestamp: worldGenesisTimestamp(DAYS), fifo: true });
  const world = await startWorld(devnet.chains, { seed: SEED, days: DAYS, meanBlockSeconds: 1_200, liveBlockMs: 0, labelsPath: `/tmp/sibyl-${SEED}-${process.pid}.json` });
  world.stop();
  labels = world.worlds.map((w, i) => ({ chain: devnet.chains[i]!.name, stocks: w.labels.stocks! }));
  paths = new StockPaths(SEED, world.reference.origin);
  sibyl = await startTestSibyl({ rpcUrls: { base: rpcUrl('base'), stockchain: devnet.chains[0]!.rpcUrl, arbitrum: devnet.chains[1]!.rpcUrl } });
}, 300_000);
afterAll(async () => {
  await sibyl?.close();
  await devnet?.stop();
});

const tokens = () => labels.flatMap((l) => l.stocks.tokens.map((t) => ({ ...t, chain: l.chain })));
/** A new listing of the stock chain with labelled early buyers. */
const listing = () => labels[0]!.stocks.earlyBuyers[0]!.token;
const paramsOf = (board: string): Record<string, unknown> => ({
  board,
  ...(board === 'early-buyers' && { token: listing() }),
  ...(board === 'portfolio' && { intent: 'tech exposure, low drawdown' }),
});

describe('rwa-intel on every surface', () => {
  it('every board over A2A {params}, paid with x402 at the spec price, from the chains and feeds it read', { timeout: 240_000 }, async () => {
    const payer = await walletPoster(sibyl.url, '10');
    const failures: string[] = [];
    const readFeeds = (_id: string, response: Record<string, unknown>) => ((response.sources as string[]).some((s) => s.startsWith('feeds:stockchain@')) ? undefined : 'the feeds read are not named');
    for (const board of RWA_BOARDS) failures.push(...(await a2aParamsFailures(payer, { 'rwa-intel': paramsOf(board) }, readFeeds)).map((f) => `${board}: ${f}`));
    expect(failures).toEqual([]);
  });

  it('over A2A JSON-RPC: message/send asks for the spec price, and the paid message completes', { timeout: 60_000 }, async () => {
    await paidJsonRpc(sibyl.url, (await fundedPayer('5')).key, 'rwa-intel', { board: 'stock-pairs' });
  });

  it('as analyze_tokenized_stocks, every board debited at the spec price from credits', { timeout: 240_000 }, async () => {
    const { client, credits, auth } = await creditedMcpClient(sibyl.url, rpcUrl(), '2');
    const { pay } = payingFetch((await fundedPayer('5')).key);
    const top = await pay(`${sibyl.url}/api/credits/topup`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ amountUsd: '2' }) });
    expect(top.status, await top.text()).toBe(200);
    try {
      expect(await kindFailures(client, credits, RWA_BOARDS.map((b) => ['analyze_tokenized_stocks', paramsOf(b), 'rwa-intel'] as const))).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('the report agent answers "Which tokenized stocks trade at a premium right now?" with the stock pairs, at the report\'s price', { timeout: 120_000 }, async () => {
    const payer = await walletPoster(sibyl.url, '5');
    const before = await payer.balance();
    const res = await payer.post('/api/a2a/skills/general-analysis', { params: { prompt: 'Which tokenized stocks trade at a premium right now?' } });
    const body = await json(res);
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(body.response.toolsUsed[0]).toMatchObject({ skill: 'rwa-intel', args: { board: 'stock-pairs' } });
    expect(body.response.analysis).toMatch(/premium/i);
    expect(body.response.results[0]).toMatchObject({ skill: 'rwa-intel', ok: true, result: { available: true, board: 'stock-pairs' } });
    expect(before - (await payer.balance())).toBe(SPEC_SKILL_PRICE['general-analysis']);
  });
});

describe('right against the world', () => {
  it('every wrapper\'s fair value is the true one (underlying x the multiplier due) within 0.1%', { timeout: 60_000 }, async () => {
    const answer = await rwaIntel({ board: 'stock-pairs' });
    const at = Date.parse(answer.asOf.timestamp) / 1000;
    let read = 0;
    for (const pair of answer.pairs) {
      for (const w of pair.wrappers) {
        const label = tokens().find((t) => t.address.toLowerCase() === w.token.toLowerCase())!;
        expect(label.impostor).toBe(false);
        const truth = fairValueUsd(paths, label.underlying, label.listedAt, at);
        expect(Math.abs(w.fairUsd / truth - 1), `${w.symbol} on ${w.chain}: ${w.fairUsd} vs ${truth}`).toBeLessThan(0.001);
        read++;
      }
    }
    expect(read).toBeGreaterThan(10);
  });

  it('wrapper trust finds the under-reserved issuer, the impostor and the late multipliers the world planted, and calls the honest issuers sound or watched, never unsound', { timeout: 60_000 }, async () => {
    const answer = await rwaIntel({ board: 'wrapper-trust' });
    const unsound = new Set(answer.issuers.filter((i: { verdict: string }) => i.verdict === 'unsound').map((i: { issuer: string }) => i.issuer.toLowerCase()));
    for (const l of labels) {
      for (const issuer of l.stocks.issuers) {
        if (issuer.status === 'under-reserved') expect(unsound.has(issuer.address.toLowerCase()), issuer.name).toBe(true);
        if (issuer.status === 'honest') expect(unsound.has(issuer.address.toLowerCase()), issuer.name).toBe(false);
      }
    }
    expect(answer.impostors.map((i: { address: string }) => i.address.toLowerCase()).sort()).toEqual(labels.flatMap((l) => l.stocks.impostors.map((i) => i.token.toLowerCase())).sort());
    // Every action a wrapper applied more than 6 h late is reported with how late, and no other
    // (whether the lagging issuer's names had an action in these 25 days depends on the draw).
    const rows = new Map(answer.issuers.flatMap((i: { tokens: { token: string }[] }) => i.tokens).map((t: { token: string }) => [t.token.toLowerCase(), t]));
    const late = labels.flatMap((l) => l.stocks.events.flatMap((e) => e.applied.filter((a) => a.lagSeconds > 6 * 3_600)));
    const flagged = [...rows].filter(([, t]) => (t as { flags: string[] }).flags.includes('multiplier-lag')).map(([token]) => token);
    expect(flagged.sort()).toEqual([...new Set(late.map((a) => a.token.toLowerCase()))].sort());
    for (const a of late) {
      const row = rows.get(a.token.toLowerCase()) as { flags: string[]; multiplierLag: { hours: number | null } } | undefined;
      expect(row?.flags, a.token).toContain('multiplier-lag');
      expect(row!.multiplierLag.hours).toBeCloseTo(a.lagSeconds / 3_600, 0);
    }
    // Mints and burns are the issuer's whole record: every labelled redemption is a burn, and what
    // was minted less what was burnt is the supply now.
    for (const t of tokens().filter((x) => !x.impostor)) {
      const row = rows.get(t.address.toLowerCase()) as { mints: { count: number; shares: number }; burns: { count: number; shares: number }; supplyShares: number };
      const redemptions = labels.find((l) => l.chain === t.chain)!.stocks.creations.filter((c) => c.token === t.address && c.kind === 'redeem');
      expect(row.burns.count, t.symbol).toBe(redemptions.length);
      expect(row.mints.count, t.symbol).toBeGreaterThan(0);
      expect(row.mints.shares - row.burns.shares, t.symbol).toBeCloseTo(row.supplyShares, 3);
    }
  });

  it('after the split, supply, market cap and float count shares (raw x multiplier), never the raw supply priced per share', { timeout: 60_000 }, async () => {
    const split = labels[0]!.stocks.events.find((e) => e.kind === 'split')!;
    expect(split, 'the schedule draws one split within three weeks').toBeDefined();
    const token = labels[0]!.stocks.tokens.find((t) => t.underlying === split.underlying && !t.impostor)!;
    const board = await rwaA2a('chain-markets', { kind: 'stock', sort: 'mcap', limit: 100 });
    const row = board.tokens.find((t: { token: string }) => t.token.toLowerCase() === token.address.toLowerCase());
    expect(row, `${token.symbol} on the stock board`).toBeDefined();
    const at = Date.parse(board.asOf.timestamp) / 1000;
    const multiplier = multiplierNumber(trueMultiplier(paths, token.underlying, token.listedAt, at));
    expect(multiplier).toBeGreaterThanOrEqual(split.ratio!);
    const chain = createPublicClient({ transport: http(devnet.chains[0]!.rpcUrl) });
    const raw = Number(await chain.readContract({ address: token.address as Address, abi: erc20Abi, functionName: 'totalSupply' })) / 1e18;
    expect(row.stock.multiplier).toBeCloseTo(multiplier, 9);
    expect(row.stock.supplyShares / (raw * multiplier)).toBeCloseTo(1, 6);
    // The market cap is the raw supply at the token's price: the shares at the share's price.
    const trueCap = raw * fairValueUsd(paths, token.underlying, token.listedAt, at);
    expect(Math.abs(row.marketCapUsd / trueCap - 1), `market cap ${row.marketCapUsd} vs ${trueCap}`).toBeLessThan(0.02);
    expect(row.stock.pricePerShareUsd * row.stock.supplyShares / row.marketCapUsd).toBeCloseTo(1, 6);
    const floats = await rwaIntel({ board: 'float-corner' });
    const float = floats.floats.find((f: { token: string }) => f.token.toLowerCase() === token.address.toLowerCase());
    if (float) expect(float.supplyShares / (raw * multiplier)).toBeCloseTo(1, 6);
  });

  it('the early buyers of a listing are the labelled ones (with others who bought early), each with its realised result', { timeout: 60_000 }, async () => {
    const answer = await rwaIntel({ board: 'early-buyers', token: listing() });
    const found = new Map(answer.earlyBuyers.map((b: { wallet: string; realizedUsd: number }) => [b.wallet.toLowerCase(), b]));
    for (const b of labels[0]!.stocks.earlyBuyers.filter((x) => x.token === listing())) {
      const row = found.get(b.buyer.toLowerCase()) as { realizedUsd: number } | undefined;
      expect(row, b.buyer).toBeDefined();
      if (b.realisedPnlUsd !== null) expect(row!.realizedUsd).toBeCloseTo(b.realisedPnlUsd, 1);
    }
  });
});

describe('refused before payment, or not charged', () => {
  it('a missing token for early-buyers, an unknown board or field is a 400 naming it; an unknown token a 404; before any 402', { timeout: 30_000 }, async () => {
    for (const [body, status, text] of [
      [{ params: { board: 'early-buyers' } }, 400, 'params.token'],
      [{ params: { board: 'nope' } }, 400, 'params.board'],
      [{ params: { board: 'stock-pairs', chain: 'base' } }, 400, 'params.chain'],
      [{ params: { board: 'early-buyers', token: '0x000000000000000000000000000000000000dEaD' } }, 404, 'token_not_found'],
    ] as const) {
      const res = await postJson(`${sibyl.url}/api/a2a/skills/rwa-intel`, body);
      const got = await res.text();
      expect(res.status, `${JSON.stringify(body)}: ${got.slice(0, 200)}`).toBe(status);
      expect(got).toContain(text);
    }
  });

  it('early buyers of the impostor (no registered issuer lists it) is an answer of nothing: 422, not charged', { timeout: 30_000 }, async () => {
    const payer = await walletPoster(sibyl.url, '2');
    const before = await payer.balance();
    const impostor = labels[1]!.stocks.impostors[0]!.token;
    const res = await payer.post('/api/a2a/skills/rwa-intel', { params: { board: 'early-buyers', token: impostor } });
    const body = await json(res);
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(422);
    expect(body).toMatchObject({ available: false, charged: false, error: { code: 'no_answer' } });
    expect(body.reason).toMatch(/not a genuine stock token/);
    expect(await payer.balance()).toBe(before);
  });

  it('a deployment that does not read the stock chain neither sells nor advertises the boards', { timeout: 60_000 }, async () => {
    const without = await startTestSibyl({ rpcUrls: { base: rpcUrl('base'), arbitrum: devnet.chains[1]!.rpcUrl } });
    try {
      const res = await postJson(`${without.url}/api/a2a/skills/rwa-intel`, { params: { board: 'stock-pairs' } });
      expect(res.status).toBe(503);
      expect((await json(res)).error.code).toBe('chain_unavailable');
      const list = await json(await fetch(`${without.url}/api/a2a/skills`));
      expect(list.skills.map((s: { id: string }) => s.id)).not.toContain('rwa-intel');
    } finally {
      await without.close();
    }
  });
});

/** A board bought over A2A; its answer. */
async function rwaIntel(params: Record<string, unknown>) {
  return rwaA2a('rwa-intel', params);
}

async function rwaA2a(skill: string, params: Record<string, unknown>) {
  const payer = await walletPoster(sibyl.url, '1');
  const res = await payer.post(`/api/a2a/skills/${skill}`, { params });
  const body = await json(res);
  expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
  return body.response;
}
