/**
 * The prediction-market skills (docs/skills.md) on every surface, bought as a user buys them: over
 * A2A `{params}` with the official x402 client, over A2A JSON-RPC, as the MCP paid tools' kinds
 * from prepaid credits, the free tools, and through the report agent; each at the spec's price
 * (test/helpers/spec-prices.ts, never the registry). The venues are the embedded ones over a
 * Polygon world this test builds, served here and handed to Sibyl by their URLs only
 * (POLYMARKET_*_URL, KALSHI_API_URL): the path a real Polymarket and Kalshi take.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { startWorld, worldGenesisTimestamp } from '../../world/index.js';
import { embeddedVenues } from '../../world/prediction/embedded.js';
import { PredictionPlan } from '../../world/prediction/plan.js';
import { servePredictionVenues } from '../../world/prediction/server.js';
import { creditedMcpClient } from '../helpers/mcp-credits.js';
import { fundedPayer, json, payingFetch, postJson, rpcUrl, startTestSibyl, TEST_SERVER_PARTS, usdcBalance, walletPoster, type TestSibyl } from '../helpers/sibyl.js';
import { SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';
import { a2aParamsFailures, kindFailures, paidJsonRpc } from '../helpers/surfaces.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { assertAnswer } from '../../skills/core/output-check.js';

const SEED = 'e2e-prediction';
const DAYS = 2;

let devnet: Devnet;
let venues: Awaited<ReturnType<typeof servePredictionVenues>>;
let sibyl: TestSibyl;

beforeAll(async () => {
  devnet = await startDevnet({ chains: ['polygon'], basePort: 0, genesisTimestamp: worldGenesisTimestamp(DAYS), fifo: true });
  const world = await startWorld(devnet.chains, { seed: SEED, days: DAYS, meanBlockSeconds: 1_200, liveBlockMs: 0, labelsPath: `/tmp/sibyl-${SEED}-${process.pid}.json` });
  world.stop();
  const priceAt = (asset: string, t: number) => world.reference.priceUsd(asset, t);
  const now = () => Date.now() / 1000;
  venues = await servePredictionVenues(embeddedVenues(new PredictionPlan(SEED, world.reference.origin, priceAt), priceAt, now), now);
  sibyl = await startTestSibyl({
    rpcUrls: { base: rpcUrl('base'), polygon: devnet.chains[0]!.rpcUrl },
    env: {
      POLYMARKET_GAMMA_URL: venues.urls.polymarketGamma, POLYMARKET_CLOB_URL: venues.urls.polymarketClob,
      POLYMARKET_DATA_URL: venues.urls.polymarketData, KALSHI_API_URL: venues.urls.kalshi,
    },
  });
}, 240_000);
afterAll(async () => {
  await sibyl?.close();
  await venues?.close();
  await devnet?.stop();
});

type SkillId = keyof typeof SPEC_SKILL_PRICE;
const PAID: Partial<Record<SkillId, Record<string, unknown>>> = {
  'prediction-market-discovery': { limit: 5 },
  'insider-scan': { limit: 5 },
  'spread-analysis': { limit: 5 },
  'conviction-scanner': { limit: 5 },
  'longshot-fader': { limit: 5 },
  'cross-platform-arbitrage': { limit: 5 },
};

describe('prediction-market skills on every surface', () => {
  it('each over A2A {params}, paid with x402 at the spec price, naming the venue it read', { timeout: 240_000 }, async () => {
    // Every answer names the venue it read (the URLs this test serves them at).
    const venueOrigin = venues.urls.polymarketGamma.replace(/\/polymarket\/gamma$/, '');
    const namesVenue = (_id: string, response: Record<string, unknown>) => (JSON.stringify(response).includes(venueOrigin) ? undefined : 'the venue it read is not named');
    expect(await a2aParamsFailures(await walletPoster(sibyl.url, '10'), PAID, namesVenue)).toEqual([]);
  });

  it('over A2A JSON-RPC: message/send asks for the spec price, and the paid message completes', { timeout: 60_000 }, async () => {
    await paidJsonRpc(sibyl.url, (await fundedPayer('5')).key, 'insider-scan', { limit: 3 });
  });

  it('as MCP kinds, each debited at its skill\'s spec price; the three free tools answer without a debit', { timeout: 180_000 }, async () => {
    const { client, credits, auth } = await creditedMcpClient(sibyl.url, rpcUrl(), '2');
    const { pay } = payingFetch((await fundedPayer('10')).key);
    for (let i = 0; i < 3; i++) {
      const top = await pay(`${sibyl.url}/api/credits/topup`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ amountUsd: '2' }) });
      expect(top.status, await top.text()).toBe(200);
    }
    try {
      const kinds: [string, Record<string, unknown>, SkillId][] = [
        ['analyze_prediction_markets', { kind: 'markets', query: 'BTC', limit: 3 }, 'prediction-market-discovery'],
        ['analyze_prediction_markets', { kind: 'insiders', limit: 3 }, 'insider-scan'],
        ['analyze_prediction_markets', { kind: 'spread', limit: 3 }, 'spread-analysis'],
        ['analyze_prediction_markets', { kind: 'conviction', limit: 3 }, 'conviction-scanner'],
        ['analyze_prediction_markets', { kind: 'longshot_fade', limit: 3 }, 'longshot-fader'],
        ['find_arbitrage', { kind: 'prediction_market', limit: 3 }, 'cross-platform-arbitrage'],
      ];
      expect(await kindFailures(client, credits, kinds)).toEqual([]);
      await sibyl.snapshots.runAll();
      for (const name of ['get_prediction_whales', 'get_prediction_catalysts', 'get_prediction_yields']) {
        const before = await credits();
        const r = await client.callTool({ name, arguments: { limit: 5 } });
        expect(r.isError, name).toBeFalsy();
        expect((r.structuredContent as { available?: boolean }).available, `${name}: ${JSON.stringify(r.structuredContent).slice(0, 300)}`).toBe(true);
        expect(await credits()).toBe(before);
      }
    } finally {
      await client.close();
    }
  });

  it('the report agent answers prediction-market questions with those skills, at the report\'s price', { timeout: 120_000 }, async () => {
    const payer = await walletPoster(sibyl.url, '5');
    for (const [prompt, skills] of [
      ['Which prediction markets look like insiders are trading?', ['insider-scan', 'prediction-whales']],
      ['Where can I earn yield on near-certain outcomes?', ['prediction-yields']],
    ] as const) {
      const before = await payer.balance();
      const res = await payer.post('/api/a2a/skills/general-analysis', { params: { prompt } });
      const body = await json(res);
      expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
      expect(skills, prompt).toContain(body.response.toolsUsed[0].skill);
      expect(before - (await payer.balance())).toBe(SPEC_SKILL_PRICE['general-analysis']);
    }
  });
});

describe('every prediction skill answers its output schema', () => {
  it('run in process on this world, once each', { timeout: 120_000 }, async () => {
    await sibyl.snapshots.runAll();
    const failures: string[] = [];
    for (const skill of createRegistry([], TEST_SERVER_PARTS).published().filter((s) => s.needs?.includes('prediction'))) {
      try {
        const input = skill.input.parse({ limit: 5 });
        await skill.admit?.(input, sibyl.context);
        const answer = await skill.handler(input, sibyl.context);
        assertAnswer(skill.id, skill.output, answer);
        if ((answer as { available?: boolean }).available !== true) failures.push(`${skill.id}: ${JSON.stringify(answer).slice(0, 200)}`);
      } catch (err) {
        failures.push(`${skill.id}: ${(err as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('refused before payment, or not charged', () => {
  it('a bad query, limit or kind is a 400 naming the field, before any 402', { timeout: 30_000 }, async () => {
    for (const [path, body, field] of [
      ['/api/a2a/skills/prediction-market-discovery', { params: { limit: 0 } }, 'limit'],
      ['/api/a2a/skills/insider-scan', { params: { limit: 101 } }, 'limit'],
      ['/api/a2a/skills/prediction-market-discovery', { params: { query: 'x'.repeat(501) } }, 'query'],
      ['/api/a2a/skills/spread-analysis', { params: { nope: 1 } }, 'nope'],
    ] as const) {
      const res = await postJson(`${sibyl.url}${path}`, body);
      const text = await res.text();
      expect(res.status, `${path} ${JSON.stringify(body)}: ${text.slice(0, 200)}`).toBe(400);
      expect(text).toContain(field);
    }
  });

  it('a venue that cannot be read is a 503 and nothing is charged; with PREDICTION=off the skills are refused before the 402', { timeout: 90_000 }, async () => {
    const dead = await startTestSibyl({
      rpcUrls: { base: rpcUrl('base'), polygon: devnet.chains[0]!.rpcUrl },
      env: { POLYMARKET_GAMMA_URL: 'http://127.0.0.1:9/gamma', POLYMARKET_CLOB_URL: 'http://127.0.0.1:9/clob', POLYMARKET_DATA_URL: 'http://127.0.0.1:9/data', KALSHI_API_URL: 'http://127.0.0.1:9/kalshi' },
    });
    const off = await startTestSibyl({ env: { PREDICTION: 'off' } });
    try {
      const payer = await walletPoster(dead.url, '3');
      const before = await usdcBalance(payer.address);
      const res = await payer.post('/api/a2a/skills/prediction-market-discovery', { params: { limit: 3 } });
      expect(res.status, await res.clone().text()).toBe(503);
      expect((await json(res)).error.code).toBe('upstream_unavailable');
      expect(await usdcBalance(payer.address)).toBe(before);

      const refused = await postJson(`${off.url}/api/a2a/skills/insider-scan`, { params: {} });
      expect(refused.status).toBe(503);
      expect((await json(refused)).error.code).toBe('domain_disabled');
    } finally {
      await dead.close();
      await off.close();
    }
  });
});
