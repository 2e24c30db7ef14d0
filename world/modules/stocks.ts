/**
 * Tokenized equities (world/stocks/plan.ts says what is listed where): on every chain with stock
 * tokens the issuers' registry (StockIssuerDirectory, at EMBEDDED_STOCK_ISSUER_DIRECTORY) and the
 * issuers (StockIssuer) listing StockTokens; on the stock chain also each underlying's
 * Chainlink-style feed (StockPriceFeed) found through StockFeedDirectory, every round due in a block
 * posted in one transaction through a StockFeedTransmitter. Every token trades
 * against USDC on a V2 pool of the chain's first DEX, opened by the issuer's market maker at fair
 * value: the underlying's price (world/stocks/underlyings.ts) times the multiplier that should be in
 * effect.
 *
 * Actors, all the module's own: each issuer's operator (lists, mints against shares bought and
 * burns on redemption, attests reserves daily, moves the multiplier for splits and dividends,
 * pauses a token or blocks an account now and then); a feed transmitter posting a round when the
 * price moves beyond FEED_DEVIATION or after the heartbeat in session, and only the close outside
 * it; arbitrageurs who, in session, trade each pool back to fair value once it strays beyond
 * ARB_BAND, each a token one way only, and settle their inventory by creation and redemption with
 * the issuer; retail trading every day, leaning at the weekend toward a drawn premium (nothing
 * anchors the price then), so premiums open while the underlying is closed and close at the open;
 * early buyers of each new listing on the stock chain in the blocks right after its liquidity,
 * some selling into the hype (no actor turns a token around within MIN_HOLD_BLOCKS);
 * traders with records, a few skilled (they see the path twelve hours ahead) and a few poor (they
 * buy what is about to fall), whose realised profit is labelled; and on Arbitrum an impostor token
 * copying a genuine one, listed by no registered issuer, with its own pool.
 *
 * The module never makes one sender's transaction depend on another's in the same block: an
 * actor's funding and a token's minting land a block before they are spent, and an arbitrageur
 * settling with its issuer does not trade that token in the same block.
 */
import { encodeFunctionData, erc20Abi, keccak256, getAddress, getContractAddress, parseEther, toHex, type Address, type Hex } from 'viem';
import { StockFeedDirectory, StockFeedTransmitter, StockIssuer, StockIssuerDirectory, StockPriceFeed, StockToken, SibylV2Router } from '../../chain/artifacts/index.js';
import { CHAINS, type EvmChainName } from '../../chain/chains.js';
import { EMBEDDED_STOCK_FEED_DIRECTORY, EMBEDDED_STOCK_ISSUER_DIRECTORY, STOCK_CHAINS, STOCK_FEED_CHAIN } from '../../chain/stocks.js';
import { inSession } from '../../lib/market-hours.js';
import { Rng } from '../../lib/random.js';
import { FAR_DEADLINE } from '../gas.js';
import { Market, pairAddress, type Pool } from '../market.js';
import { Book } from '../stocks/book.js';
import {
  ANNOUNCE_AHEAD_S, IMPOSTOR, ISSUERS, MULTIPLIER_LAG_S, ONE, UNDER_RESERVED_RATIO, UNDER_RESERVED_STOPS_AFTER_S,
  actionFactor, applyFactor, depthWeight, fairValueUsd, feedAnswer, feedDue, laterListings, multiplierEvents, uniform, weekendPremium,
  type IssuerKey, type IssuerStatus, type NewListing,
} from '../stocks/plan.js';
import { StockPaths, UNDERLYINGS, type StockEvent } from '../stocks/underlyings.js';
import type { WorldHost, WorldModuleFactory } from './module.js';
import { publishPool } from './shared-pools.js';

// ---- labels --------------------------------------------------------------------------------------

type Action = Extract<StockEvent, { kind: 'split' | 'dividend' }>;

export interface StockLabels {
  /**
   * The stock chain, Ethereum, Base and Arbitrum only (the other chains' labels are as they were).
   * Multipliers and raw amounts are 18-decimal integers as strings; times unix seconds. A token's
   * true fair value at t is world/stocks/plan.ts fairValueUsd(new StockPaths(seed, origin),
   * underlying, listedAt, t), with the labels' seed and this section's origin.
   */
  stocks?: {
    /** The history's origin, which with the seed gives the underlyings' paths (world/stocks/underlyings.ts StockPaths). */
    origin: number;
    issuers: { address: Address; chain: string; key: IssuerKey; name: string; operator: Address; registered: boolean; status: IssuerStatus; block: number }[];
    tokens: {
      address: Address; chain: string; issuer: Address; issuerKey: IssuerKey | null; underlying: string; symbol: string; name: string; impostor: boolean;
      listedAt: number; listedBlock: number; pair: Address; liquidityBlock: number | null; depthUsd: number;
    }[];
    /** The stock chain's feeds. */
    feeds: { underlying: string; feed: Address; description: string; block: number }[];
    /** Every corporate action that has come, and each token's application of a split or dividend (announced, in effect from, how late). */
    events: {
      underlying: string; kind: StockEvent['kind']; at: number; ratio: number | null; usdPerShare: number | null; jump: number | null;
      applied: { token: Address; issuerKey: IssuerKey; multiplierBefore: string; multiplierAfter: string; announcedAt: number; announcedBlock: number; effectiveAt: number; lagSeconds: number }[];
    }[];
    attestations: { token: Address; issuerKey: IssuerKey; reserveShares: string; supplyShares: string; asOf: number; time: number; block: number }[];
    /** Creations (mint) and redemptions (burn) by the arbitrageurs with the issuers, at fair value. */
    creations: { token: Address; account: Address; kind: 'mint' | 'redeem'; amount: string; usd: number; block: number }[];
    powers: { token: Address; issuerKey: IssuerKey; kind: 'pause' | 'unpause' | 'blocklist' | 'unblock'; account: Address | null; time: number; block: number }[];
    earlyBuyers: { token: Address; symbol: string; buyer: Address; liquidityBlock: number; buyBlock: number; spentUsd: number; amount: string; sellBlock: number | null; receivedUsd: number | null; realisedPnlUsd: number | null }[];
    traders: { address: Address; skill: 'skilled' | 'poor'; trades: number; volumeUsd: number; realisedPnlUsd: number; openPositions: number }[];
    /** Each impostor, and the accounts that bought it (taking it for the genuine token). */
    impostors: { token: Address; deployer: Address; symbol: string; name: string; copiesIssuerKey: IssuerKey; pair: Address; block: number; buyers: Address[] }[];
  };
}

type Section = NonNullable<StockLabels['stocks']>;

export function emptyStockLabels(): Section {
  return { origin: 0, issuers: [], tokens: [], feeds: [], events: [], attestations: [], creations: [], powers: [], earlyBuyers: [], traders: [], impostors: [] };
}

// ---- tuning ----------------------------------------------------------------------------------------

/** In session, arbitrageurs trade a pool back onto fair value once it is further than this from it. */
export const ARB_BAND = 0.0025;
const ARBITRAGEURS = 2;
const RETAIL = 10;
const TRADERS = 3;
/** Retail trades per pool per hour (the stock chain's pools are the busiest), the hype's multiple, and sizes in USD. */
const RETAIL_PER_HOUR = { feed: 0.8, other: 0.4 } as const;
const HYPE_FLOW = 3;
const RETAIL_USD = [80, 5_000] as const;
/** A retail trade is at most this share of its pool's depth (about twice that in price). */
const RETAIL_MAX_SHARE = 0.005;
/** How hard retail leans toward its target premium: the buy chance moves this much per unit of gap. */
const LEAN = 25;
/** Each arbitrageur's inventory target per token (a share of the pool's depth); created below 60%, redeemed above 180%. */
const AP_INVENTORY_SHARE = 0.1;
const FLOAT_USD = 200_000;
const RETAIL_FLOAT_USD = 40_000;
/** Traders: how often each acts, how far ahead the skilled see, the edge each needs, the poor's sizes, the skilled's largest. */
const TRADER_ACTS_PER_HOUR = 0.25;
const LOOKAHEAD_S = 12 * 3_600;
const TRADER_EDGE = { skilled: 0.015, poor: -0.005 } as const;
const TRADER_USD = [1_000, 5_000] as const;
const TRADER_MAX_SHARE = 0.01;
const SKILLED_MAX_USD = 20_000;
/** A skilled trader closes a position once its edge is gone, or after this long. */
const SKILLED_HOLD_S = 3 * 86_400;
const TRADER_CHAINS: readonly EvmChainName[] = [STOCK_FEED_CHAIN, 'ethereum'];
/** Early buyers of a new listing: how many, their sizes, the share who sell into the hype. */
const EARLY_COUNT = [4, 7] as const;
const EARLY_USD = [2_000, 20_000] as const;
const EARLY_SELLERS = 0.5;
/**
 * They buy in these blocks after the liquidity's (1-3), and no sooner than EARLY_DELAY_S after it (a
 * listing's buyers come once it is announced, not within seconds: that is a snipe); no other actor
 * trades the token until they all have bought.
 */
const EARLY_BLOCKS = 3;
const EARLY_DELAY_S = 120;
/**
 * Blocks an account holds a bag before selling it: a buy first in one block and a sale first in
 * the next is a back-run's shape, which people holding a view do not trade.
 */
const MIN_HOLD_BLOCKS = 2;
/** Powers: the first pause and blocklist come this far into the history, later ones at these mean gaps; a pause lasts 1-3 h. */
const FIRST_PAUSE_DAYS = [0.3, 1.2] as const;
const FIRST_BLOCK_DAYS = [0.5, 1.5] as const;
const PAUSE_EVERY_DAYS = 3;
const BLOCK_EVERY_DAYS = 4;
/** The stock chain's issuer halts a token this long either side of a split. */
const SPLIT_HALT_S = 1_800;
const GAS = { issuer: 3_000_000n, list: 2_500_000n, feed: 3_000_000n, small: 150_000n, liquidity: 4_000_000n };
/** The directories' registrar: the same account in every world (it is written into the directories' slot 0). */
export const STOCK_REGISTRAR: Address = getAddress(`0x${keccak256(toHex('sibyl:stock-registrar')).slice(26)}`);

// ---- state -----------------------------------------------------------------------------------------

interface IssuerState {
  key: IssuerKey;
  address: Address;
  operator: Address;
  listed: number;
  reserveRatio: number;
  /** Under-reserved: no attestation after this. */
  attestUntil: number | null;
}

interface TokenState {
  address: Address;
  issuer: IssuerKey | 'impostor';
  ticker: string;
  symbol: string;
  listedAt: number;
  pool: Pool;
  depthUsd: number;
  /** listed: minted to the market maker, liquidity next block; live: trading. */
  stage: 'listed' | 'live';
  liquidityBlock: number | null;
  /** The liquidity block's time. */
  liquidityAt?: number;
  supply: bigint;
  /** On chain: the multiplier before `effectiveAt` and from it. */
  prevMultiplier: bigint;
  multiplier: bigint;
  effectiveAt: number;
  /** Actions applied (their `at`). */
  applied: number[];
  paused: boolean;
  pauseUntil: number;
  haltFor: number | null;
  blocked: Address[];
  hypeUntil: number;
  hypePremium: number;
  nextAttest: number;
}

interface EarlyBuy {
  token: Address;
  buyer: Address;
  offset: number;
  usd: number;
  seller: boolean;
  sellAt: number;
  targetPremium: number;
  done: 'pending' | 'bought' | 'sold';
}

/** What each arbitrageur settling a token this block may still spend on it (`ap:token` → token and USDC). */
type Settled = Map<string, { token: bigint; usdc: bigint }>;

interface TraderState {
  address: Address;
  skill: 'skilled' | 'poor';
  /** When each position was opened, and when a poor trader means to sell it. */
  opened: Record<string, { at: number; sellAt: number }>;
}

interface State {
  issuers: IssuerState[];
  tokens: TokenState[];
  feeds: { ticker: string; feed: Address; answer: bigint | null; at: number }[];
  transmitter: Address | null;
  /** The StockFeedTransmitter the transmitter posts every due round of a block through, in one transaction. */
  forwarder: Address | null;
  lp: Address;
  aps: Address[];
  retail: Address[];
  earlyBuys: EarlyBuy[];
  /** The block and side of each account's last trade of each token (`account:token`), by buy and sell. */
  traded: Record<string, { block: number; side: 'buy' | 'sell' }>;
  traders: TraderState[];
  listingsDone: number;
  impostor: Address | null;
  nextPause: number;
  nextBlocklist: number;
  /** Actions seen up to this time (labelled). */
  eventsThrough: number;
  /** Pools whose reserves moved off the swap path (liquidity): re-read before use. */
  stale: Address[];
}

// Plain JSON for the world cache: bigints as { $n: "…" }.
const encode = (v: unknown): unknown =>
  typeof v === 'bigint' ? { $n: v.toString() } : Array.isArray(v) ? v.map(encode) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, encode(x)])) : v;
const decode = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(decode);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.$n === 'string' && Object.keys(o).length === 1) return BigInt(o.$n);
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, decode(x)]));
  }
  return v;
};

const tokenCall = (fn: string, args: readonly unknown[] = []) => encodeFunctionData({ abi: StockToken.abi, functionName: fn, args } as never);
const issuerCall = (fn: string, args: readonly unknown[]) => encodeFunctionData({ abi: StockIssuer.abi, functionName: fn, args } as never);
const usdcRaw = (usd: number) => BigInt(Math.max(0, Math.round(usd * 1e6)));
const tokensFor = (usd: number, fair: number) => BigInt(Math.floor((usd / fair) * 1e6)) * 10n ** 12n;
const usdOfTokens = (amount: bigint, fair: number) => (Number(amount) / 1e18) * fair;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** Mines setup blocks until the node's pool is empty (deployments and pools fill more than a block). */
async function drain(host: WorldHost): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const status = await host.rpc.call<{ pending: string }>('txpool_status');
    if (BigInt(status.pending) === 0n) return;
    await host.mineSetupBlock();
  }
}

export const stocksModule: WorldModuleFactory = (chain, rng) => {
  if (!STOCK_CHAINS.includes(chain)) return undefined;
  const isFeedChain = chain === STOCK_FEED_CHAIN;
  let s: State;
  let paths: StockPaths | undefined;
  let later: NewListing[] | undefined;
  const books = new Map<string, Book>();

  const pathsOf = (host: WorldHost) => (paths ??= new StockPaths(host.seed, host.reference.origin));
  const laterOf = (host: WorldHost) => (later ??= isFeedChain ? laterListings(host.seed, host.reference.origin) : []);
  const section = (host: WorldHost) => (host.labels.stocks ??= emptyStockLabels());
  const send = (host: WorldHost, from: Address, to: Address, data: Hex, gas = GAS.small) => host.queue({ from, to, data, gas });
  const issuerOf = (key: IssuerKey) => s.issuers.find((i) => i.key === key)!;
  const planOf = (key: IssuerKey) => ISSUERS.find((i) => i.key === key)!;
  const usdc = (host: WorldHost) => host.usdc.address;

  const fair = (host: WorldHost, tok: TokenState, t: number) => fairValueUsd(pathsOf(host), tok.ticker, tok.listedAt, t);
  /** USDC per whole token in the pool now (0 before liquidity). */
  const poolPrice = (host: WorldHost, tok: TokenState) => {
    const tokenIs0 = tok.pool.token0.toLowerCase() === tok.address.toLowerCase();
    const [rt, ru] = tokenIs0 ? [tok.pool.r0, tok.pool.r1] : [tok.pool.r1, tok.pool.r0];
    return rt > 0n ? Number(ru) / 1e6 / (Number(rt) / 1e18) : 0;
  };
  const premium = (host: WorldHost, tok: TokenState, t: number) => poolPrice(host, tok) / fair(host, tok, t) - 1;
  const tradeable = (tok: TokenState) => tok.stage === 'live' && !tok.paused && tok.pool.r0 > 0n;
  /** A new listing's first blocks after its liquidity are its early buyers' alone: no other actor trades it until they have all bought. */
  const early = (host: WorldHost, tok: TokenState) =>
    tok.liquidityBlock === null || host.nextBlock() <= tok.liquidityBlock + EARLY_BLOCKS || s.earlyBuys.some((e) => e.token === tok.address && e.done === 'pending');
  const genuine = () => s.tokens.filter((t) => t.issuer !== 'impostor');

  /**
   * The market's roles some of the module's actors take, labelled once they act so (the world's
   * `wallets`, where detectors are scored): the market maker is a treasury once a listing's first
   * supply is minted to it, which it pools whole at fair value the next block (the issuer's float,
   * as the genesis treasury's opening liquidity is the project's); a skilled trader, who sees the
   * path twelve hours ahead, is smart money once it trades.
   */
  const labelWallet = (host: WorldHost, role: 'treasuries' | 'smartMoney', who: Address) => {
    const list = host.labels.wallets[role];
    if (!list.some((a) => a.toLowerCase() === who.toLowerCase())) list.push(who);
  };

  /** Tops `actor`'s USDC up a block ahead when it holds less than `need`: true when it had enough. */
  const funded = (host: WorldHost, actor: Address, need: bigint, float = FLOAT_USD): boolean => {
    if (host.balance(actor, usdc(host)) >= need) return true;
    host.fundToken(actor, usdc(host), need + usdcRaw(float));
    return false;
  };

  const mint = (host: WorldHost, tok: TokenState, to: Address, amount: bigint) => {
    const op = issuerOf(tok.issuer as IssuerKey).operator;
    send(host, op, tok.address, tokenCall('mint', [to, amount]));
    host.credit(to, tok.address, amount);
    tok.supply += amount;
  };

  // ---- setup -----------------------------------------------------------------------------------

  const placeDirectories = async (host: WorldHost) => {
    const slot0 = `0x${STOCK_REGISTRAR.slice(2).toLowerCase().padStart(64, '0')}` as Hex;
    const place = async (address: Address, code: Hex) => {
      await host.rpc.call('anvil_setCode', [address, code]);
      await host.rpc.call('anvil_setStorageAt', [address, '0x0', slot0]);
    };
    await place(EMBEDDED_STOCK_ISSUER_DIRECTORY, StockIssuerDirectory.deployedBytecode);
    if (isFeedChain) await place(EMBEDDED_STOCK_FEED_DIRECTORY, StockFeedDirectory.deployedBytecode);
    host.labelActor('stock-registrar', STOCK_REGISTRAR);
    host.queueBalance(STOCK_REGISTRAR, parseEther('100'));
  };

  /** Lists `ticker` with `issuer` (the operator's next listToken) and mints the market maker's and arbitrageurs' opening bags; labels it once mined. */
  const list = (host: WorldHost, issuer: IssuerState, ticker: string, t: number, hype?: NewListing): TokenState => {
    const plan = planOf(issuer.key);
    const address = getContractAddress({ from: issuer.address, nonce: BigInt(issuer.listed + 1) });
    issuer.listed++;
    const symbol = plan.symbol(ticker);
    const name = plan.tokenName(ticker);
    send(host, issuer.operator, issuer.address, issuerCall('listToken', [ticker, name, symbol]), GAS.list);
    const depthUsd = Math.round(plan.depthUsd * depthWeight(ticker) * uniform(rng, [0.8, 1.2]));
    const tok = newToken(host, address, issuer.key, ticker, symbol, t, depthUsd);
    if (hype) {
      tok.hypePremium = hype.hypePremium;
      tok.hypeUntil = t + hype.hypeSeconds;
    }
    const price = fair(host, tok, t);
    mint(host, tok, s.lp, tokensFor(depthUsd, price));
    labelWallet(host, 'treasuries', s.lp);
    for (const ap of s.aps) mint(host, tok, ap, tokensFor(depthUsd * AP_INVENTORY_SHARE, price));
    // Some retail hold it from the start (bought through the issuer's own app), so sellers exist at the weekend.
    for (const who of s.retail) if (rng.chance(0.4)) mint(host, tok, who, tokensFor(rng.logUniform(500, 8_000), price));
    const label = { address, chain, issuer: issuer.address, issuerKey: issuer.key, underlying: ticker, symbol, name, impostor: false, listedAt: t, listedBlock: 0, pair: tok.pool.pair, liquidityBlock: null, depthUsd };
    section(host).tokens.push(label);
    host.onMined((block) => (label.listedBlock = block));
    return tok;
  };

  const newToken = (host: WorldHost, address: Address, issuer: TokenState['issuer'], ticker: string, symbol: string, t: number, depthUsd: number): TokenState => {
    const factory = CHAINS[chain].dexes[0]!.factory;
    const [token0, token1] = address.toLowerCase() < usdc(host).toLowerCase() ? [address, usdc(host)] : [usdc(host), address];
    const tok: TokenState = {
      address, issuer, ticker, symbol, listedAt: t, depthUsd, stage: 'listed', liquidityBlock: null,
      pool: { pair: pairAddress(factory, address, usdc(host)), dex: 0, token0, token1, r0: 0n, r1: 0n },
      supply: 0n, prevMultiplier: ONE, multiplier: ONE, effectiveAt: 0, applied: [], paused: false, pauseUntil: 0, haltFor: null, blocked: [],
      hypeUntil: 0, hypePremium: 0, nextAttest: t, // an issuer attests a new token's reserves as it goes live
    };
    s.tokens.push(tok);
    // Other modules trade its pool through this very mirror (shared-pools.ts), so it stays exact.
    publishPool(host, tok.pool);
    return tok;
  };

  /** The market maker opens the token's pool at fair value (its bag was minted a block before). */
  const openPool = (host: WorldHost, tok: TokenState, t: number, owner = s.lp) => {
    const router = host.labels.contracts.routers[0]!;
    const amount = host.balance(owner, tok.address);
    const usdcSide = usdcRaw(usdOfTokens(amount, fair(host, tok, t)));
    host.approve(owner, tok.address, router);
    host.approve(owner, usdc(host), router);
    send(host, owner, router, encodeFunctionData({ abi: SibylV2Router.abi, functionName: 'addLiquidity', args: [tok.address, usdc(host), amount, usdcSide, 0n, 0n, owner, FAR_DEADLINE] }), GAS.liquidity);
    host.credit(owner, tok.address, -amount);
    host.credit(owner, usdc(host), -usdcSide);
    tok.stage = 'live';
    s.stale.push(tok.pool.pair);
    host.onMined((block) => {
      tok.liquidityBlock = block;
      tok.liquidityAt = t;
      const label = section(host).tokens.find((l) => l.address === tok.address);
      if (label) label.liquidityBlock = block;
    });
  };

  const refreshStale = async (host: WorldHost) => {
    if (!s.stale.length) return;
    const pools = s.stale.splice(0).flatMap((pair) => s.tokens.filter((t) => t.pool.pair === pair).map((t) => t.pool));
    await new Market().refresh(host.rpc, pools);
  };

  // ---- feeds -----------------------------------------------------------------------------------

  const postFeeds = (host: WorldHost, t: number) => {
    if (!s.transmitter || !s.forwarder) return;
    const due = s.feeds.filter((f) => {
      const price = pathsOf(host).priceUsd(f.ticker, t);
      if (!feedDue(f.answer === null ? undefined : { answer: f.answer, at: f.at }, price, t)) return false;
      f.answer = feedAnswer(price);
      f.at = t;
      return true;
    });
    if (!due.length) return;
    const data = encodeFunctionData({ abi: StockFeedTransmitter.abi, functionName: 'transmit', args: [due.map((f) => f.feed), due.map((f) => f.answer!)] });
    send(host, s.transmitter, s.forwarder, data, 80_000n + 60_000n * BigInt(due.length));
  };

  // ---- the issuers' duties ---------------------------------------------------------------------

  const labelEvents = (host: WorldHost, t: number) => {
    if (t < s.eventsThrough) return;
    const l = section(host);
    for (const e of pathsOf(host).events(s.eventsThrough, t + 1)) eventLabel(l, e);
    s.eventsThrough = t + 1;
  };

  const eventLabel = (l: Section, e: StockEvent) => {
    let label = l.events.find((x) => x.underlying === e.symbol && x.at === e.at && x.kind === e.kind);
    if (!label) {
      label = {
        underlying: e.symbol, kind: e.kind, at: e.at, ratio: e.kind === 'split' ? e.ratio : null, usdPerShare: e.kind === 'dividend' ? e.usdPerShare : null,
        jump: e.kind === 'earnings' ? e.jump : null, applied: [],
      };
      l.events.push(label);
      l.events.sort((a, b) => a.at - b.at || a.underlying.localeCompare(b.underlying));
    }
    return label;
  };

  /** The multiplier on chain at `t`. */
  const chainMultiplier = (tok: TokenState, t: number) => (t >= tok.effectiveAt ? tok.multiplier : tok.prevMultiplier);

  /**
   * Splits and dividends: an honest issuer schedules the new multiplier a day ahead, effective at
   * the action's moment; the lagging one sets it, effective at once, a day or two after.
   */
  const corporateActions = (host: WorldHost, tok: TokenState, t: number) => {
    if (tok.issuer === 'impostor' || tok.stage !== 'live') return;
    const issuer = issuerOf(tok.issuer);
    const lagging = planOf(tok.issuer).status === 'lagging-multiplier';
    const next = multiplierEvents(pathsOf(host), tok.ticker, tok.listedAt, t + ANNOUNCE_AHEAD_S + 1).find((e) => !tok.applied.includes(e.at));
    if (!next) return;
    // One change pending at a time: the one before must be in effect.
    if (t < tok.effectiveAt) return;
    const lag = lagging ? Math.round(uniform(new Rng(`${host.seed}:stocks:lag:${chain}:${tok.address}:${next.at}`), MULTIPLIER_LAG_S)) : 0;
    const announceAt = lagging ? next.at + lag : next.at - ANNOUNCE_AHEAD_S;
    if (t < announceAt) return;
    const before = chainMultiplier(tok, t);
    const after = applyFactor(before, actionFactor(pathsOf(host), next));
    const effectiveAt = lagging ? t : Math.max(t, next.at);
    send(host, issuer.operator, tok.address, tokenCall('setUIMultiplier', [after, BigInt(effectiveAt)]));
    tok.prevMultiplier = before;
    tok.multiplier = after;
    tok.effectiveAt = effectiveAt;
    tok.applied.push(next.at);
    const l = section(host);
    const label = eventLabel(l, next);
    host.onMined((block) => label.applied.push({
      token: tok.address, issuerKey: tok.issuer as IssuerKey, multiplierBefore: before.toString(), multiplierAfter: after.toString(),
      announcedAt: t, announcedBlock: block, effectiveAt, lagSeconds: effectiveAt - next.at,
    }));
    // The stock chain's issuer halts trading in a token around its split.
    if (next.kind === 'split' && isFeedChain && !lagging) tok.haltFor = next.at;
  };

  const power = (host: WorldHost, tok: TokenState, kind: Section['powers'][number]['kind'], account: Address | null, t: number) => {
    const op = issuerOf(tok.issuer as IssuerKey).operator;
    if (kind === 'pause' || kind === 'unpause') send(host, op, tok.address, tokenCall(kind));
    else send(host, op, tok.address, tokenCall('setBlocklisted', [account, kind === 'blocklist']));
    host.onMined((block) => section(host).powers.push({ token: tok.address, issuerKey: tok.issuer as IssuerKey, kind, account, time: t, block }));
  };

  const powers = (host: WorldHost, t: number) => {
    for (const tok of genuine()) {
      // A halt no block fell within (sparse history) is not made up later.
      if (tok.haltFor !== null && t >= tok.haltFor + SPLIT_HALT_S) tok.haltFor = null;
      if (tok.haltFor !== null && !tok.paused && t >= tok.haltFor - SPLIT_HALT_S) {
        tok.paused = true;
        tok.pauseUntil = tok.haltFor + SPLIT_HALT_S;
        tok.haltFor = null;
        power(host, tok, 'pause', null, t);
      } else if (tok.paused && t >= tok.pauseUntil) {
        tok.paused = false;
        power(host, tok, 'unpause', null, t);
      }
    }
    const live = genuine().filter((x) => tradeable(x) && x.haltFor === null && t >= x.hypeUntil);
    if (t >= s.nextPause) {
      s.nextPause = t + Math.round(-Math.log(1 - rng.next()) * PAUSE_EVERY_DAYS * 86_400);
      if (live.length) {
        const tok = rng.pick(live);
        tok.paused = true;
        tok.pauseUntil = t + rng.int(1, 3) * 3_600;
        power(host, tok, 'pause', null, t);
      }
    }
    if (t >= s.nextBlocklist) {
      s.nextBlocklist = t + Math.round(-Math.log(1 - rng.next()) * BLOCK_EVERY_DAYS * 86_400);
      if (live.length) {
        const tok = rng.pick(live);
        const account = rng.pick(s.retail);
        if (!tok.blocked.includes(account)) {
          tok.blocked.push(account);
          power(host, tok, 'blocklist', account, t);
        }
      }
    }
  };

  /** Each issuer attests each token's reserves once a day: honest ones a little over supply, the under-reserved one short of it until it stops. */
  const attest = (host: WorldHost, t: number) => {
    for (const tok of genuine()) {
      if (tok.stage !== 'live' || t < tok.nextAttest) continue;
      tok.nextAttest = t + 86_400 + rng.int(-1_800, 1_800);
      const issuer = issuerOf(tok.issuer as IssuerKey);
      if (issuer.attestUntil !== null && t > issuer.attestUntil) continue;
      const supplyShares = (tok.supply * chainMultiplier(tok, t)) / ONE;
      const reserve = (supplyShares * BigInt(Math.round(issuer.reserveRatio * 1e6))) / 1_000_000n;
      const asOf = t - (t % 3_600);
      send(host, issuer.operator, issuer.address, issuerCall('attest', [tok.address, reserve, BigInt(asOf)]));
      host.onMined((block) => section(host).attestations.push({
        token: tok.address, issuerKey: issuer.key, reserveShares: reserve.toString(), supplyShares: supplyShares.toString(), asOf, time: t, block,
      }));
    }
  };

  /** The stock chain's issuer lists its next name when due, and the market maker opens each pool a block after its listing. */
  const listings = (host: WorldHost, t: number) => {
    for (const tok of s.tokens) if (tok.stage === 'listed' && tok.issuer !== 'impostor' && t > tok.listedAt) openPool(host, tok, t);
    const next = laterOf(host)[s.listingsDone];
    if (!next || t < next.at) return;
    s.listingsDone++;
    const issuer = s.issuers.find((i) => i.key === 'hood');
    if (!issuer) return;
    funded(host, s.lp, usdcRaw(planOf('hood').depthUsd * 2.5));
    const tok = list(host, issuer, next.ticker, t, next);
    // Early buyers: a few, in the first blocks after the liquidity.
    // Accounts of their own, funded now (they buy minutes after the liquidity, blocks from now): a
    // listing's first buyers are not the last one's, so none builds a trading record from listings.
    const buyers = Array.from({ length: rng.int(...EARLY_COUNT) }, (_, i) => actor(host, 'early-buyer', (s.listingsDone - 1) * EARLY_COUNT[1] + i));
    for (const buyer of buyers) {
      host.queueBalance(buyer, parseEther('10'));
      host.fundToken(buyer, usdc(host), usdcRaw(RETAIL_FLOAT_USD));
    }
    for (const [i, buyer] of buyers.entries()) {
      // Some of them sell into the rise: at least one.
      const seller = i === 0 || rng.chance(EARLY_SELLERS);
      s.earlyBuys.push({
        token: tok.address, buyer, offset: rng.int(1, EARLY_BLOCKS), usd: Math.round(rng.logUniform(...EARLY_USD)), seller,
        sellAt: tok.hypeUntil - rng.int(600, 3_600), targetPremium: tok.hypePremium * uniform(rng, [0.35, 0.75]), done: 'pending',
      });
    }
  };

  // ---- trading -----------------------------------------------------------------------------------

  /** Records a trade that went through (a non-zero output): what `mayTrade` reads. */
  const traded = (host: WorldHost, who: Address, tok: TokenState, side: 'buy' | 'sell', out: bigint): bigint => {
    if (out > 0n) (s.traded ??= {})[`${who}:${tok.address}`] = { block: host.nextBlock(), side };
    return out;
  };
  /**
   * No actor turns a token around within MIN_HOLD_BLOCKS: a buy then a sale (or a sale then a buy)
   * in consecutive blocks is a sandwich's or a back-run's shape, not a view.
   */
  const mayTrade = (host: WorldHost, who: Address, tok: TokenState, side: 'buy' | 'sell') => {
    const last = s.traded?.[`${who}:${tok.address}`];
    return !last || last.side === side || host.nextBlock() - last.block >= MIN_HOLD_BLOCKS;
  };
  /** A swap of `usd` worth of USDC into `tok`, or `amount` of `tok` into USDC; the output (0 when it cannot). */
  const buy = (host: WorldHost, who: Address, tok: TokenState, usd: number): bigint => {
    const amount = usdcRaw(usd);
    if (!funded(host, who, amount, RETAIL_FLOAT_USD)) return 0n;
    return traded(host, who, tok, 'buy', host.swap(who, tok.pool, usdc(host), amount));
  };
  const sell = (host: WorldHost, who: Address, tok: TokenState, amount: bigint): bigint => (amount > 0n ? traded(host, who, tok, 'sell', host.swap(who, tok.pool, tok.address, amount)) : 0n);

  const retailFlow = (host: WorldHost, t: number, dt: number) => {
    const rate = isFeedChain ? RETAIL_PER_HOUR.feed : RETAIL_PER_HOUR.other;
    for (const tok of s.tokens) {
      if (!tradeable(tok) || early(host, tok)) continue;
      const hype = t < tok.hypeUntil;
      // The impostor is bought as soon as it trades: someone always takes it for the genuine token.
      const unbought = tok.issuer === 'impostor' && !section(host).impostors.find((x) => x.token === tok.address)?.buyers.length;
      const n = Math.max(unbought ? 1 : 0, Math.min(2, rng.poisson((dt / 3_600) * rate * (hype ? HYPE_FLOW : 1) * (tok.issuer === 'impostor' ? 0.4 : 1))));
      for (let k = 0; k < n; k++) {
        const who = rng.pick(s.retail);
        if (tok.blocked.includes(who)) continue;
        const p = premium(host, tok, t);
        // In session the flow is two-sided; at the weekend it leans toward the week's drawn premium, in a
        // hype toward the hype's. The impostor's buyers take it for the genuine token: they lean to fair value.
        const target = hype ? tok.hypePremium : tok.issuer === 'impostor' ? 0 : !inSession(t) ? weekendPremium(host.seed, chain, tok.symbol, t) : p;
        const buyChance = Math.min(0.97, Math.max(0.03, 0.5 + LEAN * (target - p)));
        const usd = Math.min(rng.logUniform(...RETAIL_USD), tok.depthUsd * RETAIL_MAX_SHARE);
        if (rng.chance(buyChance) || (unbought && k === 0)) {
          if (!mayTrade(host, who, tok, 'buy') || buy(host, who, tok, usd) <= 0n) continue;
          if (tok.issuer === 'impostor') {
            const label = section(host).impostors.find((x) => x.token === tok.address);
            if (label && !label.buyers.includes(who)) label.buyers.push(who);
          }
        } else {
          // A seller is someone holding the token who did not buy it in the last blocks.
          const holders = s.retail.filter((r) => host.balance(r, tok.address) > 0n && !tok.blocked.includes(r) && mayTrade(host, r, tok, 'sell'));
          if (!holders.length) continue;
          const seller = rng.pick(holders);
          const held = host.balance(seller, tok.address);
          const amount = BigInt(Math.min(Number(held), Math.floor((usd / poolPrice(host, tok)) * 1e18)));
          sell(host, seller, tok, (amount / 10n ** 12n) * 10n ** 12n);
        }
      }
    }
  };

  const earlyBuyers = (host: WorldHost, t: number) => {
    const l = section(host);
    for (const e of s.earlyBuys) {
      const tok = s.tokens.find((x) => x.address === e.token)!;
      if (e.done === 'pending' && tok.liquidityBlock !== null && host.nextBlock() >= tok.liquidityBlock + e.offset && t >= (tok.liquidityAt ?? 0) + EARLY_DELAY_S && tradeable(tok)) {
        const out = buy(host, e.buyer, tok, e.usd);
        if (out <= 0n) continue;
        e.done = 'bought';
        const label = { token: tok.address, symbol: tok.symbol, buyer: e.buyer, liquidityBlock: tok.liquidityBlock, buyBlock: 0, spentUsd: e.usd, amount: out.toString(), sellBlock: null, receivedUsd: null, realisedPnlUsd: null };
        l.earlyBuyers.push(label);
        host.onMined((block) => (label.buyBlock = block));
      } else if (e.done === 'bought' && e.seller && tradeable(tok) && mayTrade(host, e.buyer, tok, 'sell') && (premium(host, tok, t) >= e.targetPremium || t >= e.sellAt)) {
        const label = l.earlyBuyers.find((x) => x.token === e.token && x.buyer === e.buyer)!;
        const amount = BigInt(label.amount);
        const out = sell(host, e.buyer, tok, amount);
        if (out <= 0n) continue;
        e.done = 'sold';
        label.receivedUsd = round2(Number(out) / 1e6);
        label.realisedPnlUsd = round2(Number(out) / 1e6 - e.usd);
        host.onMined((block) => (label.sellBlock = block));
      }
    }
  };

  const bookOf = (who: Address) => {
    let book = books.get(who);
    if (!book) books.set(who, (book = new Book()));
    return book;
  };

  const labelTrader = (host: WorldHost, tr: TraderState) => {
    if (tr.skill === 'skilled') labelWallet(host, 'smartMoney', tr.address);
    const l = section(host);
    const book = bookOf(tr.address);
    const row = { address: tr.address, skill: tr.skill, trades: book.trades, volumeUsd: round2(book.volumeUsd), realisedPnlUsd: round2(book.realisedUsd), openPositions: book.positions.size };
    const i = l.traders.findIndex((x) => x.address === tr.address);
    if (i >= 0) l.traders[i] = row;
    else l.traders.push(row);
  };

  /**
   * Traders with records: the skilled buy when the next twelve hours' fair value, less the premium
   * paid now, is at least 1.5% up (a move ahead, a discount at the weekend), and sell once that edge
   * is gone; the poor buy when it is 0.5% down or worse (what is about to fall, or dear at the
   * weekend) and sell 6-12 hours later.
   */
  const traders = (host: WorldHost, t: number, dt: number) => {
    for (const tr of s.traders) {
      if (!rng.chance(1 - Math.exp(-(dt / 3_600) * TRADER_ACTS_PER_HOUR))) continue;
      const book = bookOf(tr.address);
      const edge = (tok: TokenState) => fair(host, tok, t + LOOKAHEAD_S) / fair(host, tok, t) - 1 - premium(host, tok, t);
      const open = Object.keys(tr.opened).map((a) => s.tokens.find((x) => x.address === a)!).filter((tok) => tradeable(tok) && !tok.blocked.includes(tr.address));
      const due = open.find((tok) => mayTrade(host, tr.address, tok, 'sell') && (t >= tr.opened[tok.address]!.sellAt || (tr.skill === 'skilled' && edge(tok) < 0)));
      if (due) {
        const amount = book.held(due.address);
        const out = sell(host, tr.address, due, amount);
        if (out > 0n) {
          book.sell(due.address, amount, Number(out) / 1e6);
          delete tr.opened[due.address];
          labelTrader(host, tr);
        }
        continue;
      }
      const candidates = genuine().filter((tok) => tradeable(tok) && !early(host, tok) && t >= tok.hypeUntil && !tok.blocked.includes(tr.address) && !tr.opened[tok.address] && mayTrade(host, tr.address, tok, 'buy'));
      if (!candidates.length) continue;
      const scored = candidates.map((tok) => ({ tok, edge: edge(tok) }));
      const pick = tr.skill === 'skilled'
        ? scored.filter((c) => c.edge >= TRADER_EDGE.skilled).sort((a, b) => b.edge - a.edge)[0]
        : scored.filter((c) => c.edge <= TRADER_EDGE.poor).sort((a, b) => a.edge - b.edge)[0];
      if (!pick) continue;
      // The skilled size to their edge: a round trip's price impact (about twice size / depth) costs half of it.
      const usd = Math.round(tr.skill === 'skilled' ? Math.min(SKILLED_MAX_USD, (pick.tok.depthUsd * pick.edge) / 4) : Math.min(uniform(rng, TRADER_USD), pick.tok.depthUsd * TRADER_MAX_SHARE));
      const out = buy(host, tr.address, pick.tok, usd);
      if (out <= 0n) continue;
      book.buy(pick.tok.address, out, usd);
      tr.opened[pick.tok.address] = { at: t, sellAt: t + (tr.skill === 'skilled' ? SKILLED_HOLD_S : rng.int(6, 12) * 3_600) };
      labelTrader(host, tr);
    }
  };

  /**
   * Creation and redemption: an arbitrageur short of a token pays its issuer USDC at fair value and
   * is minted more; one long of it is burnt and paid. In the same block it trades that token only
   * with what it held whichever way the issuer's transactions and its own are ordered.
   */
  const settle = (host: WorldHost, t: number): Settled => {
    const settled: Settled = new Map();
    if (!inSession(t)) return settled;
    for (const tok of genuine()) {
      if (tok.stage !== 'live' || tok.paused) continue;
      const price = fair(host, tok, t);
      const target = tokensFor(tok.depthUsd * AP_INVENTORY_SHARE, price);
      const op = issuerOf(tok.issuer as IssuerKey).operator;
      for (const ap of s.aps) {
        const held = host.balance(ap, tok.address);
        const before = { token: held, usdc: host.balance(ap, usdc(host)) };
        const spendable = () => {
          const after = { token: host.balance(ap, tok.address), usdc: host.balance(ap, usdc(host)) };
          return { token: before.token < after.token ? before.token : after.token, usdc: before.usdc < after.usdc ? before.usdc : after.usdc };
        };
        if (held * 10n < target * 6n) {
          const amount = target - held;
          const cost = usdcRaw(usdOfTokens(amount, price));
          if (!funded(host, ap, cost)) continue;
          send(host, ap, usdc(host), encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [op, cost] }));
          host.credit(ap, usdc(host), -cost);
          host.credit(op, usdc(host), cost);
          mint(host, tok, ap, amount);
          labelCreation(host, tok, ap, 'mint', amount, cost);
          settled.set(`${ap}:${tok.address}`, spendable());
          break; // one settlement a token a block: the other arbitrageur stays free to trade it
        } else if (held * 10n > target * 18n) {
          const amount = held - target;
          const paid = usdcRaw(usdOfTokens(amount, price));
          if (!funded(host, op, paid)) continue;
          send(host, op, tok.address, tokenCall('burn', [ap, amount]));
          send(host, op, usdc(host), encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [ap, paid] }));
          host.credit(ap, tok.address, -amount);
          tok.supply -= amount;
          host.credit(op, usdc(host), -paid);
          host.credit(ap, usdc(host), paid);
          labelCreation(host, tok, ap, 'redeem', amount, paid);
          settled.set(`${ap}:${tok.address}`, spendable());
          break;
        }
      }
    }
    return settled;
  };

  const labelCreation = (host: WorldHost, tok: TokenState, account: Address, kind: 'mint' | 'redeem', amount: bigint, usdcAmount: bigint) =>
    host.onMined((block) => section(host).creations.push({ token: tok.address, account, kind, amount: amount.toString(), usd: round2(Number(usdcAmount) / 1e6), block }));

  /** The arbitrageur that buys a token below fair value, or the one that sells it above. */
  const apFor = (tok: TokenState, buying: boolean) => s.aps[(s.tokens.indexOf(tok) + (buying ? 0 : 1)) % s.aps.length]!;

  /** In session, each pool strayed beyond the band is traded back onto fair value (as the cross-chain arbitrage does it). */
  const arbitrage = (host: WorldHost, t: number, settled: Settled) => {
    if (!inSession(t)) return;
    for (const tok of genuine()) {
      if (!tradeable(tok) || t < tok.hypeUntil) continue;
      const gap = fair(host, tok, t) / poolPrice(host, tok);
      if (Math.abs(gap - 1) < ARB_BAND) continue;
      const buying = gap > 1;
      const tokenIn = buying ? usdc(host) : tok.address;
      const [reserveIn] = tokenIn.toLowerCase() === tok.pool.token0.toLowerCase() ? [tok.pool.r0] : [tok.pool.r1];
      const amountIn = (reserveIn * BigInt(Math.round((Math.sqrt(buying ? gap : 1 / gap) - 1) * 1e9))) / 1_000_000_000n;
      if (amountIn <= 0n) continue;
      // Each arbitrageur trades a token one way only, buying or selling, and settles the inventory
      // that builds up with the issuer: a round trip on the pool would read as a trader's view.
      const ap = apFor(tok, buying);
      const budget = settled.get(`${ap}:${tok.address}`);
      const balance = host.balance(ap, tokenIn);
      const cap = budget ? (buying ? budget.usdc : budget.token) : balance;
      const held = cap < balance ? cap : balance;
      if (buying && held < amountIn) {
        host.fundToken(ap, usdc(host), amountIn + usdcRaw(FLOAT_USD));
        continue;
      }
      if (held > 0n) host.swap(ap, tok.pool, tokenIn, amountIn > held ? held : amountIn);
      // Topped up before it runs short (funds land for the next block): a block in which the buyer
      // waits for USDC leaves a pool beyond the band that nobody closes.
      if (buying && host.balance(ap, usdc(host)) < usdcRaw(FLOAT_USD / 2)) host.fundToken(ap, usdc(host), usdcRaw(FLOAT_USD));
    }
  };

  // ---- the module ------------------------------------------------------------------------------------

  const actor = (host: WorldHost, role: string, i = 0) => host.actorAddress(`stock-${role}`, i);

  return {
    name: 'stocks',
    async setup(host) {
      await drain(host);
      const t = host.time();
      const l = section(host);
      l.origin = host.reference.origin;
      s = {
        issuers: [], tokens: [], feeds: [], transmitter: null, forwarder: null, lp: actor(host, 'market-maker'),
        aps: Array.from({ length: ARBITRAGEURS }, (_, i) => actor(host, 'arbitrageur', i)),
        retail: Array.from({ length: RETAIL }, (_, i) => actor(host, 'retail', i)),
        earlyBuys: [],
        traded: {},
        traders: TRADER_CHAINS.includes(chain)
          ? (['skilled', 'poor'] as const).flatMap((skill) => Array.from({ length: TRADERS }, (_, i) => ({ address: actor(host, `trader-${skill}`, i), skill, opened: {} })))
          : [],
        listingsDone: 0, impostor: null,
        nextPause: t + Math.round(uniform(rng, FIRST_PAUSE_DAYS) * 86_400), nextBlocklist: t + Math.round(uniform(rng, FIRST_BLOCK_DAYS) * 86_400),
        eventsThrough: t, stale: [],
      };
      await placeDirectories(host);
      const everyone = [s.lp, ...s.aps, ...s.retail, ...s.traders.map((x) => x.address)];
      for (const a of everyone) host.queueBalance(a, parseEther('1000'));

      // Block 1: the issuers (registered in the directory), the feeds, the impostor; everyone's USDC.
      for (const plan of ISSUERS) {
        if (!plan.listings[chain]?.length) continue;
        const operator = actor(host, `issuer:${plan.key}`);
        host.queueBalance(operator, parseEther('1000'));
        const address = host.deploy(StockIssuer.abi, StockIssuer.bytecode, [plan.name, operator], operator);
        send(host, STOCK_REGISTRAR, EMBEDDED_STOCK_ISSUER_DIRECTORY, encodeFunctionData({ abi: StockIssuerDirectory.abi, functionName: 'register', args: [address, plan.name] }));
        const underReserved = plan.status === 'under-reserved';
        s.issuers.push({
          key: plan.key, address, operator, listed: 0,
          reserveRatio: underReserved ? uniform(rng, UNDER_RESERVED_RATIO) : 1 + rng.next() * 0.004,
          attestUntil: underReserved ? host.reference.origin + Math.round(uniform(rng, UNDER_RESERVED_STOPS_AFTER_S)) : null,
        });
        l.issuers.push({ address, chain, key: plan.key, name: plan.name, operator, registered: true, status: plan.status, block: 0 });
        host.fundToken(operator, usdc(host), usdcRaw(FLOAT_USD * 5));
      }
      if (isFeedChain) {
        s.transmitter = actor(host, 'feed-transmitter');
        host.queueBalance(s.transmitter, parseEther('1000'));
        s.forwarder = host.deploy(StockFeedTransmitter.abi, StockFeedTransmitter.bytecode, [s.transmitter], s.transmitter);
        for (const ticker of Object.keys(UNDERLYINGS)) {
          const description = `${ticker} / USD`;
          const feed = host.deploy(StockPriceFeed.abi, StockPriceFeed.bytecode, [description, s.forwarder], s.transmitter);
          send(host, STOCK_REGISTRAR, EMBEDDED_STOCK_FEED_DIRECTORY, encodeFunctionData({ abi: StockFeedDirectory.abi, functionName: 'setFeed', args: [ticker, feed] }));
          s.feeds.push({ ticker, feed, answer: null, at: 0 });
          l.feeds.push({ underlying: ticker, feed, description, block: 0 });
        }
      }
      if (chain === IMPOSTOR.chain) {
        s.impostor = actor(host, 'impostor');
        host.queueBalance(s.impostor, parseEther('1000'));
        const copied = planOf(IMPOSTOR.copies);
        const [symbol, name] = [copied.symbol(IMPOSTOR.underlying), copied.tokenName(IMPOSTOR.underlying)];
        const address = host.deploy(StockToken.abi, StockToken.bytecode, [name, symbol, IMPOSTOR.underlying, s.impostor], s.impostor);
        const tok = newToken(host, address, 'impostor', IMPOSTOR.underlying, symbol, t, IMPOSTOR.depthUsd);
        const amount = tokensFor(IMPOSTOR.depthUsd, fair(host, tok, t));
        send(host, s.impostor, address, tokenCall('mint', [s.impostor, amount]));
        host.credit(s.impostor, address, amount);
        tok.supply = amount;
        host.fundToken(s.impostor, usdc(host), usdcRaw(IMPOSTOR.depthUsd * 2));
        l.tokens.push({ address, chain, issuer: s.impostor, issuerKey: null, underlying: IMPOSTOR.underlying, symbol, name, impostor: true, listedAt: t, listedBlock: 0, pair: tok.pool.pair, liquidityBlock: null, depthUsd: IMPOSTOR.depthUsd });
        l.impostors.push({ token: address, deployer: s.impostor, symbol, name, copiesIssuerKey: IMPOSTOR.copies, pair: tok.pool.pair, block: 0, buyers: [] });
      }
      const depth = ISSUERS.reduce((sum, p) => sum + (p.listings[chain]?.reduce((x, tk) => x + p.depthUsd * depthWeight(tk), 0) ?? 0), 0);
      host.fundToken(s.lp, usdc(host), usdcRaw(depth * 1.3 + FLOAT_USD));
      for (const a of [...s.aps, ...s.traders.map((x) => x.address)]) host.fundToken(a, usdc(host), usdcRaw(FLOAT_USD));
      for (const a of s.retail) host.fundToken(a, usdc(host), usdcRaw(RETAIL_FLOAT_USD));
      const created = await host.mineSetupBlock();
      for (const x of l.issuers) x.block = created;
      for (const x of l.feeds) x.block = created;
      for (const x of l.impostors) x.block = created;
      for (const x of l.tokens) x.listedBlock = created;
      await drain(host);

      // Block 2: the listings with the market maker's, arbitrageurs' and retail's bags; the feeds' first rounds.
      for (const issuer of s.issuers) for (const ticker of planOf(issuer.key).listings[chain]!) list(host, issuer, ticker, t);
      postFeeds(host, host.time());
      await host.mineSetupBlock();
      await drain(host);

      // Block 3: every pool opened at fair value.
      for (const tok of s.tokens) openPool(host, tok, host.time(), tok.issuer === 'impostor' ? s.impostor! : s.lp);
      await host.mineSetupBlock();
      await drain(host);
      await refreshStale(host);
    },
    async step(host, t, dt) {
      await refreshStale(host);
      labelEvents(host, t);
      if (isFeedChain) postFeeds(host, t);
      listings(host, t);
      for (const tok of genuine()) corporateActions(host, tok, t);
      powers(host, t);
      const settled = settle(host, t);
      // After the block's creations and redemptions: an attestation covers the supply its block ends with.
      attest(host, t);
      retailFlow(host, t, dt);
      if (isFeedChain) earlyBuyers(host, t);
      traders(host, t, dt);
      arbitrage(host, t, settled);
    },
    toState: () => ({
      s: encode({ ...s, tokens: s.tokens.map(({ pool: { r0: _r0, r1: _r1, ...pool }, ...tok }) => ({ ...tok, pool })) }),
      books: [...books].map(([a, b]) => [a, b.toJSON()]),
    }),
    async restore(state, host) {
      const saved = state as { s: unknown; books: [string, ReturnType<Book['toJSON']>][] };
      s = decode(saved.s) as State;
      for (const tok of s.tokens) publishPool(host, (tok.pool = { ...tok.pool, r0: 0n, r1: 0n }));
      s.stale = [...new Set([...s.stale, ...s.tokens.map((x) => x.pool.pair)])];
      for (const [a, b] of saved.books) books.set(a, Book.from(b));
    },
  };
};
