/**
 * The perp adapter (skills/perps/source.ts) reading the embedded venue over HTTP, each answer
 * checked against the venue's own state; a venue that cannot be read is upstream_unavailable, one
 * account it cannot read is reported unread (never flat).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hyperliquidSource, type PerpSource } from '../../skills/perps/source.js';
import { SibylError } from '../../skills/core/errors.js';
import { MIN_WHALES, perpWhales } from '../../skills/perps/whales.js';
import { perpSmartMoney } from '../../skills/perps/smart-money.js';
import { HyperliquidVenue } from '../../world/perps/hyperliquid-api.js';
import { PerpPlan } from '../../world/perps/plan.js';
import { servePerpVenue } from '../../world/perps/server.js';
import { ReferencePaths } from '../../world/reference.js';

const SEED = 'perp-source';
const NOW = Math.floor(Date.UTC(2026, 11, 2, 9, 0, 0) / 1000);
const ORIGIN = NOW - 30 * 86_400;
const paths = new ReferencePaths(SEED, ORIGIN);
const plan = new PerpPlan(SEED, ORIGIN, (asset, t) => paths.priceUsd(asset, t));
const state = plan.through(NOW);

describe('the Hyperliquid adapter on the embedded venue', () => {
  let served: Awaited<ReturnType<typeof servePerpVenue>>;
  let source: PerpSource;
  beforeAll(async () => {
    served = await servePerpVenue(new HyperliquidVenue(plan), () => NOW);
    source = hyperliquidSource(served.urls);
  });
  afterAll(async () => served?.close());

  it('assets: every coin with its mark, oracle and funding at the venue\'s hour', async () => {
    const assets = await source.assets();
    expect(assets.map((a) => a.coin)).toEqual([...state.hours.keys()]);
    for (const a of assets) {
      const hour = state.hours.get(a.coin as never)!.at(-1)!;
      expect(a.markPx / hour.markPx).toBeCloseTo(1, 8);
      expect(a.oraclePx / hour.oraclePx).toBeCloseTo(1, 8);
      expect(a.funding).toBeCloseTo(hour.fundingRate, 12);
    }
  });

  it('accounts: positions as the venue holds them; an account it fails to read is unread, with the reason', async () => {
    for (const a of state.accounts.filter((x) => x.role.startsWith('whale'))) {
      const read = await source.account(a.user);
      if (a.unreadable) {
        expect(read).toMatchObject({ readable: false, reason: expect.stringContaining('HTTP 500') });
        continue;
      }
      if (!read.readable) throw new Error(`${a.user} unread`);
      expect(read.positions.length).toBe(a.position ? 1 : 0);
      if (a.position) {
        expect(read.positions[0]!.coin).toBe(a.position.coin);
        expect(read.positions[0]!.szi / a.position.szi).toBeCloseTo(1, 8);
        expect(read.positions[0]!.fundingSinceOpen).toBeCloseTo(a.position.cumFunding, 2);
      }
    }
  });

  it('fills, funding and the leaderboard parse to the venue\'s figures', async () => {
    const whale = state.accounts.find((a) => a.role === 'whale-skilled' && !a.unreadable && a.fills.length > 0)!;
    const read = await source.fills(whale.user);
    if (!read.readable) throw new Error(read.reason);
    const { fills } = read;
    expect(fills.filter((f) => !f.crossed)).toHaveLength(0);
    expect(fills.length).toBe(whale.fills.length);
    expect(fills.reduce((s, f) => s + f.closedPnl, 0)).toBeCloseTo(whale.fills.reduce((s, f) => s + f.closedPnl, 0), 0);
    expect(fills[0]!.time).toBe(whale.fills.at(-1)!.time);
    const funding = await source.funding('BTC', NOW - 86_400);
    expect(funding).toHaveLength(25);
    const board = await source.leaderboard();
    expect(board.map((r) => r.user).sort()).toEqual(state.accounts.map((a) => a.user).sort());
    expect(board.find((r) => r.user === whale.user)!.accountValue / whale.equity.at(-1)!).toBeCloseTo(1, 8);
  });

  it('perp whales: the venue\'s whales and no market maker, the unread ones reported, each coin\'s lean from their positions', async () => {
    const { whales, funding } = await perpWhales(source, 25);
    const role = new Map(state.accounts.map((a) => [a.user, a.role]));
    const picked = whales.topTraders.map((t) => t.address);
    // Every account worth $500k or more now that is not a market maker: the venue's whales still that big.
    expect(picked.sort()).toEqual(state.accounts.filter((a) => a.role.startsWith('whale') && a.equity.at(-1)! >= 500_000).map((a) => a.user).sort());
    for (const a of picked) expect(role.get(a)).toMatch(/^whale-/);
    // Market makers big enough to pass for whales are told apart by their resting fills.
    const bigMakers = state.accounts.filter((a) => a.role === 'market-maker' && a.equity.at(-1)! >= 500_000).length;
    expect(bigMakers).toBeGreaterThan(0);
    expect(whales.marketMakersExcluded).toBe(bigMakers);
    expect(whales.unreadTraders.map((u) => u.address).sort()).toEqual(state.accounts.filter((a) => a.unreadable && picked.includes(a.user)).map((a) => a.user).sort());
    expect(whales.unreadTraders.length).toBeGreaterThan(0);
    expect(whales.tradersAnalyzed).toBe(picked.length - whales.unreadTraders.length);
    for (const lean of whales.assets) {
      const holders = state.accounts.filter((a) => picked.includes(a.user) && !a.unreadable && a.position?.coin === lean.coin);
      expect(lean.holders).toBe(holders.length);
      expect(lean.longs).toBe(holders.filter((a) => a.position!.szi > 0).length);
      if (holders.length < MIN_WHALES) expect(lean.lean).toBe('NEUTRAL');
    }
    expect(funding.rates).toHaveLength(state.hours.size);
  });

  it('perp smart money: every skilled whale it can read, by its fills; no market maker or poor whale; the unreadable reported', async () => {
    const answer = await perpSmartMoney(source, { since: NOW - 86_400, limit: 25 });
    const role = new Map(state.accounts.map((a) => [a.user, a.role]));
    const found = answer.traders.map((t) => t.address);
    expect(found.filter((a) => role.get(a) === 'whale-skilled').sort()).toEqual(state.accounts.filter((a) => a.role === 'whale-skilled' && !a.unreadable).map((a) => a.user).sort());
    for (const a of found) expect(['market-maker', 'whale-poor']).not.toContain(role.get(a));
    expect(answer.marketMakersExcluded).toBe(state.accounts.filter((a) => a.role === 'market-maker').length);
    expect(answer.unreadTraders.map((u) => u.address).sort()).toEqual(state.accounts.filter((a) => a.unreadable).map((a) => a.user).sort());
    for (const t of answer.traders) {
      const account = state.accounts.find((a) => a.user === t.address)!;
      expect(t.positions.length).toBe(account.position ? 1 : 0);
      expect(t.opened.length + t.closed.length).toBe(account.fills.filter((f) => f.time >= NOW - 86_400).length);
    }
  });

  it('a venue that does not answer, or answers outside its shape, is upstream_unavailable', async () => {
    const dead = hyperliquidSource({ api: 'http://127.0.0.1:9/hyperliquid', stats: 'http://127.0.0.1:9/stats' });
    await expect(dead.assets()).rejects.toSatisfy((e: unknown) => e instanceof SibylError && e.code === 'upstream_unavailable');
    const wrong = hyperliquidSource(served.urls, async () => new Response(JSON.stringify({ universe: 'no' }), { status: 200 }));
    await expect(wrong.assets()).rejects.toThrow(/outside its documented shape/);
    const slow = hyperliquidSource(served.urls, (_url, init) => new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason))), 200);
    await expect(slow.leaderboard()).rejects.toThrow(/no answer in 0.2 s/);
  });
});
