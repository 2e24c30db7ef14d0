/**
 * The altcoin season index on the shared world counts only altcoins (found before: an index of 95
 * resting on launchpad micro tokens). Held to what the index cannot see: the world's labels (no
 * constituent is a launchpad token, a honeypot, a taxed or owner-powered token, or a rug) and
 * the chain itself (each constituent held the liquidity floor in its pools' reserves at the block
 * before the window, and its pools logged the minimum of swaps inside it), and the index is the
 * share of those constituents that beat the benchmark.
 */
import { getAddress, parseAbi, parseAbiItem, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAINS } from '../../chain/chains.js';
import { ALTSEASON_MIN_LIQUIDITY_USD, ALTSEASON_MIN_TRADES } from '../../skills/altseason/engine.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { startSharedWorldSibyl, type WorldSibyl } from '../helpers/world.js';

const FACTORY = parseAbi(['function getPair(address, address) view returns (address)']);
const PAIR = parseAbi(['function token0() view returns (address)']);
const SYNC = parseAbiItem('event Sync(uint112 reserve0, uint112 reserve1)');
const SWAP = parseAbiItem('event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)');
const SCAM_KINDS = ['launchpad', 'honeypot', 'taxed', 'owner-powers'];

let w: WorldSibyl;
beforeAll(async () => {
  w = await startSharedWorldSibyl();
}, 300_000);
afterAll(() => w?.close());

describe('altcoin season index on the world', () => {
  it('no constituent is a launchpad or scam token by the labels; each held the liquidity floor before the window and traded in it, by the chain', { timeout: 120_000 }, async () => {
    const registry = createRegistry();
    const skill = registry.byId('altcoin-season-index')!;
    const r = (await skill.handler(skill.input.parse({ chain: 'base', timeperiod: '24h' }), w.sibyl.context)) as any;
    expect(r.available, r.reason).toBe(true);
    const from = BigInt(r.blockRange.from);
    const to = BigInt(r.blockRange.to);
    const { usdc, wrappedNative: weth, dexes } = CHAINS.base;
    const client = w.client;

    // The labels: what each constituent is.
    const labelled = new Map(w.labels.tokens.map((t) => [t.token.toLowerCase(), t]));
    for (const t of r.tokens) {
      const label = labelled.get(t.token.toLowerCase());
      expect(SCAM_KINDS, `${t.symbol} is labelled ${label?.kind}`).not.toContain(label?.kind);
      expect(label?.rug ?? false, `${t.symbol} was rugged`).toBe(false);
    }
    // Scam-labelled tokens with a pool are either left out by the screen or by another rule: none is compared.
    const scams = w.labels.tokens.filter((t) => SCAM_KINDS.includes(t.kind) || t.rug).map((t) => t.token.toLowerCase());
    expect(r.tokens.filter((t: any) => scams.includes(t.token.toLowerCase()))).toEqual([]);

    // The chain: reserves after each pool's last Sync log before the window, valued by the USDC side (or WETH at its deepest USDC pool then).
    const before = from - 1n;
    const pairOf = (factory: Address, a: Address, b: Address) => client.readContract({ address: factory, abi: FACTORY, functionName: 'getPair', args: [a, b] });
    const reserves = async (pair: Address, token: Address, blockNumber: bigint) => {
      const [syncs, token0] = await Promise.all([
        client.getLogs({ address: pair, event: SYNC, fromBlock: 0n, toBlock: blockNumber, strict: true }),
        client.readContract({ address: pair, abi: PAIR, functionName: 'token0' }),
      ]);
      const last = syncs.at(-1);
      const [r0, r1] = last ? [last.args.reserve0, last.args.reserve1] : [0n, 0n];
      return getAddress(token0) === getAddress(token) ? { mine: r0, other: r1 } : { mine: r1, other: r0 };
    };
    let wethUsd = 0;
    for (const d of dexes) {
      const pair = await pairOf(d.factory, weth, usdc);
      if (/^0x0{40}$/i.test(pair)) continue;
      const { mine, other } = await reserves(pair, weth, before);
      if (mine > 0n) wethUsd = Math.max(wethUsd, Number(other) / 1e6 / (Number(mine) / 1e18));
    }
    expect(wethUsd).toBeGreaterThan(0);
    for (const t of r.tokens) {
      let liquidityUsd = 0;
      let swaps = 0;
      for (const d of dexes) {
        for (const [quote, usd, decimals] of [[usdc, 1, 6], [weth, wethUsd, 18]] as const) {
          const pair = await pairOf(d.factory, getAddress(t.token), quote);
          if (/^0x0{40}$/i.test(pair)) continue;
          liquidityUsd += 2 * (Number((await reserves(pair, getAddress(t.token), before)).other) / 10 ** decimals) * usd;
          swaps += (await client.getLogs({ address: pair, event: SWAP, fromBlock: from, toBlock: to })).length;
        }
      }
      expect(liquidityUsd, `${t.symbol}'s liquidity before the window`).toBeGreaterThanOrEqual(ALTSEASON_MIN_LIQUIDITY_USD * 0.99);
      expect(swaps, `${t.symbol}'s swaps in the window`).toBeGreaterThanOrEqual(ALTSEASON_MIN_TRADES);
    }

    // The index is the share of those constituents that beat the benchmark.
    const beat = r.tokens.filter((t: any) => t.changePct > r.benchmark.changePct).length;
    expect(r.tokens.map((t: any) => t.beatBenchmark)).toEqual(r.tokens.map((t: any) => t.changePct > r.benchmark.changePct));
    expect(r.index).toBe(Math.round((100 * beat) / r.tokens.length));
    expect(r.tokensCompared).toBe(r.tokens.length);
  });
});
