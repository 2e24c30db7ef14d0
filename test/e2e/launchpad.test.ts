/**
 * The base launchpad and VIRTUAL pools, paid end to end on a world's history and checked
 * against the chain: the venue's own state read by eth_call and raw logs read with getLogs.
 * The test also launches a token itself, buys its curve out so it graduates, and trades the
 * graduated pair through the router: the DEX figures sold must be that pair's Swap logs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, encodeFunctionData, formatEther, http, parseAbi, parseAbiItem, parseEther, parseEventLogs, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { CHAINS } from '../../chain/chains.js';
import { BondingCurveLaunchpad, DemoToken, SibylV2Factory, SibylV2Pair, SibylV2Router, WrappedNative } from '../../chain/artifacts/index.js';
import { viemChain } from '../../chain/runtime.js';
import { launchpadRadar } from '../../skills/launchpad/radar-snapshot.js';
import type { WorldLabels } from '../../world/labels.js';
import { json, rpc, untilIndexed } from '../helpers/sibyl.js';
import { startWorldSibyl, type WorldSibyl } from '../helpers/world.js';

const launchpadAbi = parseAbi(['function curves(address) view returns (address creator, uint256 virtualEth, uint256 virtualToken, uint256 realEth, uint256 tokensSold, bool graduated)']);
const launchedEvent = parseAbiItem('event TokenLaunched(address indexed token, address indexed creator, string name, string symbol)');
const tradeEvent = parseAbiItem('event Trade(address indexed token, address indexed trader, bool isBuy, uint256 ethAmount, uint256 tokenAmount, uint256 virtualEth, uint256 virtualToken, uint256 realEth, uint256 progressBps)');
const swapEvent = parseAbiItem('event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)');
const graduatedEvent = parseAbiItem('event Graduated(address indexed token, address indexed pair, uint256 ethAmount, uint256 tokenAmount)');
const WETH = CHAINS.base.wrappedNative;
const USDC = CHAINS.base.usdc;

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
    expect(body).toMatchObject({ chain: 'base', source: 'rpc', methodology: expect.stringContaining('launchpad/v2'), limit: 25, timeperiod: '30d' });
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

  /** A token this test launched, bought out to graduation and traded on its pair through the router. */
  /** A fresh funded trader that sends and waits for success. */
  async function trader() {
    const account = privateKeyToAccount(generatePrivateKey());
    await rpc(env.rpcUrl, 'anvil_setBalance', [account.address, `0x${parseEther('100').toString(16)}`]);
    const wallet = createWalletClient({ account, chain: viemChain('base', env.rpcUrl), transport: http(env.rpcUrl) });
    const send = async (to: Address, data: Hex, value = 0n) => {
      const hash = await wallet.sendTransaction({ to, data, value, gas: 3_000_000n });
      const receipt = await client.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      return receipt;
    };
    return { account, send };
  }

  /** Launches a curve token from a fresh trader; returns the token and the trader. */
  async function launch(name: string, symbol: string) {
    const t = await trader();
    const launched = await t.send(labels.contracts.launchpad!, encodeFunctionData({ abi: BondingCurveLaunchpad.abi, functionName: 'launch', args: [name, symbol] }));
    return { ...t, token: parseEventLogs({ abi: BondingCurveLaunchpad.abi, logs: launched.logs, eventName: 'TokenLaunched' })[0]!.args.token as Address };
  }

  async function graduateAndTrade() {
    const { account, send, token } = await launch('Graduate Test', 'GRADT');
    const venue = labels.contracts.launchpad!;
    // More than the curve needs: the last buyer takes what is left and gets the rest back, and the token graduates.
    const bought = await send(venue, encodeFunctionData({ abi: BondingCurveLaunchpad.abi, functionName: 'buy', args: [token, 0n] }), parseEther('6'));
    const graduation = parseEventLogs({ abi: BondingCurveLaunchpad.abi, logs: bought.logs, eventName: 'Graduated' })[0]!;
    const pair = graduation.args.pair as Address;
    const factory = CHAINS.base.dexes[0]!.factory;
    const routers = labels.contracts.routers;
    const router = (await Promise.all(routers.map(async (r) => ({ r, f: await client.readContract({ address: r, abi: SibylV2Router.abi, functionName: 'factory' }) })))).find((x) => (x.f as string).toLowerCase() === factory.toLowerCase())!.r;
    const far = 2n ** 40n;
    await send(WETH, encodeFunctionData({ abi: WrappedNative.abi, functionName: 'deposit' }), parseEther('2'));
    await send(WETH, encodeFunctionData({ abi: WrappedNative.abi, functionName: 'approve', args: [router, 2n ** 255n] }));
    await send(token, encodeFunctionData({ abi: DemoToken.abi, functionName: 'approve', args: [router, 2n ** 255n] }));
    for (const wei of [parseEther('0.4'), parseEther('0.7')]) {
      await send(router, encodeFunctionData({ abi: SibylV2Router.abi, functionName: 'swapExactTokensForTokens', args: [wei, 0n, [WETH, token], account.address, far] }));
    }
    await send(router, encodeFunctionData({ abi: SibylV2Router.abi, functionName: 'swapExactTokensForTokens', args: [parseEther('1000000'), 0n, [token, WETH], account.address, far] }));
    await untilIndexed(env.sibyl.url);
    return { token, pair, graduatedBlock: graduation.blockNumber, graduationEth: Number(formatEther(graduation.args.ethAmount as bigint)) };
  }

  /** The wrapped native's USD price now, from the deepest USDC pair's reserves (what market/v1 reads). */
  async function wethUsdNow(): Promise<number> {
    let deepest = { usdc: 0, price: 0 };
    for (const dex of CHAINS.base.dexes) {
      const pair = await client.readContract({ address: dex.factory, abi: SibylV2Factory.abi, functionName: 'getPair', args: [WETH, USDC] }) as Address;
      if (/^0x0+$/.test(pair)) continue;
      const [r0, r1] = await client.readContract({ address: pair, abi: SibylV2Pair.abi, functionName: 'getReserves' }) as readonly [bigint, bigint, number];
      const [usdc, weth] = USDC.toLowerCase() < WETH.toLowerCase() ? [r0, r1] : [r1, r0];
      const usd = Number(usdc) / 1e6;
      if (usd > deepest.usdc) deepest = { usdc: usd, price: usd / Number(formatEther(weth)) };
    }
    return deepest.price;
  }

  /** Swap logs of a pair from a block on, with their wrapped-native side. */
  async function pairSwaps(pair: Address, fromBlock: bigint, toBlock: bigint) {
    const logs = await client.getLogs({ address: pair, event: swapEvent, fromBlock, toBlock });
    const nativeIs0 = WETH.toLowerCase() < (await client.readContract({ address: pair, abi: SibylV2Pair.abi, functionName: 'token1' }) as string).toLowerCase();
    return logs.map((l) => {
      const [inn, out] = nativeIs0 ? [l.args.amount0In!, l.args.amount0Out!] : [l.args.amount1In!, l.args.amount1Out!];
      return { block: l.blockNumber, eth: Number(formatEther(inn + out)), buy: inn > 0n };
    });
  }

  it('a graduated token keeps trading on its pair: creator-volume\'s DEX figures are that pair\'s Swap logs from graduation on, valued on the wrapped-native side', async () => {
    const mine = await graduateAndTrade();
    // The world's graduated tokens trade too: every graduated row's DEX figures equal its pair's logs.
    const body = await json(await post('/x402/data/creator-volume', { timeperiod: '30d', limit: 25 }));
    expect(body.methodology).toContain('launchpad/v2');
    const graduatedRows = body.tokens.filter((t: any) => t.graduated);
    expect(graduatedRows.map((t: any) => t.token.toLowerCase())).toContain(mine.token.toLowerCase());
    const gradLogs = await client.getLogs({ address: labels.contracts.launchpad!, event: graduatedEvent, fromBlock: 0n, toBlock: BigInt(body.blockRange.to) });
    for (const row of graduatedRows) {
      const g = gradLogs.find((l) => l.args.token!.toLowerCase() === row.token.toLowerCase())!;
      expect(row.graduated.pair.toLowerCase()).toBe(g.args.pair!.toLowerCase());
      const from = g.blockNumber > BigInt(body.blockRange.from) ? g.blockNumber : BigInt(body.blockRange.from);
      const swaps = await pairSwaps(row.graduated.pair, from, BigInt(body.blockRange.to));
      expect(row.dex).toMatchObject({ swaps: swaps.length, buys: swaps.filter((x) => x.buy).length, sells: swaps.filter((x) => !x.buy).length });
      expect(row.dex.volumeEth).toBeCloseTo(swaps.reduce((a, x) => a + x.eth, 0), 8);
      expect(row.period.dexVolumeUsd).toBe(row.dex.volumeUsd);
      expect(row.period.volumeUsd).toBeCloseTo(row.period.curveVolumeUsd + row.dex.volumeUsd, 1);
      if (swaps.length) expect(row.dex.volumeUsd).toBeGreaterThan(0);
    }
    // Not only the test's: the world's graduated tokens keep trading on their pairs.
    expect(graduatedRows.filter((t: any) => t.token.toLowerCase() !== mine.token.toLowerCase() && t.dex.swaps > 0).length).toBeGreaterThan(0);
    // The test's own swaps: two buys and a sell, valued at the wrapped native's price now (nothing else trades here any more).
    const recent = await json(await post('/x402/data/creator-volume', { timeperiod: '1h', limit: 25 }));
    const row = recent.tokens.find((t: any) => t.token.toLowerCase() === mine.token.toLowerCase());
    const swaps = await pairSwaps(mine.pair, mine.graduatedBlock, BigInt(recent.blockRange.to));
    expect(swaps).toHaveLength(3);
    expect(row.dex).toMatchObject({ pair: expect.stringMatching(new RegExp(mine.pair.slice(2), 'i')), swaps: 3, buys: 2, sells: 1 });
    const eth = swaps.reduce((a, x) => a + x.eth, 0);
    expect(row.dex.volumeEth).toBeCloseTo(eth, 9);
    expect(row.dex.volumeUsd).toBeCloseTo(eth * (await wethUsdNow()), 0);
    expect(row.toGraduate).toBeNull();
    // Its price is now the pair's, not the curve's last trade.
    const [r0, r1] = await client.readContract({ address: mine.pair, abi: SibylV2Pair.abi, functionName: 'getReserves' }) as readonly [bigint, bigint, number];
    const [w, t] = WETH.toLowerCase() < mine.token.toLowerCase() ? [r0, r1] : [r1, r0];
    expect(row.lastPriceUsd / ((Number(w) / Number(t)) * (await wethUsdNow()))).toBeCloseTo(1, 6);
  });

  it('launchpad radar: curves ranked by the ETA at their net ETH inflow of the last 24 h (recomputed from Trade logs), curves without a pace after, graduated last', async () => {
    // A curve bought into now has a pace whatever the world left open (its history is a draw).
    const filling = await launch('Pace Test', 'PACET');
    await filling.send(labels.contracts.launchpad!, encodeFunctionData({ abi: BondingCurveLaunchpad.abi, functionName: 'buy', args: [filling.token, 0n] }), parseEther('0.5'));
    await untilIndexed(env.sibyl.url);
    const radar = await launchpadRadar(env.sibyl.context);
    expect(radar.ranking).toMatch(/estimated time to graduation/);
    const head = await client.getBlock();
    const trades = await client.getLogs({ address: labels.contracts.launchpad!, event: tradeEvent, fromBlock: 0n, toBlock: head.number });
    const grads = await client.getLogs({ address: labels.contracts.launchpad!, event: graduatedEvent, fromBlock: 0n, toBlock: head.number });
    expect(grads.length).toBeGreaterThan(0);
    const graduationEth = Number(formatEther(grads[0]!.args.ethAmount!)); // what a curve holds when its last token is sold
    const times = new Map<bigint, number>();
    const timeOf = async (b: bigint) => times.get(b) ?? (times.set(b, Number((await client.getBlock({ blockNumber: b })).timestamp)), times.get(b)!);
    const rows = radar.rows as any[];
    expect(rows.filter((r) => r.etaHours !== null).length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.migrateStatus === 'migrated').length).toBeGreaterThan(0);
    let phase = 0; // 0: with a pace, 1: without, 2: graduated
    let lastKey = -Infinity;
    for (const row of rows) {
      const token = row.contractAddress.toLowerCase();
      const mine = trades.filter((l) => l.args.token!.toLowerCase() === token);
      if (row.migrateStatus === 'migrated') {
        if (phase < 2) [phase, lastKey] = [2, -Infinity];
        const g = grads.find((l) => l.args.token!.toLowerCase() === token)!;
        const key = -(await timeOf(g.blockNumber));
        expect(key).toBeGreaterThanOrEqual(lastKey);
        lastKey = key;
        continue;
      }
      let net = 0;
      for (const l of mine) if ((await timeOf(l.blockNumber)) >= Number(head.timestamp) - 86_400) net += (l.args.isBuy ? 1 : -1) * Number(formatEther(l.args.ethAmount!));
      const [, , , realEth] = await client.readContract({ address: labels.contracts.launchpad!, abi: launchpadAbi, functionName: 'curves', args: [row.contractAddress] });
      const needed = graduationEth - Number(formatEther(realEth));
      expect(row.ethToGraduate).toBeCloseTo(needed, 8);
      expect(row.netEthInflow).toBeCloseTo(net, 8);
      if (net > 0) {
        expect(phase).toBe(0);
        const eta = needed / (net / 24);
        expect(Math.abs(row.etaHours - eta)).toBeLessThanOrEqual(5e-4 + eta * 1e-6);
        expect(eta).toBeGreaterThanOrEqual(lastKey - 1e-3);
        lastKey = eta;
      } else {
        if (phase < 1) [phase, lastKey] = [1, -Infinity];
        expect(phase).toBe(1);
        expect(row.etaHours).toBeNull();
        expect(row.noPaceReason).toMatch(/no trades|outflow|no net ETH inflow|never traded/);
        const last = mine.at(-1);
        const idle = last ? Number(head.timestamp) - (await timeOf(last.blockNumber)) : Infinity;
        expect(idle).toBeGreaterThanOrEqual(lastKey);
        lastKey = idle;
      }
    }
  });
});
