/**
 * The base launchpad and VIRTUAL pools, paid end to end on a world's history and checked
 * against the chain: the venue's own state read by eth_call and raw logs read with getLogs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatEther, parseAbi, parseAbiItem, type Address } from 'viem';
import type { WorldLabels } from '../../src/world/labels.js';
import { json } from '../helpers/sibyl.js';
import { startWorldSibyl, type WorldSibyl } from '../helpers/world.js';

const launchpadAbi = parseAbi(['function curves(address) view returns (address creator, uint256 virtualEth, uint256 virtualToken, uint256 realEth, uint256 tokensSold, bool graduated)']);
const launchedEvent = parseAbiItem('event TokenLaunched(address indexed token, address indexed creator, string name, string symbol)');
const tradeEvent = parseAbiItem('event Trade(address indexed token, address indexed trader, bool isBuy, uint256 ethAmount, uint256 tokenAmount, uint256 virtualEth, uint256 virtualToken, uint256 realEth, uint256 progressBps)');
const swapEvent = parseAbiItem('event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)');

describe('launchpad and VIRTUAL pools on a world', () => {
  let env: WorldSibyl;
  let post: WorldSibyl['post'];
  let client: WorldSibyl['client'];
  let labels: WorldLabels;

  beforeAll(async () => {
    env = await startWorldSibyl('launchpad-test');
    ({ post, client, labels } = env);
  });
  afterAll(() => env?.close());

  it('creator-launches lists every TokenLaunched log of the period, newest first, with the curve state the venue holds', async () => {
    const res = await post('/x402/data/creator-launches', { timeperiod: '30d', limit: 25 });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ chain: 'base', source: 'rpc', methodology: expect.stringContaining('launchpad/v1'), limit: 25, timeperiod: '30d' });
    const venue = labels.contracts.launchpad!;
    expect(body.venues).toEqual([venue.toLowerCase()]);
    const logs = await client.getLogs({ address: venue, event: launchedEvent, fromBlock: BigInt(body.blockRange.from), toBlock: BigInt(body.blockRange.to) });
    expect(logs.length).toBeGreaterThan(0);
    expect(body.total).toBe(logs.length);
    expect(body.tokens.length).toBe(Math.min(25, logs.length));
    const blocks = body.tokens.map((t: any) => t.launchedBlock);
    expect(blocks).toEqual([...blocks].sort((a: number, b: number) => b - a));
    for (const t of body.tokens.slice(0, 5)) {
      const [creator, , , realEth, tokensSold, graduated] = await client.readContract({ address: venue, abi: launchpadAbi, functionName: 'curves', args: [t.token] });
      expect(t.creator.toLowerCase()).toBe(creator.toLowerCase());
      expect(t.graduated !== null).toBe(graduated);
      if (!graduated) {
        expect(t.raisedEth).toBeCloseTo(Number(formatEther(realEth)), 9);
        expect(t.progressPct).toBeCloseTo(Number((tokensSold * 10_000n) / (793_100_000n * 10n ** 18n)) / 100, 6);
      }
    }
  });

  it('creator-volume ranks tokens by period volume, and the curve ETH equals the Trade logs', async () => {
    const res = await post('/x402/data/creator-volume', { timeperiod: '7d' });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.limit).toBe(15);
    const volumes = body.tokens.map((t: any) => t.period.volumeUsd);
    expect(volumes).toEqual([...volumes].sort((a: number, b: number) => b - a));
    const top = body.tokens[0];
    const trades = await client.getLogs({ address: labels.contracts.launchpad!, event: tradeEvent, args: { token: top.token }, fromBlock: BigInt(body.blockRange.from), toBlock: BigInt(body.blockRange.to) });
    expect(top.period.buys + top.period.sells).toBe(trades.length);
    expect(top.period.curveVolumeEth).toBeCloseTo(trades.reduce((s, l) => s + Number(formatEther(l.args.ethAmount!)), 0), 9);
    expect(top.period.traders).toBe(new Set(trades.map((l) => l.args.trader!.toLowerCase())).size);
  });

  it('virtual-pools counts each VIRTUAL pool\'s Swap logs, filters by volume and sorts as asked', async () => {
    const all = await json(await post('/x402/data/virtual-pools', { minVolumeUsd: 0, limit: 500, timeperiod: '7d' }));
    expect(all).toMatchObject({ chain: 'base', sortBy: 'volumeUsd', minVolumeUsd: 0 });
    expect(all.pools.length).toBeGreaterThan(0);
    expect(all.pools.length).toBe(all.poolsPaired);
    for (const p of all.pools.slice(0, 4)) {
      const swaps = await client.getLogs({ address: p.pool as Address, event: swapEvent, fromBlock: BigInt(all.blockRange.from), toBlock: BigInt(all.blockRange.to) });
      expect(p.swaps).toBe(swaps.length);
    }
    const floor = all.pools[Math.floor(all.pools.length / 2)].volumeUsd;
    const filtered = await json(await post('/x402/data/virtual-pools', { minVolumeUsd: floor, limit: 500, timeperiod: '7d', sortBy: 'swaps' }));
    expect(filtered.pools.length).toBe(all.pools.filter((p: any) => p.volumeUsd >= floor).length);
    const swaps = filtered.pools.map((p: any) => p.swaps);
    expect(swaps).toEqual([...swaps].sort((a: number, b: number) => b - a));
    const byChange = await json(await post('/x402/data/virtual-pools', { minVolumeUsd: 0, limit: 500, timeperiod: '7d', sortBy: 'priceChange' }));
    const changes = byChange.pools.map((p: any) => p.priceChange ?? -Infinity);
    expect(changes).toEqual([...changes].sort((a: number, b: number) => b - a));
  });
});
