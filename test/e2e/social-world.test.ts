/**
 * get_social_hype on a short BSC world, with the official MCP client: the rows agree with the
 * embedded feed's own posts (mentions, distinct authors, KOLs), the sentiment filter partitions
 * them, the tokens the world shilled carry the shill warning and no other token does, limit and
 * truncated follow the free-tool envelope (docs/protocols.md), bad input is refused naming the field, and a deployment without a
 * feed says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createPublicClient, erc20Abi, formatUnits, http, type Address, type PublicClient } from 'viem';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { viemChain } from '../../chain/runtime.js';
import { ConfigError, loadConfig } from '../../server/config.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { SOCIAL_RULES } from '../../skills/social/engine.js';
import { socialHypeSnapshotJob } from '../../skills/social/hype.js';
import { startWorld, worldGenesisTimestamp } from '../../world/index.js';
import type { WorldLabels } from '../../world/labels.js';
import { socialModule } from '../../world/modules/social.js';
import { EmbeddedSocialFeed } from '../../world/social/embedded.js';
import type { SocialPost } from '../../world/social/feed.js';
import { startTestSibyl } from '../helpers/sibyl.js';

const SEED = 'social-a';
const DAYS = 1.25;

interface Row {
  chainId: number; contractAddress: Address; symbol: string; marketCapUsd: number | null; priceChangePct: number | null; priceUsd: number | null;
  socialHype: number; sentiment: string; summaryBrief: string; summaryDetail: string; kolCount: number; tokenAgeMs: number | null;
  mentions: number; authors: number; shillWarning: { flagged: boolean; reason: string };
}

let devnet: Devnet;
let sibyl: Awaited<ReturnType<typeof startTestSibyl>>;
let feed: EmbeddedSocialFeed;
let labels: WorldLabels;
let bsc: PublicClient;
let client: Client;
/** get_social_hype's answer before its snapshot job first ran (read only after beforeAll). */
let cold: any;

beforeAll(async () => {
  devnet = await startDevnet({ chains: ['base', 'bsc'], basePort: 0, genesisTimestamp: worldGenesisTimestamp(DAYS), fifo: true });
  const chain = (name: string) => devnet.chains.find((c) => c.name === name)!;
  // The world on BSC only (Base carries the payments); the feed's other modules do not touch it.
  const world = await startWorld([chain('bsc')], { seed: SEED, days: DAYS, meanBlockSeconds: 1_200, liveBlockMs: 0, labelsPath: join(tmpdir(), `sibyl-social-${process.pid}.json`), modules: [socialModule] });
  world.stop();
  feed = EmbeddedSocialFeed.of(world.worlds)!;
  labels = world.worlds[0]!.labels;
  sibyl = await startTestSibyl({ rpcUrls: { base: chain('base').rpcUrl, bsc: chain('bsc').rpcUrl }, socialFeed: feed });
  bsc = createPublicClient({ chain: viemChain('bsc', chain('bsc').rpcUrl), transport: http(chain('bsc').rpcUrl) }) as PublicClient;
  client = new Client({ name: 'sibyl-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${sibyl.url}/api/mcp`)));
  // Every test reads the warm snapshot; what the tool said before is kept for the test that checks it.
  cold = (await call()).body;
  await sibyl.snapshots.run(socialHypeSnapshotJob);
}, 300_000);
afterAll(async () => {
  await client?.close();
  await sibyl?.close();
  await devnet?.stop();
});

async function call(args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name: 'get_social_hype', arguments: args });
  return { isError: result.isError === true, body: result.structuredContent as any, text: (result.content as { text: string }[])[0]?.text ?? '' };
}

/** Every row, through the sentiment filter (each class at the widest limit), keyed by contract. */
async function allRows(): Promise<Map<string, Row>> {
  const rows = new Map<string, Row>();
  for (const sentiment of ['Positive', 'Negative', 'Neutral']) {
    const { body } = await call({ sentiment, limit: 15 });
    expect(body.truncated, `${sentiment} rows fit in 15`).toBeUndefined();
    for (const r of body.rows as Row[]) rows.set(r.contractAddress.toLowerCase(), r);
  }
  return rows;
}

describe('get_social_hype on the world (official MCP client)', () => {
  it('is not warm before its job runs, then answers the envelope of spec 2.4 for BSC', async () => {
    expect(cold).toMatchObject({ available: false, reason: 'snapshot_not_warm', limit: 8 });
    const { isError, body, text } = await call();
    expect(isError).toBe(false);
    expect(body).toMatchObject({ available: true, stale: false, limit: 8, object: 'social-hype', chain: 'bsc', sentiment: 'All', fetchedAt: expect.any(Number) });
    expect(body.feed).toMatchObject({ source: 'embedded' });
    expect(body.methodology).toMatch(/^social\/v1/);
    expect(body.provenance).toMatchObject({ chain: 'bsc', chainId: 56, feed: 'embedded', methodology: body.methodology });
    expect(JSON.parse(text)).toEqual(body);
  });

  it('counts what the feed holds: mentions, distinct authors and KOLs per token over the window', async () => {
    const { body } = await call({ limit: 15 });
    const posts = await feed.posts(body.window.from, body.window.to);
    expect(body.feed.posts).toBe(posts.length);
    const byToken = new Map<string, SocialPost[]>();
    for (const p of posts) byToken.set(p.token.contract.toLowerCase(), [...(byToken.get(p.token.contract.toLowerCase()) ?? []), p]);
    const rows = await allRows();
    expect(rows.size).toBe(byToken.size);
    for (const [token, own] of byToken) {
      const row = rows.get(token)!;
      const authors = new Map(own.map((p) => [p.author.id, p.author]));
      expect(row, own[0]!.token.symbol).toMatchObject({
        chainId: 56, symbol: own[0]!.token.symbol, mentions: own.length, authors: authors.size,
        kolCount: [...authors.values()].filter((a) => a.followers >= SOCIAL_RULES.kolFollowers).length,
      });
      // The hype score by the published formula, from the feed's own posts of the token.
      const engagement = own.reduce((n, p) => n + p.engagement.likes + 2 * p.engagement.reposts + p.engagement.replies, 0);
      const raw = authors.size + 0.25 * (own.length - authors.size) + 3 * row.kolCount + Math.log10(1 + engagement);
      expect(row.socialHype, own[0]!.token.symbol).toBe(Math.round(100 * (1 - Math.exp(-raw / 40))));
      expect(row.summaryBrief).toContain(`$${row.symbol}: ${own.length} mentions by ${authors.size} accounts`);
      expect(row.summaryDetail).toContain(`hype ${row.socialHype}/100`);
      expect(row.tokenAgeMs).toBeGreaterThan(0);
    }
    // Hottest first.
    const hype = (body.rows as Row[]).map((r) => r.socialHype);
    expect(hype).toEqual([...hype].sort((a, b) => b - a));
  });

  it('prices a row with the market: market cap is the chain\'s supply at the row\'s price', async () => {
    const priced = [...(await allRows()).values()].filter((r) => r.priceUsd !== null);
    expect(priced.length).toBeGreaterThan(0);
    for (const r of priced) {
      const [supply, decimals] = await Promise.all([
        bsc.readContract({ address: r.contractAddress, abi: erc20Abi, functionName: 'totalSupply' }),
        bsc.readContract({ address: r.contractAddress, abi: erc20Abi, functionName: 'decimals' }),
      ]);
      expect(r.marketCapUsd!, r.symbol).toBeCloseTo(Number(formatUnits(supply, decimals)) * r.priceUsd!, -1);
    }
  });

  it('filters by sentiment: each class holds only its rows, and the three make up All', async () => {
    const all = (await call({ limit: 15 })).body;
    const total = all.truncated?.originalLengths.rows ?? all.rows.length;
    let seen = 0;
    for (const sentiment of ['Positive', 'Negative', 'Neutral']) {
      const { body } = await call({ sentiment, limit: 15 });
      expect(body).toMatchObject({ available: true, sentiment });
      for (const r of body.rows as Row[]) expect(r.sentiment).toBe(sentiment);
      seen += body.rows.length;
    }
    expect(seen).toBe(total);
  });

  it('flags the tokens the world shilled, and no other', async () => {
    const { body } = await call();
    const shillIds = new Set(labels.social.posts.filter((p) => p.kind === 'shill').map((p) => p.id));
    const posts = await feed.posts(body.window.from, body.window.to);
    // A campaign with at least the rule's minimum of posts in the window can be judged.
    const judgeable = labels.social.shilled.filter((s) => posts.filter((p) => shillIds.has(p.id) && p.token.contract.toLowerCase() === s.token.toLowerCase()).length >= SOCIAL_RULES.shill.minMentions);
    expect(judgeable.length, 'this world shills a token within the window').toBeGreaterThan(0);
    const rows = await allRows();
    for (const s of judgeable) expect(rows.get(s.token.toLowerCase())?.shillWarning, s.symbol).toMatchObject({ flagged: true });
    const shilled = new Set(labels.social.shilled.map((s) => s.token.toLowerCase()));
    const flagged = [...rows].filter(([, r]) => r.shillWarning.flagged).map(([t]) => t);
    expect(flagged.filter((t) => !shilled.has(t))).toEqual([]);
    for (const t of flagged) expect(rows.get(t)!.summaryBrief).toMatch(/shill warning$/);
  });

  it('caps the rows at limit and says what it cut (spec 2.4)', async () => {
    const wide = (await call({ limit: 15 })).body;
    const total = wide.truncated?.originalLengths.rows ?? wide.rows.length;
    expect(total).toBeGreaterThan(1);
    const one = (await call({ limit: 1 })).body;
    expect(one.rows).toHaveLength(1);
    expect(one).toMatchObject({ limit: 1, truncated: { limit: 1, originalLengths: { rows: total } } });
    expect(one.rows[0]).toEqual(wide.rows[0]);
    if (total <= 15) expect(wide.truncated).toBeUndefined();
  });

  it('refuses input outside the schema, naming the field', async () => {
    for (const [args, field] of [[{ limit: 16 }, 'limit'], [{ limit: 0 }, 'limit'], [{ limit: 2.5 }, 'limit'], [{ sentiment: 'Bullish' }, 'sentiment'], [{ chain: 'bsc' }, 'chain']] as const) {
      const r = await call(args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.text, JSON.stringify(args)).toContain(field);
    }
  });

  it('answers domain_disabled, not an error, where there is no feed; SOCIAL_FEED is embedded or off', async () => {
    const tool = createRegistry().byId('social-hype')!;
    const { social: _feed, ...withoutFeed } = sibyl.context;
    expect(await tool.handler(tool.input.parse({}), withoutFeed)).toMatchObject({ available: false, reason: 'domain_disabled', limit: 8, detail: expect.stringMatching(/SOCIAL_FEED/) });
    expect(loadConfig({ EMBEDDED_CHAINS: 'base' }).social).toEqual({ kind: 'embedded' });
    expect(loadConfig({ EMBEDDED_CHAINS: 'base', SOCIAL_FEED: 'off' }).social).toBeUndefined();
    expect(() => loadConfig({ EMBEDDED_CHAINS: 'base', SOCIAL_FEED: 'x' })).toThrow(ConfigError);
    expect(() => loadConfig({ EMBEDDED_CHAINS: 'base', SOCIAL_FEED: 'x' })).toThrow(/SOCIAL_FEED/);
  });
});
