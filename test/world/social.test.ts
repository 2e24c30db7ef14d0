/**
 * The world's social module (world/modules/social.ts): it writes its posts without touching the
 * chain, labels every post, and a resumed world serves the same posts and goes on writing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { startWorld, worldGenesisTimestamp, type RunningWorld } from '../../world/index.js';
import { socialModule } from '../../world/modules/social.js';
import { EmbeddedSocialFeed } from '../../world/social/embedded.js';
import { World } from '../../world/world.js';

const DAYS = 0.75;
const SEED = 'social-mod-a';

let devnet: Devnet;
let world: RunningWorld;
beforeAll(async () => {
  devnet = await startDevnet({ chains: ['bsc'], basePort: 0, genesisTimestamp: worldGenesisTimestamp(DAYS), fifo: true });
  world = await startWorld(devnet.chains, { seed: SEED, days: DAYS, meanBlockSeconds: 1_200, liveBlockMs: 0, labelsPath: join(tmpdir(), `sibyl-social-mod-${process.pid}.json`), modules: [socialModule] });
  world.stop();
}, 300_000);
afterAll(async () => {
  world?.stop();
  await devnet?.stop();
});

describe('the social module', () => {
  it('writes labelled posts in time order about the world\'s tokens, and only on BSC', async () => {
    expect(socialModule('base', null as never)).toBeUndefined();
    const feed = EmbeddedSocialFeed.of(world.worlds)!;
    const posts = await feed.posts(0, await feed.head());
    const labels = world.worlds[0]!.labels.social;
    expect(posts.length).toBeGreaterThan(50);
    expect(posts.map((p) => p.id).sort()).toEqual(labels.posts.map((p) => p.id).sort());
    expect(posts.map((p) => p.time)).toEqual([...posts.map((p) => p.time)].sort((a, b) => a - b));
    const tokens = new Set(world.worlds[0]!.labels.tokens.map((t) => t.token.toLowerCase()));
    for (const p of posts) {
      expect(p.author.createdAt).toBeLessThanOrEqual(p.time);
      // Genesis tokens (not in labels.tokens) and the world's listings.
      expect(p.token.symbol.length).toBeGreaterThan(0);
      if (/^(NEW|HONEY|TAX|OWN)/.test(p.token.symbol)) expect(tokens.has(p.token.contract.toLowerCase())).toBe(true);
    }
    // Every shill post is by its campaign's ring, about its token.
    const kind = new Map(labels.posts.map((p) => [p.id, p.kind]));
    for (const p of posts.filter((x) => kind.get(x.id) === 'shill')) {
      const campaign = labels.shilled.find((s) => s.token.toLowerCase() === p.token.contract.toLowerCase())!;
      expect(campaign.accounts).toContain(p.author.id);
      expect(p.time).toBeGreaterThanOrEqual(campaign.from);
      expect(p.time).toBeLessThanOrEqual(campaign.until);
    }
  });

  it('is resumed with the world: the same posts served, and new ones written after', async () => {
    const running = world.worlds[0]!;
    const before = await EmbeddedSocialFeed.of([running])!.posts(0, Infinity);
    const saved = JSON.parse(JSON.stringify(running.toState()));
    const chain = devnet.chains[0]!;
    const resumed = await World.resume({ name: 'bsc', rpcUrl: chain.rpcUrl, genesis: chain.genesis, seed: SEED, startTimestamp: world.reference.origin, meanBlockSeconds: 1_200, reference: world.reference, modules: [socialModule] }, saved);
    try {
      const feed = EmbeddedSocialFeed.of([resumed])!;
      expect(await feed.posts(0, Infinity)).toEqual(before);
      await resumed.backfill(saved.now + 12 * 3600);
      const after = await feed.posts(0, Infinity);
      expect(after.length).toBeGreaterThan(before.length);
      expect(new Set(after.map((p) => p.id)).size).toBe(after.length);
      expect(await feed.head()).toBe(saved.now + 12 * 3600);
    } finally {
      resumed.stop();
    }
  });
});
