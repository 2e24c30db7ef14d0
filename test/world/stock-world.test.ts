/**
 * Tokenized equities in the world (world/modules/stocks.ts), read back from the chain: the
 * directories, issuers, tokens, pools and feeds are what the labels say; a split moves the stock
 * chain token's multiplier at its moment and no raw balance, the feed times the multiplier staying
 * fair value; pools keep to fair value in session and part from it at the weekend; the lagging and
 * under-reserved issuers, the impostor, the early buyers and the traders are as labelled; and a
 * resumed world goes on. The world is the stock chain and Arbitrum over eight days (so a seed can be found whatever weekday the run starts on: the split falls
 * at a session's open three or more days in), on a seed whose
 * split (of MSTR, listed on both) comes early enough for the lagging issuer to apply it too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, decodeEventLog, getAddress, http, parseAbi, parseAbiItem, type Address, type PublicClient } from 'viem';
import { StockFeedDirectory, StockIssuer, StockIssuerDirectory, StockPriceFeed, StockToken, SibylV2Factory } from '../../chain/artifacts/index.js';
import { CHAINS } from '../../chain/chains.js';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { EMBEDDED_STOCK_FEED_DIRECTORY, EMBEDDED_STOCK_ISSUER_DIRECTORY, STOCK_FEED_CHAIN } from '../../chain/stocks.js';
import { inSession, lastClose } from '../../lib/market-hours.js';
import { buildWorld, worldGenesisTimestamp, worldOrigin, type RunningWorld } from '../../world/index.js';
import { ReferencePaths } from '../../world/reference.js';
import { World } from '../../world/world.js';
import { ARB_BAND, stocksModule } from '../../world/modules/stocks.js';
import { ISSUERS, ONE, UNDER_RESERVED_STOPS_AFTER_S, fairValueUsd, feedAnswer, laterListings } from '../../world/stocks/plan.js';
import { StockPaths, UNDERLYINGS } from '../../world/stocks/underlyings.js';
import type { WorldLabels } from '../../world/labels.js';

const DAYS = 8;
const DAY = 86_400;
const BLOCK_SECONDS = 600;
const CHAINS_UNDER_TEST = [STOCK_FEED_CHAIN, 'arbitrum'] as const;
const pairAbi = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)', 'function token0() view returns (address)']);
const swapEvent = parseAbiItem('event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)');
const mintEvent = parseAbiItem('event Mint(address indexed sender, uint256 amount0, uint256 amount1)');

/** A seed whose one split is of MSTR and falls between 1.5 days in and 2.2 days before the end. */
function seedWithEarlySplit(origin: number, end: number): { seed: string; split: { at: number; ratio: number } } {
  for (let i = 0; i < 2_000; i++) {
    const seed = `stock-world-${i}`;
    const split = new StockPaths(seed, origin).events(origin, origin + 60 * DAY).find((e) => e.kind === 'split');
    if (split?.kind === 'split' && split.symbol === 'MSTR' && split.at > origin + 1.5 * DAY && split.at < end - 2.2 * DAY) return { seed, split };
  }
  throw new Error('no seed with an early MSTR split');
}

describe('tokenized equities in the world', () => {
  let devnet: Devnet;
  let running: RunningWorld;
  let paths: StockPaths;
  let seed: string;
  let split: { at: number; ratio: number };
  let origin: number;
  const clients = new Map<string, PublicClient>();
  const labelsOf = (chain: string): WorldLabels => running.worlds.find((w) => w.labels.chain === chain)!.labels;
  const stocksOf = (chain: string) => labelsOf(chain).stocks!;
  const client = (chain: string) => clients.get(chain)!;
  const read = <T>(chain: string, address: Address, abi: readonly unknown[], functionName: string, args: readonly unknown[] = [], blockNumber?: bigint) =>
    client(chain).readContract({ address, abi: abi as never, functionName, args, blockNumber } as never) as Promise<T>;
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

  /** Each block's number and time, in order. */
  const blocks = new Map<string, { number: number; time: number }[]>();
  /** The last block before `t` and the first at or after it. */
  const around = (chain: string, t: number) => {
    const list = blocks.get(chain)!;
    const i = list.findIndex((b) => b.time >= t);
    return { before: list[i - 1]!, after: list[i]! };
  };

  beforeAll(async () => {
    const now = Date.now();
    origin = worldOrigin(DAYS, now);
    ({ seed, split } = seedWithEarlySplit(origin, Math.floor(now / 1000)));
    paths = new StockPaths(seed, origin);
    devnet = await startDevnet({ chains: [...CHAINS_UNDER_TEST], basePort: 0, genesisTimestamp: worldGenesisTimestamp(DAYS, now), fifo: true });
    running = await buildWorld(devnet.chains, { seed, days: DAYS, meanBlockSeconds: BLOCK_SECONDS, liveBlockMs: 0, labelsPath: join(tmpdir(), `sibyl-stock-world-${process.pid}.json`), modules: [stocksModule] }, () => {}, new ReferencePaths(seed, origin));
    for (const c of devnet.chains) {
      const pc = createPublicClient({ transport: http(c.rpcUrl, { batch: { wait: 0 } }), batch: { multicall: { wait: 0 } }, chain: { id: c.chainId, name: c.name, nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [c.rpcUrl] } }, contracts: { multicall3: { address: '0xcA11bde05977b3631167028862bE2a173976CA11' } } } }) as PublicClient;
      clients.set(c.name, pc);
      const head = Number(await pc.getBlockNumber());
      const list = await Promise.all(Array.from({ length: head + 1 }, async (_, n) => ({ number: n, time: Number((await pc.getBlock({ blockNumber: BigInt(n) })).timestamp) })));
      blocks.set(c.name, list);
    }
  }, 300_000);
  afterAll(async () => {
    running?.stop();
    await devnet?.stop();
  });

  it('sends only transactions that succeed', async () => {
    for (const chain of CHAINS_UNDER_TEST) {
      const mine = new Set(labelsOf(chain).moduleActors.map((a) => a.address.toLowerCase()));
      let sent = 0;
      const failed: string[] = [];
      for (const b of blocks.get(chain)!) {
        const receipts = (await client(chain).request({ method: 'eth_getBlockReceipts' as never, params: [`0x${b.number.toString(16)}`] as never })) as { from: string; status: string; to: string | null }[];
        for (const r of receipts) {
          if (!mine.has(r.from.toLowerCase())) continue;
          sent++;
          if (r.status !== '0x1') failed.push(`${chain} block ${b.number} from ${r.from} to ${r.to}`);
        }
      }
      expect(sent, chain).toBeGreaterThan(500);
      expect(failed, chain).toEqual([]);
    }
  });

  it('the directory, issuers, tokens and pools read back from the chain are the labels\'', async () => {
    for (const chain of CHAINS_UNDER_TEST) {
      const l = stocksOf(chain);
      expect(l.origin).toBe(origin);
      const registered = await read<Address[]>(chain, EMBEDDED_STOCK_ISSUER_DIRECTORY, StockIssuerDirectory.abi, 'issuers');
      expect(registered.map((a) => getAddress(a)).sort()).toEqual(l.issuers.map((i) => getAddress(i.address)).sort());
      expect(l.issuers.every((i) => i.registered)).toBe(true);
      for (const issuer of l.issuers) {
        expect(await read<string>(chain, issuer.address, StockIssuer.abi, 'name')).toBe(issuer.name);
        expect(issuer.name).toBe(ISSUERS.find((x) => x.key === issuer.key)!.name);
        const listed = await read<Address[]>(chain, issuer.address, StockIssuer.abi, 'tokens');
        expect(listed.map((a) => getAddress(a))).toEqual(l.tokens.filter((t) => !t.impostor && t.issuerKey === issuer.key).map((t) => getAddress(t.address)));
      }
      const factory = CHAINS[chain].dexes[0]!.factory;
      for (const token of l.tokens) {
        expect(await read<string>(chain, token.address, StockToken.abi, 'symbol')).toBe(token.symbol);
        // (A token listed in the history's last block gets its pool in the next.)
        if (token.liquidityBlock === null) {
          expect(token.listedBlock).toBe(blocks.get(chain)!.at(-1)!.number);
          continue;
        }
        expect(await read<string>(chain, token.address, StockToken.abi, 'name')).toBe(token.name);
        expect(await read<string>(chain, token.address, StockToken.abi, 'underlying')).toBe(token.underlying);
        expect(await read<number>(chain, token.address, StockToken.abi, 'decimals')).toBe(18);
        expect(getAddress(await read<Address>(chain, token.address, StockToken.abi, 'issuer'))).toBe(getAddress(token.issuer));
        // An ordinary V2 pool of the chain's first DEX, given its liquidity in the labelled block.
        expect(getAddress(await read<Address>(chain, factory, SibylV2Factory.abi, 'getPair', [token.address, CHAINS[chain].usdc]))).toBe(getAddress(token.pair));
        const mints = await client(chain).getLogs({ address: token.pair, event: mintEvent, fromBlock: BigInt(token.liquidityBlock!), toBlock: BigInt(token.liquidityBlock!) });
        expect(mints.length, token.symbol).toBe(1);
        expect(token.listedBlock).toBeLessThan(token.liquidityBlock!);
      }
    }
  });

  it('the impostor copies a genuine symbol and name, is listed by no registered issuer, and has a pool', async () => {
    const l = stocksOf('arbitrum');
    expect(l.impostors).toHaveLength(1);
    const impostor = l.impostors[0]!;
    const token = l.tokens.find((t) => t.address === impostor.token)!;
    expect(token.impostor).toBe(true);
    const issuer = await read<Address>('arbitrum', impostor.token, StockToken.abi, 'issuer');
    expect(await read<boolean>('arbitrum', EMBEDDED_STOCK_ISSUER_DIRECTORY, StockIssuerDirectory.abi, 'isRegistered', [issuer])).toBe(false);
    const copied = ISSUERS.find((i) => i.key === impostor.copiesIssuerKey)!;
    expect(impostor.symbol).toBe(copied.symbol(token.underlying));
    expect(impostor.name).toBe(copied.tokenName(token.underlying));
    const [r0, r1] = await read<[bigint, bigint, number]>('arbitrum', impostor.pair, pairAbi, 'getReserves');
    expect(r0 > 0n && r1 > 0n).toBe(true);
    // Its labelled buyers bought it on its pool.
    expect(impostor.buyers.length).toBeGreaterThan(0);
    for (const buyer of impostor.buyers) {
      const swaps = await client('arbitrum').getLogs({ address: impostor.pair, event: swapEvent, args: { to: buyer }, fromBlock: 0n });
      expect(swaps.length, buyer).toBeGreaterThan(0);
    }
  });

  it('the feeds are found through the feed directory and follow the underlyings: within 0.05% in session, the close outside it', async () => {
    const chain = STOCK_FEED_CHAIN;
    const l = stocksOf(chain);
    const underlyings = await read<string[]>(chain, EMBEDDED_STOCK_FEED_DIRECTORY, StockFeedDirectory.abi, 'underlyings');
    expect(underlyings).toEqual(Object.keys(UNDERLYINGS));
    for (const f of l.feeds) {
      expect(getAddress(await read<Address>(chain, EMBEDDED_STOCK_FEED_DIRECTORY, StockFeedDirectory.abi, 'feed', [f.underlying]))).toBe(getAddress(f.feed));
      expect(await read<string>(chain, f.feed, StockPriceFeed.abi, 'description')).toBe(`${f.underlying} / USD`);
    }
    const list = blocks.get(chain)!.filter((b) => b.time > origin + 3_600);
    let open = 0;
    let closed = 0;
    for (let i = 0; i < list.length; i += 7) {
      const b = list[i]!;
      for (const f of l.feeds) {
        const [, answer, , updatedAt] = await read<[bigint, bigint, bigint, bigint, bigint]>(chain, f.feed, StockPriceFeed.abi, 'latestRoundData', [], BigInt(b.number));
        const price = paths.priceUsd(f.underlying, b.time);
        if (inSession(b.time)) {
          expect(Math.abs(Number(answer) / 1e8 / price - 1), `${f.underlying} at ${b.number}`).toBeLessThan(0.0005);
          open++;
        } else {
          expect(answer, `${f.underlying} at ${b.number}`).toBe(feedAnswer(paths.priceUsd(f.underlying, lastClose(b.time))));
          // Posted at the close (or, for a history that opens at a weekend, as the feeds came), not since.
          expect(Number(updatedAt)).toBeLessThan(Math.max(lastClose(b.time), origin) + 2 * BLOCK_SECONDS * 10);
          closed++;
        }
      }
    }
    expect(open).toBeGreaterThan(100);
    expect(closed).toBeGreaterThan(0);
  });

  it('a split moves the stock chain token\'s multiplier at its moment, no raw balance or supply, and feed x multiplier stays fair value', async () => {
    const chain = STOCK_FEED_CHAIN;
    const l = stocksOf(chain);
    const token = l.tokens.find((t) => t.underlying === 'MSTR' && t.issuerKey === 'hood')!;
    const event = l.events.find((e) => e.kind === 'split')!;
    expect(event).toMatchObject({ underlying: 'MSTR', at: split.at, ratio: split.ratio });
    const applied = event.applied.find((a) => a.token === token.address)!;
    expect(applied).toMatchObject({ effectiveAt: split.at, lagSeconds: 0 });
    expect(applied.announcedAt).toBeLessThan(split.at);
    expect(BigInt(applied.multiplierAfter)).toBe(BigInt(applied.multiplierBefore) * BigInt(split.ratio));
    const { before, after } = around(chain, split.at);
    const at = (n: number) => BigInt(n);
    expect(await read<bigint>(chain, token.address, StockToken.abi, 'uiMultiplier', [], at(before.number))).toBe(BigInt(applied.multiplierBefore));
    expect(await read<bigint>(chain, token.address, StockToken.abi, 'uiMultiplier', [], at(after.number))).toBe(BigInt(applied.multiplierAfter));
    // Through the split block raw balances move only by the block's transfers (the token is halted: none),
    // raw supply only by its labelled creations, and UI balances take the new multiplier.
    const holders = [...labelsOf(chain).moduleActors.filter((a) => a.role === 'stock-arbitrageur').map((a) => a.address), token.pair];
    const transfers = await client(chain).getContractEvents({ address: token.address, abi: StockToken.abi, eventName: 'Transfer', fromBlock: at(after.number), toBlock: at(after.number) });
    for (const holder of holders) {
      const [rawBefore, rawAfter] = await Promise.all([after.number - 1, after.number].map((n) => read<bigint>(chain, token.address, StockToken.abi, 'balanceOf', [holder], at(n))));
      const moved = transfers.reduce((sum, log) => {
        const { from, to, value } = log.args as { from: Address; to: Address; value: bigint };
        return sum + (same(to, holder) ? value : 0n) - (same(from, holder) ? value : 0n);
      }, 0n);
      expect(rawBefore! > 0n, holder).toBe(true);
      expect(rawAfter, holder).toBe(rawBefore! + moved);
      const ui = await read<bigint>(chain, token.address, StockToken.abi, 'balanceOfUI', [holder], at(after.number));
      expect(ui).toBe((rawAfter! * BigInt(applied.multiplierAfter)) / ONE);
    }
    const supply = (n: number) => read<bigint>(chain, token.address, StockToken.abi, 'totalSupply', [], at(n));
    const created = l.creations.filter((c) => c.token === token.address && c.block === after.number).reduce((sum, c) => sum + (c.kind === 'mint' ? BigInt(c.amount) : -BigInt(c.amount)), 0n);
    expect(await supply(after.number)).toBe((await supply(after.number - 1)) + created);
    // (Halted from the first block within half an hour of it; no one trades a halted token.)
    const halted = await read<boolean>(chain, token.address, StockToken.abi, 'paused', [], at(after.number));
    expect(halted || after.time - split.at > 1_800, JSON.stringify({ split, before, after, powers: l.powers.filter((p) => p.token === token.address) })).toBe(true);
    // Feed x multiplier is fair value on both sides of it, and at every sampled block in session.
    const feed = l.feeds.find((f) => f.underlying === 'MSTR')!.feed;
    const checkFair = async (b: { number: number; time: number }) => {
      const [, answer] = await read<[bigint, bigint]>(chain, feed, StockPriceFeed.abi, 'latestRoundData', [], at(b.number));
      const multiplier = await read<bigint>(chain, token.address, StockToken.abi, 'uiMultiplier', [], at(b.number));
      const fair = fairValueUsd(paths, 'MSTR', token.listedAt, b.time);
      expect(Math.abs(((Number(answer) / 1e8) * Number(multiplier)) / 1e18 / fair - 1), `block ${b.number}`).toBeLessThan(0.0005);
    };
    await checkFair(after);
    if (inSession(before.time)) await checkFair(before);
    for (const b of blocks.get(chain)!.filter((x) => x.number >= token.liquidityBlock! && inSession(x.time)).filter((_, i) => i % 15 === 0)) await checkFair(b);
    // The stock chain's issuer halted the token around it.
    const powers = l.powers.filter((p) => p.token === token.address);
    const halt = powers.find((p) => p.kind === 'pause' && p.time >= split.at - 1_800 && p.time < split.at + 1_800);
    if (blocks.get(chain)!.some((b) => b.time >= split.at - 1_800 && b.time < split.at + 1_800)) {
      expect(halt, JSON.stringify(powers)).toBeDefined();
      expect(powers.some((p) => p.kind === 'unpause' && p.time > halt!.time)).toBe(true);
    } else expect(halt).toBeUndefined();
  });

  it('the lagging issuer applies the split more than a day late; the under-reserved one attests short of its supply, then stops', async () => {
    const l = stocksOf('arbitrum');
    const lagging = l.tokens.find((t) => t.underlying === 'MSTR' && t.issuerKey === 'xstock')!;
    expect(l.issuers.find((i) => i.key === 'xstock')!.status).toBe('lagging-multiplier');
    const applied = l.events.find((e) => e.kind === 'split')!.applied.find((a) => a.token === lagging.address)!;
    expect(applied.lagSeconds).toBeGreaterThanOrEqual(DAY);
    expect(applied.effectiveAt).toBe(applied.announcedAt);
    const { after } = around('arbitrum', split.at);
    expect(await read<bigint>('arbitrum', lagging.address, StockToken.abi, 'uiMultiplier', [], BigInt(after.number))).toBe(ONE);
    const updates = await client('arbitrum').getContractEvents({ address: lagging.address, abi: StockToken.abi, eventName: 'UIMultiplierUpdated', fromBlock: 0n });
    expect(updates).toHaveLength(1);
    const args = updates[0]!.args as { newMultiplier: bigint; setAt: bigint; effectiveAt: bigint };
    expect(Number(args.setAt)).toBeGreaterThanOrEqual(split.at + DAY);
    expect(args.newMultiplier).toBe(BigInt(split.ratio) * ONE);

    const meridian = l.issuers.find((i) => i.key === 'meridian')!;
    expect(meridian.status).toBe('under-reserved');
    const attested = await client('arbitrum').getContractEvents({ address: meridian.address, abi: StockIssuer.abi, eventName: 'ReservesAttested', fromBlock: 0n });
    expect(attested.length).toBeGreaterThan(0);
    for (const log of attested) {
      const { token, reserveShares } = log.args as { token: Address; reserveShares: bigint };
      const [supply, multiplier] = await Promise.all(['totalSupply', 'uiMultiplier'].map((fn) => read<bigint>('arbitrum', token, StockToken.abi, fn, [], log.blockNumber!)));
      expect(reserveShares * ONE).toBeLessThan(supply! * multiplier!);
    }
    const last = blocks.get('arbitrum')![Number(attested.at(-1)!.blockNumber)]!;
    expect(last.time).toBeLessThanOrEqual(origin + UNDER_RESERVED_STOPS_AFTER_S[1]);
    // The honest issuer still attests each day, at or above its supply.
    const onward = l.issuers.find((i) => i.key === 'onward')!;
    const honest = await client('arbitrum').getContractEvents({ address: onward.address, abi: StockIssuer.abi, eventName: 'ReservesAttested', fromBlock: 0n });
    expect(blocks.get('arbitrum')![Number(honest.at(-1)!.blockNumber)]!.time).toBeGreaterThan(blocks.get('arbitrum')!.at(-1)!.time - 1.2 * DAY);
  });

  it('in session pools trade within a small band of fair value; at the weekend premiums open, and they close at the open', async () => {
    for (const chain of CHAINS_UNDER_TEST) {
      const l = stocksOf(chain);
      // A new listing's hype (arbitrageurs leave it alone) runs from its listing block's time.
      const hypeSeconds = new Map(laterListings(seed, origin).map((x) => [x.ticker, x.hypeSeconds]));
      const inHype = (token: (typeof l.tokens)[number], time: number) => token.issuerKey === 'hood' && hypeSeconds.has(token.underlying) && time < token.listedAt + hypeSeconds.get(token.underlying)!;
      const paused = (token: Address, time: number) => {
        const ps = l.powers.filter((p) => p.token === token && (p.kind === 'pause' || p.kind === 'unpause')).sort((a, b) => a.time - b.time);
        const lastBefore = ps.filter((p) => p.time <= time).at(-1);
        return lastBefore?.kind === 'pause';
      };
      const premiums = { open: [] as number[], closed: [] as number[], reopened: [] as number[] };
      const outside: string[] = [];
      const list = blocks.get(chain)!;
      const reopening = list.find((b, i) => i > 0 && inSession(b.time) && !inSession(list[i - 1]!.time));
      for (const b of list.filter((x, i) => i % 5 === 0 || x === reopening)) {
        for (const token of l.tokens) {
          if (token.impostor || token.liquidityBlock === null || b.number <= token.liquidityBlock || paused(token.address, b.time)) continue;
          if (inHype(token, b.time)) continue;
          const [r0, r1] = await read<[bigint, bigint, number]>(chain, token.pair, pairAbi, 'getReserves', [], BigInt(b.number));
          const token0 = await read<Address>(chain, token.pair, pairAbi, 'token0');
          const [rt, ru] = same(token0, token.address) ? [r0, r1] : [r1, r0];
          const premium = Number(ru) / 1e6 / (Number(rt) / 1e18) / fairValueUsd(paths, token.underlying, token.listedAt, b.time) - 1;
          if (b === reopening) premiums.reopened.push(premium);
          else (inSession(b.time) ? premiums.open : premiums.closed).push(premium);
          if (inSession(b.time) && b !== reopening && Math.abs(premium) > ARB_BAND + 0.0005) outside.push(`${chain} ${token.symbol} at block ${b.number} (${new Date(b.time * 1000).toISOString()}): premium ${premium}`);
        }
      }
      const worst = (xs: number[]) => Math.max(...xs.map(Math.abs));
      expect(premiums.open.length, chain).toBeGreaterThan(200);
      expect(outside, chain).toEqual([]);
      expect(premiums.closed.length, chain).toBeGreaterThan(20);
      expect(worst(premiums.closed), chain).toBeGreaterThan(0.005);
      expect(worst(premiums.closed), chain).toBeLessThan(0.1);
      // When the history holds a Monday open, the arbitrageurs close every premium in its first block.
      if (reopening) expect(worst(premiums.reopened), chain).toBeLessThanOrEqual(ARB_BAND + 0.0005);
    }
  });

  it('early buyers buy a new listing in the blocks right after its liquidity (minutes after it, never seconds), some selling into the rise; skilled traders out-earn poor ones', async () => {
    const chain = STOCK_FEED_CHAIN;
    const l = stocksOf(chain);
    const list = blocks.get(chain)!;
    const head = list.at(-1)!;
    const later = new Set(laterListings(seed, origin).map((x) => x.ticker));
    // Listings whose early buyers have had an hour and four blocks to buy.
    const settled = (block: number | null) => block !== null && block + 4 <= head.number && list.find((b) => b.number === block)!.time + 3_600 <= head.time;
    const listed = l.tokens.filter((t) => t.issuerKey === 'hood' && later.has(t.underlying) && settled(t.liquidityBlock));
    expect(listed.length).toBeGreaterThan(0);
    for (const token of listed) {
      const buys = l.earlyBuyers.filter((e) => e.token === token.address);
      expect(buys.length).toBeGreaterThanOrEqual(4);
      const time = async (block: number) => Number((await client(chain).getBlock({ blockNumber: BigInt(block) })).timestamp);
      const liquidityAt = await time(token.liquidityBlock!);
      for (const e of buys) {
        expect(e.liquidityBlock).toBe(token.liquidityBlock);
        expect(e.buyBlock).toBeGreaterThan(token.liquidityBlock!);
        // Not within seconds of the liquidity (a snipe's shape), and within the first hours.
        expect((await time(e.buyBlock)) - liquidityAt).toBeGreaterThanOrEqual(120);
        expect((await time(e.buyBlock)) - liquidityAt).toBeLessThan(6 * 3_600);
        const swaps = await client(chain).getLogs({ address: token.pair, event: swapEvent, args: { to: e.buyer }, fromBlock: BigInt(e.buyBlock), toBlock: BigInt(e.buyBlock) });
        expect(swaps.length, `${e.buyer} in ${e.buyBlock}`).toBe(1);
      }
      // The blocks until the last of them bought are theirs alone: every swap in them is a labelled early buyer's.
      const lastBuy = Math.max(...buys.map((e) => e.buyBlock));
      const first = await client(chain).getLogs({ address: token.pair, event: swapEvent, fromBlock: BigInt(token.liquidityBlock! + 1), toBlock: BigInt(lastBuy) });
      expect(first.length).toBeGreaterThanOrEqual(buys.length);
      for (const swap of first) expect(buys.map((e) => e.buyer.toLowerCase())).toContain(swap.args.to!.toLowerCase());
    }
    const sold = l.earlyBuyers.filter((e) => e.sellBlock !== null);
    expect(sold.length).toBeGreaterThan(0);
    for (const e of sold) expect(e.realisedPnlUsd).toBe(Math.round((e.receivedUsd! - e.spentUsd) * 100) / 100);
    const total = (skill: string) => l.traders.filter((t) => t.skill === skill).reduce((s, t) => s + t.realisedPnlUsd, 0);
    expect(l.traders.filter((t) => t.trades > 0).length).toBeGreaterThanOrEqual(4);
    expect(total('skilled')).toBeGreaterThan(total('poor'));
  });

  it('labels every action the world has seen, and a resumed world goes on from its state', async () => {
    const l = stocksOf(STOCK_FEED_CHAIN);
    const seen = paths.events(origin, blocks.get(STOCK_FEED_CHAIN)!.at(-1)!.time + 1);
    for (const e of seen) expect(l.events.some((x) => x.underlying === e.symbol && x.at === e.at && x.kind === e.kind), `${e.kind} ${e.symbol}`).toBe(true);
    expect(l.attestations.length).toBeGreaterThan(l.tokens.length * 4);

    const world = running.worlds.find((w) => w.labels.chain === STOCK_FEED_CHAIN)!;
    const saved = world.toState();
    const before = { attestations: l.attestations.length, feedRounds: 0 };
    running.stop();
    const chain = devnet.chains.find((c) => c.name === STOCK_FEED_CHAIN)!;
    const resumed = await World.resume({ name: chain.name, rpcUrl: chain.rpcUrl, genesis: chain.genesis, seed, startTimestamp: origin, meanBlockSeconds: BLOCK_SECONDS, reference: running.reference, modules: [stocksModule] }, saved);
    try {
      // A day on: attestations go on, and nothing the resumed module sends fails.
      const blockNumber = async () => Number(await client(STOCK_FEED_CHAIN).request({ method: 'eth_blockNumber' }));
      const head = await blockNumber();
      await resumed.backfill(saved.now + DAY);
      const after = resumed.labels.stocks!;
      expect(after.attestations.length).toBeGreaterThan(before.attestations);
      const mine = new Set(resumed.labels.moduleActors.map((a) => a.address.toLowerCase()));
      const end = await blockNumber();
      expect(end).toBeGreaterThan(head + 20);
      for (let b = head + 1; b <= end; b++) {
        const receipts = (await client(STOCK_FEED_CHAIN).request({ method: 'eth_getBlockReceipts' as never, params: [`0x${b.toString(16)}`] as never })) as { from: string; status: string }[];
        for (const r of receipts) if (mine.has(r.from.toLowerCase())) expect(r.status, `block ${b}`).toBe('0x1');
      }
      const rounds = await client(STOCK_FEED_CHAIN).getContractEvents({ address: after.feeds[0]!.feed, abi: StockPriceFeed.abi, eventName: 'AnswerUpdated', fromBlock: BigInt(head + 1) });
      if (inSession(saved.now + DAY / 2)) expect(rounds.length).toBeGreaterThan(0);
      for (const r of rounds) decodeEventLog({ abi: StockPriceFeed.abi, data: r.data, topics: r.topics });
    } finally {
      resumed.stop();
    }
  });
});
