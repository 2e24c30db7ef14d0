/**
 * Smart money and DEX capital, paid end to end on a world's history, with figures checked
 * against what really happened on chain: a wallet the test trades itself (its USDC balance is
 * the truth about its profit) and raw Swap logs and reserves read straight from the chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, http, parseAbi, parseAbiItem, parseEther, type Address, type PrivateKeyAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { CHAINS } from '../../chain/chains.js';
import { viemChain } from '../../chain/runtime.js';
import type { WorldLabels } from '../../world/labels.js';
import { fundedPayer, json } from '../helpers/sibyl.js';
import { startWorldSibyl, type WorldSibyl } from '../helpers/world.js';

const routerAbi = parseAbi(['function swapExactTokensForTokens(uint256, uint256, address[], address, uint256) returns (uint256[])']);
const erc20 = parseAbi(['function approve(address, uint256) returns (bool)', 'function balanceOf(address) view returns (uint256)']);
const usdc = CHAINS.base.usdc;
const weth = CHAINS.base.wrappedNative;

describe('wallet and capital operations on a world', () => {
  let env: WorldSibyl;
  let post: WorldSibyl['post'];
  let client: WorldSibyl['client'];
  let labels: WorldLabels;
  let rpcUrl: string;
  let sibyl: WorldSibyl['sibyl'];

  const trader = async (usd: string) => {
    const account = privateKeyToAccount((await fundedPayer(usd, rpcUrl)).key);
    await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setBalance', params: [account.address, `0x${parseEther('100').toString(16)}`] }) });
    const wallet = createWalletClient({ account, chain: viemChain('base', rpcUrl), transport: http(rpcUrl) });
    const router = labels.contracts.routers[0]!;
    const send = async (hash: Promise<`0x${string}`>) => expect((await client.waitForTransactionReceipt({ hash: await hash })).status).toBe('success');
    await send(wallet.writeContract({ address: usdc, abi: erc20, functionName: 'approve', args: [router, 2n ** 255n] }));
    await send(wallet.writeContract({ address: weth, abi: erc20, functionName: 'approve', args: [router, 2n ** 255n] }));
    const balance = (token: Address) => client.readContract({ address: token, abi: erc20, functionName: 'balanceOf', args: [account.address] });
    const swap = async (from: Address, to: Address, amount: bigint) => {
      const before = await balance(to);
      await send(wallet.writeContract({ address: router, abi: routerAbi, functionName: 'swapExactTokensForTokens', args: [amount, 0n, [from, to], account.address, 2n ** 40n], gas: 400_000n }));
      return (await balance(to)) - before;
    };
    return { account: account as PrivateKeyAccount, swap, balance };
  };

  const untilIndexed = async () => {
    const head = Number(await client.getBlockNumber({ cacheTime: 0 }));
    for (let i = 0; i < 200; i++) {
      const h = await json(await fetch(`${sibyl.url}/healthz`));
      if (Number(h.chains[0].indexedBlock) >= head) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('index did not reach the head');
  };

  /** The last hour's trading the tests read (made once, in beforeAll; read only afterwards). */
  let traded: { smart: Address; pumper: Address; loser: Address; profit: number };

  beforeAll(async () => {
    env = await startWorldSibyl('wallets-test');
    ({ post, client, labels, rpcUrl, sibyl } = env);
    // A smart wallet wins four round trips: it buys before a pump and sells into it; the loser sells late.
    const smart = await trader('100000');
    const pumper = await trader('2000000');
    const loser = await trader('100000');
    const start = await smart.balance(usdc);
    for (let round = 0; round < 4; round++) {
      const got = await smart.swap(usdc, weth, 20_000n * 10n ** 6n);
      const lost = await loser.swap(usdc, weth, 10_000n * 10n ** 6n);
      await pumper.swap(usdc, weth, 150_000n * 10n ** 6n); // the move the smart wallet saw coming
      await smart.swap(weth, usdc, got);
      await pumper.swap(weth, usdc, await pumper.balance(weth)); // and back down: the loser sells late
      await loser.swap(weth, usdc, lost);
    }
    traded = { smart: smart.account.address, pumper: pumper.account.address, loser: loser.account.address, profit: Number((await smart.balance(usdc)) - start) / 1e6 };
    await untilIndexed();
  }, 180_000);
  afterAll(() => env?.close());

  it('smartmoney finds a wallet that won four round trips, with the profit its USDC balance shows', async () => {
    const { profit } = traded;
    expect(profit).toBeGreaterThan(500);

    const res = await post('/x402/data/smartmoney', { timeperiod: '1h', limit: 500 });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ chain: 'base', source: 'rpc', methodology: expect.stringContaining('smart-money/v2'), timeperiod: '1h' });
    const found = body.wallets.find((w: any) => w.wallet === traded.smart.toLowerCase());
    expect(found).toMatchObject({ closedTrades: 4, wins: 4, winRate: 1 });
    expect(found.realizedUsd).toBeCloseTo(profit, 1);
    // What it did in the period: it sold more USD of WETH than it bought, by its profit.
    expect(found.period.find((p: any) => p.token === weth.toLowerCase()).netUsd).toBeCloseTo(-profit, 0);
    const wallets = body.wallets.map((w: any) => w.wallet);
    expect(wallets).not.toContain(traded.loser.toLowerCase());
    expect(wallets).not.toContain(traded.pumper.toLowerCase()); // bought and sold in separate blocks, but at a loss
    for (const w of body.wallets) {
      expect(w.closedTrades).toBeGreaterThanOrEqual(body.criteria.minClosedTrades);
      expect(w.winRate).toBeGreaterThanOrEqual(body.criteria.minWinRate);
      expect(w.realizedUsd).toBeGreaterThanOrEqual(body.criteria.minRealizedUsd);
    }
    const distributed = body.distributing.find((t: any) => t.token === weth.toLowerCase());
    const sumNet = body.wallets.reduce((s: number, w: any) => s + (w.period.find((p: any) => p.token === weth.toLowerCase())?.netUsd ?? 0), 0);
    expect(distributed.netUsd).toBeCloseTo(sumNet, 0);
  });

  it('investment-report ranks base ideas from the same figures, flags smart-money selling, and reports unindexed chains as gaps', async () => {
    const res = await post('/x402/data/investment-report', { chains: ['base', 'solana', 'zksync'], timeperiod: '1h', limit: 500 });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ source: 'rpc', chains: ['base', 'solana', 'zksync'], methodology: expect.stringContaining('investment-report/v2') });
    expect(body.errors.map((e: any) => e.chain).sort()).toEqual(['solana', 'zksync']);
    const base = body.perChain.find((c: any) => c.chain === 'base');
    expect(base).toMatchObject({ available: true, chainId: 8453 });
    expect(body.ideas.length).toBe(base.ideaCount);
    const scores = body.ideas.map((i: any) => i.score);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
    // Each score recomputed from the ideas' own signals: the weighted mean (momentum 0.4, smart-money net buying 0.35,
    // turnover 0.25, as the methodology states) of each signal's percentile rank among the ideas.
    const signals = body.ideas.map((i: any) => ({ momentum: i.signals.changePct ?? 0, smart: i.signals.smartMoneyNetUsd, turnover: i.signals.volumeUsd / i.signals.liquidityUsd }));
    const rank = (key: 'momentum' | 'smart' | 'turnover', v: number) => signals.filter((x: any) => x[key] < v).length / (signals.length - 1);
    expect(signals.length).toBeGreaterThan(2);
    for (const [i, idea] of body.ideas.entries()) {
      expect(idea.signals.liquidityUsd).toBeGreaterThanOrEqual(100_000);
      const s = signals[i];
      expect(idea.score, idea.symbol).toBeCloseTo(0.4 * rank('momentum', s.momentum) + 0.35 * rank('smart', s.smart) + 0.25 * rank('turnover', s.turnover), 3);
    }
    // WETH: priced at the pool's reserves on chain, and the smart wallet's sales show as a risk.
    const wethIdea = body.ideas.find((i: any) => i.token.toLowerCase() === weth.toLowerCase());
    const pool = (await json(await post('/x402/data/tokenchart', { tokenAddress: weth, timeperiod: '1h' }))).pricedBy.pool as Address;
    const [usdcHeld, wethHeld] = await Promise.all([usdc, weth].map((t) => client.readContract({ address: t, abi: erc20, functionName: 'balanceOf', args: [pool] })));
    expect(wethIdea.signals.priceUsd).toBeCloseTo((Number(usdcHeld) / 1e6) / (Number(wethHeld) / 1e18), 4);
    expect(wethIdea.signals.smartMoneyNetUsd).toBeLessThan(-500);
    expect(wethIdea.risks).toContain('smart money is selling');
  });

  it('dexcapital counts every Swap log of each DEX in the window and values the WETH/USDC pool at its reserves', async () => {
    const res = await post('/x402/data/dexcapital', { timeperiod: '24h', limit: 500 });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ chain: 'base', methodology: expect.stringContaining('dex-capital/v1') });
    const from = BigInt(body.blockRange.from);
    const to = BigInt(body.blockRange.to);
    const created = await client.getLogs({ event: parseAbiItem('event PairCreated(address indexed token0, address indexed token1, address pair, uint256 count)'), fromBlock: 0n, toBlock: to });
    const swapEvent = parseAbiItem('event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)');
    for (const dex of CHAINS.base.dexes) {
      const pairs = created.filter((l) => l.address.toLowerCase() === dex.factory.toLowerCase()).map((l) => l.args.pair!);
      expect(pairs.length).toBeGreaterThan(0);
      const swaps = pairs.length ? await client.getLogs({ address: pairs, event: swapEvent, fromBlock: from, toBlock: to }) : [];
      const reported = body.dexes.find((d: any) => d.dex === dex.id);
      expect(reported.pools).toBe(pairs.length);
      expect(reported.swaps).toBe(swaps.length);
    }
    const main = body.dexes.find((d: any) => d.dex === CHAINS.base.dexes[0]!.id).topPools.find((p: any) => p.pair === 'WETH/USDC' || p.pair === 'USDC/WETH');
    const held = await client.readContract({ address: usdc, abi: erc20, functionName: 'balanceOf', args: [main.pool] });
    // WETH is priced by this very pool, so its side is worth exactly the USDC side.
    expect(main.tvlUsd).toBeCloseTo((2 * Number(held)) / 1e6, 0);
    expect(body.totals.tvlUsd).toBeCloseTo(body.dexes.reduce((s: number, d: any) => s + d.tvlUsd, 0), 0);
    expect(body.dexes[0].shareOfTvlPct).toBeGreaterThan(50);
  });
});
