/**
 * Stock-backed lending on the stock chain (world/modules/lending.ts), read back from the chain: the
 * lending market lists the chain's genuine stock tokens as collateral (the setup listings and a
 * later one once its pool has liquidity) with risk below ETH's; its oracle prices each at fair
 * value (the feed's answer times the token's multiplier) in every block, through a 4:1 split;
 * stock borrowers buy their tokens on the pools, supply them and borrow USDC as labelled; an
 * earnings gap down is liquidated in the block it lands; a seed writes the same world; and
 * find_yield's kinds on stockchain (the paid-tool call, its kind widening the skills' chain) report
 * the stock collateral, its liquidations and what stock-backed borrowing pays USDC suppliers.
 *
 * The clock is fixed (a Friday afternoon) and the seed chosen for it, so the world is the same in
 * every run: `stock-lending-38481` is the first seed of that name whose history holds both a split
 * of a stock token listed at setup (META, 4:1, a Wednesday's open) and an earnings gap of one, deep
 * enough to take a position at its collateral's floor (LT / LTV) under a health factor of 1, in the
 * last day (AAPL, -21%, Thursday 21:00 UTC: find_yield's liquidation kind reads the last 24 hours).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createPublicClient, formatUnits, getAddress, http, parseAbi, parseAbiItem, type Address, type PublicClient } from 'viem';
import { LendingOracle, LendingPool, StockPriceFeed, StockToken } from '../../chain/artifacts/index.js';
import { CHAINS, LENDING_MARKETS } from '../../chain/chains.js';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { ChainRuntime } from '../../chain/runtime.js';
import { STOCK_FEED_CHAIN } from '../../chain/stocks.js';
import { ChainIndexer } from '../../indexer/indexer.js';
import { CreditLedger } from '../../payments/credits.js';
import { PaymentsCore } from '../../payments/core.js';
import { limitHooks, RateLimiter } from '../../payments/limits.js';
import { callPaidTool } from '../../server/mcp/billing.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { PAID_TOOLS, kindSkill } from '../../skills/catalog/paid-tools.js';
import { MemoryStore } from '../../store/memory.js';
import { stockRisk } from '../../world/modules/lending.js';
import { WORLD_MODULES } from '../../world/modules/index.js';
import { ReferencePaths } from '../../world/reference.js';
import { FEED_DEVIATION, fairValueUsd, laterListings } from '../../world/stocks/plan.js';
import { StockPaths } from '../../world/stocks/underlyings.js';
import { DENSE_HISTORY_SECONDS, World, type WorldState } from '../../world/world.js';
import type { WorldLabels } from '../../world/labels.js';

const SEED = 'stock-lending-38481';
const DAYS = 6;
const DAY = 86_400;
const BLOCK_SECONDS = 600;
/** Friday 2026-11-20 15:00 UTC. */
const END = Date.UTC(2026, 10, 20, 15, 0, 0) / 1000;
const GENESIS = END - DAYS * DAY - 600;
const ORIGIN = GENESIS + 300;
const market = LENDING_MARKETS[STOCK_FEED_CHAIN]!;
const WAD = 10n ** 18n;
const liquidationCall = parseAbiItem('event LiquidationCall(address indexed collateralAsset, address indexed debtAsset, address indexed user, uint256 debtToCover, uint256 liquidatedCollateralAmount, address liquidator, bool receiveAToken)');
const swapEvent = parseAbiItem('event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)');
const supplyEvent = parseAbiItem('event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode)');
const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)']);

interface Built { devnet: Devnet; world: World; client: PublicClient }

async function build(): Promise<Built> {
  const devnet = await startDevnet({ chains: [STOCK_FEED_CHAIN], basePort: 0, genesisTimestamp: GENESIS, fifo: true });
  const c = devnet.chains[0]!;
  const world = await World.create({ name: c.name, rpcUrl: c.rpcUrl, genesis: c.genesis, seed: SEED, startTimestamp: ORIGIN, meanBlockSeconds: BLOCK_SECONDS, reference: new ReferencePaths(SEED, ORIGIN), modules: WORLD_MODULES });
  await world.backfill(END, undefined, ORIGIN + DAYS * DAY - DENSE_HISTORY_SECONDS);
  await world.finishBackfill();
  const client = createPublicClient({ transport: http(c.rpcUrl, { batch: { wait: 0 } }), batch: { multicall: { wait: 0 } }, chain: { id: c.chainId, name: c.name, nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [c.rpcUrl] } }, contracts: { multicall3: { address: '0xcA11bde05977b3631167028862bE2a173976CA11' } } } }) as PublicClient;
  return { devnet, world, client };
}

describe('stock-backed lending on the stock chain', () => {
  let main: Built;
  let twin: Built;
  let labels: WorldLabels;
  let paths: StockPaths;
  let gap: { symbol: string; at: number; jump: number };
  let split: { symbol: string; at: number; ratio: number };
  /** Each block's time, by number. */
  let times: number[];
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const stock = () => labels.stocks!;
  const tokenOf = (symbol: string) => stock().tokens.find((t) => t.symbol === symbol && !t.impostor)!;
  const isStock = (asset: string) => stock().tokens.some((t) => same(t.address, asset));
  const firstBlockAt = (t: number) => times.findIndex((x) => x >= t);
  const read = <T>(address: Address, abi: readonly unknown[], functionName: string, args: readonly unknown[] = [], blockNumber?: number) =>
    main.client.readContract({ address, abi: abi as never, functionName, args, ...(blockNumber !== undefined && { blockNumber: BigInt(blockNumber) }) } as never) as Promise<T>;

  beforeAll(async () => {
    paths = new StockPaths(SEED, ORIGIN);
    const events = paths.events(ORIGIN, END);
    const s = events.find((e) => e.kind === 'split');
    const g = events.filter((e) => e.kind === 'earnings' && e.at >= END - DAY).sort((a, b) => (a as { jump: number }).jump - (b as { jump: number }).jump)[0];
    if (s?.kind !== 'split' || s.symbol !== 'META' || g?.kind !== 'earnings' || g.symbol !== 'AAPL' || g.jump > -0.15) throw new Error(`${SEED} no longer holds the split and gap this file was written for`);
    [split, gap] = [s, g];
    [main, twin] = await Promise.all([build(), build()]);
    labels = main.world.labels;
    const head = Number(await main.client.getBlockNumber());
    times = await Promise.all(Array.from({ length: head + 1 }, async (_, n) => Number((await main.client.getBlock({ blockNumber: BigInt(n) })).timestamp)));
  }, 300_000);
  afterAll(async () => {
    for (const b of [main, twin]) {
      b?.world.stop();
      await b?.devnet.stop();
    }
  });

  it('lists each genuine stock token as collateral once its pool has liquidity, with risk below ETH\'s and the wilder names lower', async () => {
    const reserves = (await read<Address[]>(market.pool, LendingPool.abi, 'getReservesList')).map((a) => a.toLowerCase());
    const config = async (asset: Address, block?: number) => (await read<{ configuration: bigint; aTokenAddress: Address }>(market.pool, LendingPool.abi, 'getReserveData', [asset], block));
    const weth = (await config(CHAINS[STOCK_FEED_CHAIN].wrappedNative)).configuration;
    const [ethLtv, ethLt] = [Number(weth & 0xffffn), Number((weth >> 16n) & 0xffffn)];
    const genuine = stock().tokens.filter((t) => !t.impostor && t.liquidityBlock !== null);
    // The setup listings and at least one later listing, each with its pool's liquidity six hours (the reading's cadence) before the end.
    const later = laterListings(SEED, ORIGIN).filter((x) => x.at < END - DAY).map((x) => x.ticker);
    expect(later.length).toBeGreaterThan(0);
    for (const t of genuine.filter((x) => times[x.liquidityBlock!]! < END - 7 * 3_600)) {
      expect(reserves, t.symbol).toContain(t.address.toLowerCase());
      const c = (await config(t.address)).configuration;
      const risk = stockRisk(t.underlying);
      expect([Number(c & 0xffffn), Number((c >> 16n) & 0xffffn), Number((c >> 32n) & 0xffffn)], t.symbol).toEqual([risk.ltv, risk.lt, risk.bonus]);
      expect(risk.ltv).toBeLessThan(ethLtv);
      expect(risk.lt).toBeLessThan(ethLt);
      // Collateral only: USDC stays the one asset lent.
      expect((c >> 58n) & 1n, t.symbol).toBe(0n);
      if (later.includes(t.underlying)) {
        // Not a reserve before its pool had liquidity.
        expect((await config(t.address, t.liquidityBlock! - 1)).aTokenAddress, t.symbol).toBe('0x0000000000000000000000000000000000000000');
      }
    }
    expect(genuine.filter((t) => later.includes(t.underlying) && reserves.includes(t.address.toLowerCase())).length).toBeGreaterThan(0);
    expect(stockRisk('SPY').ltv).toBeGreaterThan(stockRisk('AAPL').ltv);
    expect(stockRisk('AAPL').lt).toBeGreaterThan(stockRisk('MSTR').lt);
  });

  it('prices every stock reserve at the feed\'s answer times the token\'s multiplier in every block, within the feed\'s deviation of fair value, through the split', async () => {
    const tokens = stock().tokens.filter((t) => !t.impostor && t.liquidityBlock !== null);
    const feedOf = (underlying: string) => stock().feeds.find((f) => f.underlying === underlying)!.feed;
    let checked = 0;
    let worst = 0;
    for (let block = 1; block < times.length; block++) {
      const reads = await main.client.multicall({
        allowFailure: true,
        blockNumber: BigInt(block),
        contracts: tokens.flatMap((t) => [
          { address: market.oracle, abi: LendingOracle.abi, functionName: 'getAssetPrice', args: [t.address] },
          { address: feedOf(t.underlying), abi: StockPriceFeed.abi, functionName: 'latestAnswer' },
          { address: t.address, abi: StockToken.abi, functionName: 'uiMultiplier' },
        ] as never),
      });
      tokens.forEach((t, i) => {
        const [price, answer, multiplier] = reads.slice(3 * i, 3 * i + 3);
        if (price!.status !== 'success') return; // not a reserve yet
        checked++;
        expect(price!.result, `${t.symbol} at block ${block}`).toBe((BigInt(answer!.result as never) * BigInt(multiplier!.result as never)) / WAD);
        const fair = fairValueUsd(paths, t.underlying, t.listedAt, times[block]!);
        worst = Math.max(worst, Math.abs(Number(price!.result) / 1e8 / fair - 1));
      });
    }
    expect(checked).toBeGreaterThan(3_000);
    expect(worst).toBeLessThanOrEqual(FEED_DEVIATION + 1e-6);
    // Across the split the feed quarters and the multiplier quadruples: the collateral's value does neither.
    const meta = tokenOf(split.symbol);
    const at = firstBlockAt(split.at);
    const [before, after] = await Promise.all([at - 1, at].map((b) => read<bigint>(market.oracle, LendingOracle.abi, 'getAssetPrice', [meta.address], b)));
    expect(await read<bigint>(meta.address, StockToken.abi, 'uiMultiplier', [], at)).toBe(BigInt(split.ratio) * WAD);
    expect(Math.abs(Number(after) / Number(before!) - 1)).toBeLessThan(0.05);
    expect(labels.liquidations.filter((l) => same(l.collateral, meta.address))).toEqual([]);
  });

  it('stock borrowers buy their tokens on the pool, supply them and borrow USDC, as labelled; every lending transaction succeeds and the holdings mirror is the chain\'s', async () => {
    const positions = labels.lendingPositions.filter((p) => isStock(p.collateral));
    expect(positions.length).toBeGreaterThanOrEqual(20);
    expect(new Set(positions.map((p) => p.collateralSymbol)).size).toBeGreaterThanOrEqual(5);
    const borrowers = new Set(labels.moduleActors.filter((a) => a.role === 'lending-borrower').map((a) => a.address.toLowerCase()));
    const last = Math.max(...labels.lendingPositions.map((p) => p.asOfBlock));
    for (const p of positions) {
      expect(borrowers.has(p.borrower.toLowerCase()), p.borrower).toBe(true);
      const token = stock().tokens.find((t) => same(t.address, p.collateral))!;
      // Bought on the token's pool (USDC in, to the borrower) before its first supply.
      const [supplied] = await main.client.getLogs({ address: market.pool, event: supplyEvent, args: { reserve: p.collateral, onBehalfOf: p.borrower }, fromBlock: 0n, toBlock: 'latest' });
      const buys = await main.client.getLogs({ address: token.pair, event: swapEvent, args: { to: p.borrower }, fromBlock: 0n, toBlock: supplied!.blockNumber });
      expect(buys.length, p.borrower).toBeGreaterThan(0);
      if (!p.open) continue;
      expect(p.asOfBlock).toBe(last);
      const [supply, debt, account] = await Promise.all([
        read<bigint>(market.pool, LendingPool.abi, 'reserveBalanceOf', [p.collateral, p.borrower, false], last),
        read<bigint>(market.pool, LendingPool.abi, 'reserveBalanceOf', [p.debtAsset, p.borrower, true], last),
        read<readonly bigint[]>(market.pool, LendingPool.abi, 'getUserAccountData', [p.borrower], last),
      ]);
      expect(supply.toString(), p.borrower).toBe(p.collateralAmount);
      expect(debt.toString(), p.borrower).toBe(p.debt);
      expect(Number((account[5]! * 1_000_000n) / WAD) / 1e6, p.borrower).toBe(p.healthFactor);
    }
    const lending = new Set(labels.moduleActors.filter((a) => a.role.startsWith('lending-')).map((a) => a.address.toLowerCase()));
    let sent = 0;
    for (let n = 0; n < times.length; n++) {
      const receipts = (await main.client.request({ method: 'eth_getBlockReceipts' as never, params: [`0x${n.toString(16)}`] as never })) as { from: string; status: string }[];
      for (const r of receipts.filter((x) => lending.has(x.from.toLowerCase()))) {
        sent++;
        expect(r.status, `block ${n} from ${r.from}`).toBe('0x1');
      }
    }
    expect(sent).toBeGreaterThan(500);
    // The world's holdings mirror of every stock token any actor holds is the chain's balance.
    const held = main.world.toState().holdings.filter(([k]) => isStock(k.split(':')[1]!));
    expect(held.length).toBeGreaterThan(50);
    for (const [key, amount] of held) {
      const [actor, token] = key.split(':') as [Address, Address];
      expect((await read<bigint>(token, erc20, 'balanceOf', [actor])).toString(), key).toBe(amount);
    }
  });

  it('liquidates the positions an earnings gap down takes under a health factor of 1, in the block it lands', async () => {
    const token = tokenOf(gap.symbol);
    const block = firstBlockAt(gap.at);
    const liquidated = labels.liquidations.filter((l) => same(l.collateral, token.address) && l.block === block);
    expect(liquidated.length).toBeGreaterThan(0);
    const logs = await main.client.getLogs({ address: market.pool, event: liquidationCall, args: { collateralAsset: token.address }, fromBlock: BigInt(block), toBlock: BigInt(block) });
    for (const l of liquidated) {
      // Healthy the block before; the gap's price post and the liquidation in one block.
      const [, , , , , hf] = await read<readonly bigint[]>(market.pool, LendingPool.abi, 'getUserAccountData', [l.borrower], block - 1);
      expect(hf!).toBeGreaterThanOrEqual(WAD);
      const log = logs.find((x) => same(x.args.user!, l.borrower))!;
      expect(log.args.liquidator).toBe(getAddress(l.liquidator));
      expect(log.args.debtToCover!.toString()).toBe(l.debtCovered);
      expect(log.args.liquidatedCollateralAmount!.toString()).toBe(l.collateralSeized);
      expect(l.bonusUsd).toBeGreaterThan(0);
      expect(labels.moduleActors.find((a) => same(a.address, l.liquidator))?.role).toBe('lending-liquidator');
    }
  });

  it('a seed writes the same world', () => {
    const hash = (l: WorldLabels) => createHash('sha256').update(JSON.stringify(l)).digest('hex');
    expect(twin.world.labels.lendingPositions).toEqual(labels.lendingPositions);
    expect(twin.world.labels.liquidations).toEqual(labels.liquidations);
    expect(hash(twin.world.labels)).toBe(hash(labels));
  });

  it('find_yield on stockchain reports the stock collateral and its liquidations, and the USDC supply rate stock-backed debt pays', async () => {
    const runtime = new ChainRuntime();
    const chain = runtime.add(STOCK_FEED_CHAIN, main.devnet.chains[0]!.rpcUrl, 'embedded');
    const store = new MemoryStore();
    await new ChainIndexer(chain, store, { range: 25, reorgDepth: 12, lookbackBlocks: 1_000_000 }).sync();
    const registry = createRegistry();
    const credits = new CreditLedger(store);
    // Paid from credits (no x402 here): the tool's own charge flow, rate limit and time target included.
    const payments = new PaymentsCore({ name: 'x402', verify: () => Promise.reject(new Error('credits only')) } as never).use(limitHooks(new RateLimiter(store))) as unknown as Parameters<typeof callPaidTool>[3]['payments'];
    const deps = { registry, context: { chains: runtime, store }, credits, payments };
    await credits.topUp('tester', 10_000_000n, 'test', { payer: 'tester', nonce: '1' });
    const findYield = PAID_TOOLS.find((t) => t.name === 'find_yield')!;
    const call = async (kind: string) => (await callPaidTool(findYield, { kind, chain: STOCK_FEED_CHAIN, limit: 100 }, 'tester', deps)) as any;

    // Liquidations (the skill's defaults: a health factor of 1.10, the last 24 hours): the gap's liquidations of stock collateral.
    const liquidations = await call('liquidations');
    expect(liquidations).toMatchObject({ available: true, skill: 'liquidation-monitor', chain: STOCK_FEED_CHAIN, pool: market.pool });
    const gapped = labels.liquidations.filter((l) => isStock(l.collateral) && l.block >= firstBlockAt(END - DAY));
    expect(gapped.length).toBeGreaterThan(0);
    for (const l of gapped) {
      const row = liquidations.liquidations.rows.find((r: any) => r.block === l.block && same(r.borrower, l.borrower));
      expect(row, `${l.borrower} in block ${l.block}`).toBeDefined();
      expect(row.collateral).toMatchObject({ asset: getAddress(l.collateral), symbol: gap.symbol, amount: formatUnits(BigInt(l.collateralSeized), 18) });
      expect(row.bonusUsd).toBeCloseTo(l.bonusUsd, 1);
    }
    const open = labels.lendingPositions.filter((p) => p.open);
    expect(liquidations.positionsWithDebt).toBe(open.length);

    // The same skill as the kind widens it, over every position up to a health factor of 1.25 (all of them listed): each open
    // stock position there with its stock collateral at fair value.
    const monitor = kindSkill(registry, findYield.kinds.liquidations!);
    const input = monitor.input.parse({ chain: STOCK_FEED_CHAIN, maxHealthFactor: 1.25, limit: 100, timeperiod: '30d' });
    const scan = (await monitor.handler(input as never, { chains: runtime, store })) as any;
    expect(scan.positionsAtOrUnder).toBe(scan.positions.length);
    const stockOpen = open.filter((p) => isStock(p.collateral) && p.healthFactor! <= 1.25);
    expect(stockOpen.length).toBeGreaterThanOrEqual(5);
    for (const p of stockOpen) {
      const row = scan.positions.find((r: any) => same(r.borrower, p.borrower));
      expect(row, p.borrower).toBeDefined();
      expect(row.collateral).toHaveLength(1);
      expect(row.collateral[0]).toMatchObject({ asset: getAddress(p.collateral), symbol: p.collateralSymbol, amount: formatUnits(BigInt(p.collateralAmount), 18) });
      const token = stock().tokens.find((t) => same(t.address, p.collateral))!;
      const fair = fairValueUsd(paths, token.underlying, token.listedAt, END);
      expect(row.collateral[0].valueUsd / (Number(p.collateralAmount) / 1e18) / fair - 1).toBeLessThan(0.001);
      expect(row.debt.map((d: { symbol: string }) => d.symbol)).toEqual(['USDC']);
    }

    // LP yields: the stock tokens' pools, traded by stock borrowers among others.
    const defi = await call('defi');
    expect(defi).toMatchObject({ available: true, skill: 'defi-yield-analysis', chain: STOCK_FEED_CHAIN });
    expect(defi.pools.some((p: { pair: string; volumeUsd: number }) => p.pair.split('/').includes(gap.symbol) && p.volumeUsd > 0)).toBe(true);
    // Vault discovery answers on the chain (its vaults; no kind reads a lending market's supply rate).
    expect(await call('discover')).toMatchObject({ available: true, skill: 'yield-discover' });

    // USDC suppliers earn what borrowers pay: the reserve's supply rate is the borrow rate times the
    // utilisation, a share of it paid by debt against stock collateral.
    const usdc = labels.lendingPositions[0]!.debtAsset;
    const data = await read<{ currentLiquidityRate: bigint; currentVariableBorrowRate: bigint }>(market.pool, LendingPool.abi, 'getReserveData', [usdc]);
    const [supplied, borrowed] = await Promise.all([false, true].map((isDebt) => read<bigint>(market.pool, LendingPool.abi, 'reserveTotalOf', [usdc, isDebt])));
    expect(data.currentLiquidityRate).toBeGreaterThan(0n);
    expect(Number(data.currentLiquidityRate) / Number(data.currentVariableBorrowRate)).toBeCloseTo(Number(borrowed) / Number(supplied), 4);
    const stockDebt = open.filter((p) => isStock(p.collateral)).reduce((s, p) => s + BigInt(p.debt), 0n);
    expect(Number(stockDebt) / Number(borrowed)).toBeGreaterThan(0.05);
  });

  it('a resumed world goes on lending against stock tokens', async () => {
    const saved = JSON.parse(JSON.stringify(main.world.toState())) as WorldState;
    const before = labels.lendingPositions.filter((p) => isStock(p.collateral)).length;
    main.world.stop();
    const c = main.devnet.chains[0]!;
    const resumed = await World.resume({ name: c.name, rpcUrl: c.rpcUrl, genesis: c.genesis, seed: SEED, startTimestamp: ORIGIN, meanBlockSeconds: BLOCK_SECONDS, reference: new ReferencePaths(SEED, ORIGIN), modules: WORLD_MODULES }, saved);
    try {
      const head = Number(await main.client.getBlockNumber());
      // Into the next week's session (the weekend buys nothing).
      await resumed.backfill(END + 3.5 * DAY);
      const after = resumed.labels.lendingPositions.filter((p) => isStock(p.collateral));
      expect(after.filter((p) => p.openedBlock > head).length).toBeGreaterThan(0);
      expect(after.length).toBeGreaterThan(before);
      const lending = new Set(resumed.labels.moduleActors.filter((a) => a.role.startsWith('lending-')).map((a) => a.address.toLowerCase()));
      for (let n = head + 1; n <= Number(await main.client.getBlockNumber()); n++) {
        const receipts = (await main.client.request({ method: 'eth_getBlockReceipts' as never, params: [`0x${n.toString(16)}`] as never })) as { from: string; status: string }[];
        for (const r of receipts.filter((x) => lending.has(x.from.toLowerCase()))) expect(r.status, `block ${n} from ${r.from}`).toBe('0x1');
      }
    } finally {
      resumed.stop();
    }
  });
});
