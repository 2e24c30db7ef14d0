/**
 * Every data operation's limits and enums at their edges, as the published interface states
 * them (docs/skills.md), typed here rather than read from the registry: a value just
 * inside is priced (402, nothing charged), a value just outside is a 400 naming the field. A
 * chain value this deployment cannot serve is valid but refused before any 402 (docs/protocols.md,
 * "Refusals before payment": "a chain that is not EVM (`solana` outside curve-*: `503
 * chain_unavailable`, `reason: "not_evm"`), one with no indexed DEX (`zksync`: `reason:
 * "no_dex"`), one this deployment does not index (`reason: "not_indexed"`)").
 */
import { describe, expect, it } from 'vitest';
import { json, postJson, useTestSibyl } from '../helpers/sibyl.js';

const ALL_PERIODS = ['1h', '4h', '12h', '24h', '7d', '14d', '30d'];
const ALL_CHAINS = ['base', 'ethereum', 'bsc', 'arbitrum', 'polygon', 'optimism', 'zksync', 'solana'];
const FIVE_CHAINS = ['ethereum', 'base', 'bsc', 'arbitrum', 'polygon'];
/** USDC has a pool on every embedded chain, so the token is known on each chain value tried. */
const TOKEN = { tokenAddress: 'USDC' };
/** The chains the test devnet embeds and this server indexes (docs/operations.md: EMBEDDED_CHAINS default). */
const INDEXED = ['base', 'ethereum', 'bsc', 'arbitrum', 'polygon', 'optimism'];

interface Edges {
  required?: Record<string, unknown>;
  limit?: [number, number];
  periods?: string[];
  chains?: string[];
}

const chainList: Edges = { limit: [1, 500], periods: ALL_PERIODS, chains: ALL_CHAINS };
const SPEC: Record<string, Edges> = {
  'latest-pairs': { limit: [1, 500], chains: ALL_CHAINS },
  tokenchart: { required: TOKEN, periods: ALL_PERIODS, chains: ALL_CHAINS.filter((c) => c !== 'solana') },
  'tokenchart/raw': { required: TOKEN, periods: ALL_PERIODS, chains: ALL_CHAINS.filter((c) => c !== 'solana') },
  ohlcv: { required: TOKEN, periods: ALL_PERIODS, chains: ALL_CHAINS.filter((c) => c !== 'solana') },
  'top-tokens': chainList,
  topvolume: chainList,
  'wallet-holdings': { required: { walletAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }, chains: FIVE_CHAINS },
  holderconcentration: { required: TOKEN, chains: FIVE_CHAINS },
  tokensniping: { required: TOKEN, chains: FIVE_CHAINS },
  'rug-pull-scanner': { required: TOKEN, chains: FIVE_CHAINS },
  'curve-launches': { limit: [1, 20], periods: ['1h', '4h', '12h', '24h'], chains: ['solana'] },
  'curve-volume': { limit: [1, 500], periods: ALL_PERIODS, chains: ['solana'] },
  'curve-graduation': { limit: [1, 200], chains: ['solana'] },
  liquidityshifts: chainList,
  whaleintel: chainList,
  smartmoney: chainList,
  dexcapital: chainList,
  mevdetection: chainList,
  'creator-launches': { limit: [1, 25], periods: ['1h', '4h', '12h', '24h', '7d', '30d'], chains: ['base'] },
  'creator-volume': { limit: [1, 25], periods: ['1h', '4h', '12h', '24h', '7d', '30d'], chains: ['base'] },
  'virtual-pools': { limit: [1, 500], periods: ['1h', '4h', '12h', '24h', '7d'], chains: ['base'] },
};

const outside = (allowed: string[], universe: string[]) => universe.find((v) => !allowed.includes(v));

describe('spec limits and enums at their edges', () => {
  const sibyl = useTestSibyl();
  const post = (path: string, body: unknown) => postJson(`${sibyl.url}/x402/data/${path}`, body);
  const refused = async (path: string, body: unknown, field: string, rule: RegExp) => {
    const res = await post(path, body);
    expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
    const { error } = await json(res);
    expect(error.code).toBe('invalid_body');
    expect(error.fields.some((f: { field: string; rule: string }) => f.field === field && rule.test(f.rule)), JSON.stringify(error.fields)).toBe(true);
  };
  const priced = async (path: string, body: unknown) => {
    const res = await post(path, body);
    expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(402);
  };
  const unindexed = async (path: string, body: unknown) => {
    const res = await post(path, body);
    expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(503);
    expect((await json(res)).error.code).toBe('chain_unavailable');
  };

  it('virtual-pools: sortBy and minVolumeUsd', async () => {
    for (const sortBy of ['volumeUsd', 'swaps', 'priceChange']) await priced('virtual-pools', { sortBy });
    await refused('virtual-pools', { sortBy: 'tvl' }, 'sortBy', /must be one of volumeUsd, swaps, priceChange/);
    await priced('virtual-pools', { minVolumeUsd: 0 });
    await refused('virtual-pools', { minVolumeUsd: -1 }, 'minVolumeUsd', />= 0/);
    await refused('virtual-pools', { minVolumeUsd: '100' }, 'minVolumeUsd', /must be a number/);
  });

  it('investment-report: chains is a required array of 1-8 distinct chain values', async () => {
    await refused('investment-report', {}, 'chains', /required/);
    await refused('investment-report', { chains: [] }, 'chains', /must have at least 1 item/);
    await refused('investment-report', { chains: [...ALL_CHAINS, 'base'] }, 'chains', /must have at most 8 items/);
    await refused('investment-report', { chains: ['base', 'base'] }, 'chains', /must not repeat/);
    await refused('investment-report', { chains: ['dogechain'] }, 'chains.0', /must be one of/);
    await refused('investment-report', { chains: 'base' }, 'chains', /must be an array/);
    await priced('investment-report', { chains: ['base'] });
    await priced('investment-report', { chains: ALL_CHAINS });
    for (const [limit, ok] of [[0, false], [1, true], [500, true], [501, false]] as const) {
      if (ok) await priced('investment-report', { chains: ['base'], limit });
      else await refused('investment-report', { chains: ['base'], limit }, 'limit', /must be/);
    }
    for (const p of ALL_PERIODS) await priced('investment-report', { chains: ['base'], timeperiod: p });
  });

  for (const [path, edges] of Object.entries(SPEC)) {
    const base = edges.required ?? {};
    it(`${path}: ${JSON.stringify(edges)}`, async () => {
      if (edges.limit) {
        const [min, max] = edges.limit;
        await refused(path, { ...base, limit: min - 1 }, 'limit', new RegExp(`>= ${min}`));
        await refused(path, { ...base, limit: max + 1 }, 'limit', new RegExp(`<= ${max}`));
        await priced(path, { ...base, limit: min });
        await priced(path, { ...base, limit: max });
      } else {
        await refused(path, { ...base, limit: 5 }, 'limit', /unknown field/);
      }
      if (edges.periods) {
        for (const p of edges.periods) await priced(path, { ...base, timeperiod: p });
        const bad = outside(edges.periods, ALL_PERIODS) ?? '60d';
        await refused(path, { ...base, timeperiod: bad }, 'timeperiod', /must be one of/);
      }
      if (edges.chains) {
        // The curve-* operations read the Solana feed, not an EVM index.
        for (const c of edges.chains) await (INDEXED.includes(c) || path.startsWith('curve-') ? priced : unindexed)(path, { ...base, chain: c });
        const bad = outside(edges.chains, ALL_CHAINS) ?? 'dogechain';
        await refused(path, { ...base, chain: bad }, 'chain', /must be one of/);
      }
      for (const [field] of Object.entries(base)) {
        const { [field]: _, ...rest } = base;
        await refused(path, rest, field, /required/);
      }
    });
  }
});
