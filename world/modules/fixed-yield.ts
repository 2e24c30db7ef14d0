/**
 * Fixed-rate markets: on a few chains the fixed-yield factory (SibylFixedYieldFactory, at
 * EMBEDDED_FIXED_YIELD_FACTORY) splits the shares of a USDC vault into principal (PT) and yield
 * (YT) tokens for three maturities: a short one that matures within any history of two days or
 * more, and two long ones. Each PT trades against USDC on a V2 pool of the chain's first DEX.
 *
 * The vault is the module's own (created through the vault factory like every other, labelled
 * among the vaults with its true rate): its income payer compounds its share price at that rate.
 * The vaults module mirrors its own vaults exactly and would be thrown off by deposits it does
 * not make, so the markets are written over a vault no one else deposits into.
 *
 * Each market's fixed rate starts near the vault's true rate: the LP seeds the pool at the PT
 * price that rate gives, (1 + rate)^(-time to maturity / 365 days). Its consensus rate then
 * wanders around the true rate (mean-reverting); a rate keeper trades the pool back onto it when
 * the implied rate strays beyond a band (selling PT it splits from fresh shares when PT is dear,
 * buying when cheap), and traders buy PT (locking a fixed rate) and sell it, moving the implied
 * rate. Nobody trades a market in its last days (a V2 pool's price is noise so close to par). At
 * maturity the LP and the keeper redeem the PT they hold for shares and those at the vault (the
 * LP's liquidity stays in the pool). YT holders claim their interest now and then.
 *
 * The node keeps a sender's own order within a block but not the order between senders, so the
 * module acts at most once a block (one sender's transactions), funds actors a block before
 * they spend, and reads the vault and balances it needs when it acts (never per block).
 */
import { encodeFunctionData, erc20Abi, erc4626Abi, parseEther, parseUnits, type Address, type Hex } from 'viem';
import { SibylFixedYieldFactory, SibylV2Factory, SibylV2Router, SibylVault, SibylVaultFactory, SibylYieldToken } from '../../chain/artifacts/index.js';
import { CHAINS, EMBEDDED_FIXED_YIELD_FACTORY, EMBEDDED_VAULT_FACTORY, type EvmChainName } from '../../chain/chains.js';
import type { Pool } from '../market.js';
import type { WorldHost, WorldModuleFactory } from './module.js';

export interface FixedYieldLabels {
  /**
   * Each market (its YT is the splitter) with its PT, the vault share it splits, maturity (unix
   * seconds), PT/USDC pair, the vault's true rate and the fixed rate the LP seeded the pool at
   * (APY %); every PT trade by a trader or the rate keeper with the implied APY it left the pool
   * at (by the module's own mirror); every PT redeemed at maturity (raw units); the module's actors.
   */
  fixedYield: {
    markets: { market: Address; pt: Address; yt: Address; share: Address; underlying: Address; maturity: number; pair: Address; block: number; vaultApyPct: number; seedApyPct: number }[];
    trades: { market: Address; trader: Address; kind: 'trader' | 'keeper'; side: 'buy' | 'sell'; ptAmount: string; impliedApyPct: number; block: number }[];
    redemptions: { market: Address; holder: Address; amount: string; block: number }[];
    actors: { lp: Address; keeper: Address; traders: Address[]; incomePayer: Address } | null;
  };
}

export function emptyFixedYieldLabels(): FixedYieldLabels {
  return { fixedYield: { markets: [], trades: [], redemptions: [], actors: null } };
}

const YEAR_S = 365 * 86_400;
const HOUR_S = 3600;
const FAR_DEADLINE = 2n ** 40n;
const ONE = 10n ** 18n;
const GAS = { create: 8_000_000n, vault: 3_000_000n, action: 400_000n, liquidity: 4_000_000n, swap: 300_000n };

/** The chains with fixed-rate markets. */
export const FIXED_YIELD_CHAINS: readonly EvmChainName[] = ['base', 'ethereum', 'arbitrum'];
/** The vault the markets split: its true rate is drawn ±8% around apyPct per chain. */
export const FIXED_YIELD_VAULT = { name: 'Sibyl Yield-Bearing USDC', symbol: 'syUSDC', apyPct: 6.2 } as const;
/** Maturities from the module's start (rounded up to the hour), and the USDC depth the LP seeds. */
const MARKET_PLANS = [
  { key: 'short', maturityS: 36 * HOUR_S, depthUsd: 150_000 },
  { key: 'quarter', maturityS: 90 * 86_400, depthUsd: 1_000_000 },
  { key: 'half', maturityS: 180 * 86_400, depthUsd: 800_000 },
] as const;
/** Nobody trades a market this close to maturity. */
const NO_TRADE_WITHIN_S = 3 * 86_400;
/** The consensus rate's deviation from the true rate: mean-reverting over REVERT_S, this spread (relative). */
const CONSENSUS_SD = 0.12;
const REVERT_S = 2 * 86_400;
/** The keeper trades the implied rate back to the consensus when it strays further than this (APY points). */
const KEEPER_BAND_PCT = 0.6;
/** PT the keeper keeps to sell when PT is dear, in USD per market; it splits more below a quarter of it. */
const KEEPER_INVENTORY_USD = 120_000;
const TRADERS = 8;
const TRADES_PER_HOUR = 0.5;
/** A trade's size, and at most this share of the pool's USDC (a V2 pool's PT price moves twice as far). */
const TRADE_USD = [200, 4_000] as const;
const TRADE_MAX_SHARE = 0.002;
/** Chance a trader holding PT sells (some of) it rather than buying more. */
const SELL_SHARE = 0.35;
const CLAIMS_PER_DAY = 0.5;
const INCOME_EVERY_S = 2 * HOUR_S;
/** What each actor holds to trade from, topped up a block ahead when short. */
const FLOAT_USD = 250_000;
const INCOME_FLOAT_DAYS = 60;

interface MarketState {
  key: string;
  yt: Address;
  pt: Address;
  maturity: number;
  pool: Pool;
  /** The consensus rate's relative deviation from the vault's true rate. */
  deviation: number;
  /** Maturity tasks done: 'lp-redeemed' once the LP redeemed its PT, 'done' once the keeper did too. */
  stage: 'live' | 'lp-redeemed' | 'done';
}

interface State {
  vault: Address;
  apyPct: number;
  curator: Address;
  payer: Address;
  lp: Address;
  keeper: Address;
  traders: Address[];
  lastIncome: number;
  nextIncome: number;
  markets: MarketState[];
  /** Pools whose reserves changed off the world's swap path (liquidity): re-read before use. */
  stale: Address[];
}

type Saved = Omit<State, 'markets'> & { markets: (Omit<MarketState, 'pool'> & { pool: Omit<Pool, 'r0' | 'r1'> })[] };

const ytCall = (fn: string, args: readonly unknown[]) => encodeFunctionData({ abi: SibylYieldToken.abi, functionName: fn, args } as never);
const vaultCall = (fn: string, args: readonly unknown[]) => encodeFunctionData({ abi: SibylVault.abi, functionName: fn, args } as never);

/** The PT price (USDC per PT) a fixed rate gives with `ttm` seconds to maturity. */
export function ptPriceFor(apyPct: number, ttm: number): number {
  return Math.pow(1 + apyPct / 100, -Math.max(0, ttm) / YEAR_S);
}

/** The fixed APY (%) a PT price implies with `ttm` seconds to maturity. */
export function impliedApyPct(price: number, ttm: number): number {
  return (Math.pow(1 / price, YEAR_S / ttm) - 1) * 100;
}

/** Mines setup blocks until the node's pool is empty (a setup block may not hold all that is queued). */
async function drain(host: WorldHost): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const status = await host.rpc.call<{ pending: string }>('txpool_status');
    if (BigInt(status.pending) === 0n) return;
    await host.mineSetupBlock();
  }
}

export const fixedYieldModule: WorldModuleFactory = (chain, rng) => {
  if (!FIXED_YIELD_CHAINS.includes(chain)) return undefined;
  let s: State;

  const usdcAmount = (usd: number) => parseUnits(usd.toFixed(6), 6);
  const send = (host: WorldHost, from: Address, to: Address, data: Hex, gas = GAS.action) => host.queue({ from, to, data, gas });
  const read = <T>(host: WorldHost, address: Address, abi: readonly unknown[], functionName: string, args: readonly unknown[] = []) =>
    host.client.readContract({ address, abi: abi as never, functionName, args } as never) as Promise<T>;

  /** Underlying per 1e18 share units, as the vault computes it (OpenZeppelin ERC-4626, no offset). */
  const indexOf = (totalAssets: bigint, supply: bigint) => (ONE * (totalAssets + 1n)) / (supply + 1n);
  const vaultTotals = async (host: WorldHost) => {
    const [totalAssets, supply] = await Promise.all([read<bigint>(host, s.vault, erc4626Abi, 'totalAssets'), read<bigint>(host, s.vault, erc20Abi, 'totalSupply')]);
    return { totalAssets, supply };
  };

  /** USDC per PT in the pool now (both 6 decimals), and the reserves as (PT, USDC). */
  const sides = (m: MarketState): [bigint, bigint] => {
    const ptIs0 = m.pool.token0.toLowerCase() === m.pt.toLowerCase();
    return ptIs0 ? [m.pool.r0, m.pool.r1] : [m.pool.r1, m.pool.r0];
  };
  const priceOf = (host: WorldHost, m: MarketState) => {
    const [pt, usdc] = sides(m);
    return pt > 0n ? Number(usdc) / Number(pt) : 0;
  };
  const consensusPct = (m: MarketState) => s.apyPct * (1 + m.deviation);

  /** What `who` holds of `token` on chain, set into the world's holdings (before a sale: a transaction that failed leaves none). */
  const sync = async (host: WorldHost, who: Address, token: Address): Promise<bigint> => {
    const held = await read<bigint>(host, token, erc20Abi, 'balanceOf', [who]);
    host.credit(who, token, held - host.balance(who, token));
    return held;
  };

  /** Tops an actor's USDC up to its float when it holds less than `need`: true when it had enough. */
  const funded = (host: WorldHost, actor: Address, need: bigint): boolean => {
    if (host.balance(actor, host.usdc.address) >= need) return true;
    host.fundToken(actor, host.usdc.address, need + usdcAmount(FLOAT_USD));
    return false;
  };

  const labelTrade = (host: WorldHost, m: MarketState, trader: Address, kind: 'trader' | 'keeper', side: 'buy' | 'sell', ptAmount: bigint, t: number) => {
    const after = impliedApyPct(priceOf(host, m), m.maturity - t);
    const trade = { market: m.yt, trader, kind, side, ptAmount: ptAmount.toString(), impliedApyPct: Math.round(after * 1e4) / 1e4 };
    host.onMined((block) => host.labels.fixedYield.trades.push({ ...trade, block }));
  };

  /** Income for the time since the last payment at the true rate, from the payer's float (topped up a block ahead). */
  const payIncome = async (host: WorldHost, t: number) => {
    const { totalAssets } = await vaultTotals(host);
    const growth = Math.expm1(Math.log1p(s.apyPct / 100) * ((t - s.lastIncome) / YEAR_S));
    const amount = BigInt(Math.floor(Number(totalAssets) * growth));
    if (!funded(host, s.payer, amount)) return;
    s.lastIncome = t;
    s.nextIncome = t + Math.round(INCOME_EVERY_S * (0.75 + rng.next() * 0.5));
    if (amount <= 0n) return;
    send(host, s.payer, s.vault, vaultCall('payIncome', [amount]));
    host.credit(s.payer, host.usdc.address, -amount);
  };

  /** Deposits `usdc` into the vault and splits the shares on `m`: the PT (and YT) minted. */
  const depositAndSplit = async (host: WorldHost, who: Address, m: MarketState, usdc: bigint): Promise<bigint> => {
    const { totalAssets, supply } = await vaultTotals(host);
    const shares = (usdc * (supply + 1n)) / (totalAssets + 1n);
    const minted = (shares * indexOf(totalAssets + usdc, supply + shares)) / ONE;
    host.approve(who, host.usdc.address, s.vault);
    send(host, who, s.vault, vaultCall('deposit', [usdc, who]));
    host.approve(who, s.vault, m.yt);
    send(host, who, m.yt, ytCall('split', [shares, who]));
    host.credit(who, host.usdc.address, -usdc);
    host.credit(who, m.pt, minted);
    host.credit(who, m.yt, minted);
    return minted;
  };

  /** The keeper trades the pool back onto the consensus rate when it strays beyond the band; true when it acted. */
  const keep = async (host: WorldHost, t: number): Promise<boolean> => {
    const live = s.markets.filter((m) => m.stage === 'live' && m.maturity - t > NO_TRADE_WITHIN_S);
    const gaps = live.map((m) => ({ m, gap: impliedApyPct(priceOf(host, m), m.maturity - t) - consensusPct(m) }));
    const worst = gaps.filter((g) => Math.abs(g.gap) > KEEPER_BAND_PCT).sort((a, b) => Math.abs(b.gap) - Math.abs(a.gap))[0];
    if (!worst) return false;
    const { m, gap } = worst;
    const [x, y] = sides(m);
    const target = ptPriceFor(consensusPct(m), m.maturity - t);
    const k = Number(x) * Number(y);
    if (gap > 0) {
      // The implied rate is too high: PT is cheap; buy it with USDC up to the target price.
      const usdcIn = BigInt(Math.floor((Math.sqrt(k * target) - Number(y)) / 0.997));
      if (usdcIn <= 0n || !funded(host, s.keeper, usdcIn)) return true;
      const out = host.swap(s.keeper, m.pool, host.usdc.address, usdcIn);
      labelTrade(host, m, s.keeper, 'keeper', 'buy', out, t);
      return true;
    }
    // Too low: PT is dear; sell PT from inventory, splitting more first when it runs short.
    const ptIn = BigInt(Math.floor((Math.sqrt(k / target) - Number(x)) / 0.997));
    if (ptIn <= 0n) return true;
    if ((await sync(host, s.keeper, m.pt)) < ptIn) {
      const usdc = usdcAmount(KEEPER_INVENTORY_USD) + ptIn;
      if (funded(host, s.keeper, usdc)) await depositAndSplit(host, s.keeper, m, usdc);
      return true; // sells next block, from what landed
    }
    host.swap(s.keeper, m.pool, m.pt, ptIn);
    labelTrade(host, m, s.keeper, 'keeper', 'sell', ptIn, t);
    return true;
  };

  /** A trader buys PT (locking the rate) or sells what it holds. */
  const trade = async (host: WorldHost, t: number) => {
    const live = s.markets.filter((m) => m.stage === 'live' && m.maturity - t > NO_TRADE_WITHIN_S);
    if (!live.length) return;
    const m = rng.pick(live);
    const trader = rng.pick(s.traders);
    const held = host.balance(trader, m.pt) > 0n ? await sync(host, trader, m.pt) : 0n;
    if (held > 0n && rng.chance(SELL_SHARE)) {
      const amount = rng.chance(0.5) ? held : (held * BigInt(rng.int(30, 90))) / 100n;
      if (host.swap(trader, m.pool, m.pt, amount) > 0n) labelTrade(host, m, trader, 'trader', 'sell', amount, t);
      return;
    }
    const [, usdcReserve] = sides(m);
    const usdc = BigInt(Math.min(Number(usdcAmount(rng.logUniform(...TRADE_USD))), Math.floor(Number(usdcReserve) * TRADE_MAX_SHARE)));
    if (usdc <= 0n || !funded(host, trader, usdc)) return;
    const out = host.swap(trader, m.pool, host.usdc.address, usdc);
    if (out > 0n) labelTrade(host, m, trader, 'trader', 'buy', out, t);
  };

  /**
   * A matured market: the LP and then the keeper redeem the PT they hold (one a block). The LP
   * leaves its liquidity in the pool: a provider pulling all of a token's liquidity is what a rug
   * looks like, and a matured PT needs no pool (it redeems at the market).
   */
  const mature = async (host: WorldHost, m: MarketState): Promise<void> => {
    const holder = m.stage === 'live' ? s.lp : s.keeper;
    m.stage = m.stage === 'live' ? 'lp-redeemed' : 'done';
    const [pt, totals] = await Promise.all([sync(host, holder, m.pt), vaultTotals(host)]);
    if (pt === 0n) return;
    // The market's index is frozen at this first touch after maturity: the vault's own index now.
    const shares = (pt * ONE) / indexOf(totals.totalAssets, totals.supply);
    const assets = (shares * (totals.totalAssets + 1n)) / (totals.supply + 1n);
    send(host, holder, m.yt, ytCall('redeemPrincipal', [pt, holder]));
    send(host, holder, s.vault, vaultCall('redeem', [shares, holder, holder]));
    host.credit(holder, m.pt, -pt);
    host.credit(holder, host.usdc.address, assets);
    host.onMined((block) => host.labels.fixedYield.redemptions.push({ market: m.yt, holder, amount: pt.toString(), block }));
  };

  /** Re-reads reserves the world's swap path did not move (liquidity added or removed). */
  const refreshStale = async (host: WorldHost) => {
    for (const pair of s.stale.splice(0)) {
      const m = s.markets.find((x) => x.pool.pair === pair);
      if (!m) continue;
      const [r0, r1] = await read<readonly [bigint, bigint, number]>(host, pair, PAIR_ABI, 'getReserves');
      m.pool.r0 = r0;
      m.pool.r1 = r1;
    }
  };

  /** The consensus rates drift (Ornstein-Uhlenbeck around the true rate), every block. */
  const drift = (dt: number) => {
    const decay = Math.exp(-dt / REVERT_S);
    for (const m of s.markets) m.deviation = m.deviation * decay + CONSENSUS_SD * Math.sqrt(1 - decay * decay) * rng.normal();
  };

  return {
    name: 'fixed-yield',
    async setup(host) {
      await drain(host);
      await host.rpc.call('anvil_setCode', [EMBEDDED_FIXED_YIELD_FACTORY, SibylFixedYieldFactory.deployedBytecode]);
      // The vault factory is the vaults module's; placed here too when that module is not running.
      if (!(await host.client.getCode({ address: EMBEDDED_VAULT_FACTORY }))) await host.rpc.call('anvil_setCode', [EMBEDDED_VAULT_FACTORY, SibylVaultFactory.deployedBytecode]);
      const start = host.time();
      const actor = (role: string, i = 0) => host.actorAddress(`fixed-yield-${role}`, i);
      s = {
        vault: '0x', apyPct: Math.round(FIXED_YIELD_VAULT.apyPct * (0.92 + rng.next() * 0.16) * 100) / 100,
        curator: actor('curator'), payer: actor('income'), lp: actor('lp'), keeper: actor('keeper'),
        traders: Array.from({ length: TRADERS }, (_, i) => actor('trader', i)),
        lastIncome: start, nextIncome: start + INCOME_EVERY_S, markets: [], stale: [],
      };
      const usdc = host.usdc.address;
      for (const a of [s.curator, s.payer, s.lp, s.keeper, ...s.traders]) host.queueBalance(a, parseEther('10000'));
      send(host, s.curator, EMBEDDED_VAULT_FACTORY, encodeFunctionData({ abi: SibylVaultFactory.abi, functionName: 'createVault', args: [usdc, FIXED_YIELD_VAULT.name, FIXED_YIELD_VAULT.symbol] }), GAS.vault);
      // The LP deposits enough for each market's PT side (up to 5% over its USDC side) and keeps the USDC side.
      const depth = MARKET_PLANS.reduce((sum, p) => sum + p.depthUsd, 0);
      const lpUsd = 1.1 * depth;
      host.fundToken(s.lp, usdc, usdcAmount(lpUsd + depth));
      host.fundToken(s.keeper, usdc, usdcAmount(KEEPER_INVENTORY_USD * MARKET_PLANS.length + FLOAT_USD));
      host.fundToken(s.payer, usdc, usdcAmount(lpUsd * (s.apyPct / 100) * (INCOME_FLOAT_DAYS / 365)));
      for (const trader of s.traders) host.fundToken(trader, usdc, usdcAmount(FLOAT_USD));
      const created = await host.mineSetupBlock();
      const count = await read<bigint>(host, EMBEDDED_VAULT_FACTORY, SibylVaultFactory.abi, 'allVaultsLength');
      s.vault = await read<Address>(host, EMBEDDED_VAULT_FACTORY, SibylVaultFactory.abi, 'allVaults', [count - 1n]);
      host.labels.vaults.push({
        vault: s.vault, asset: usdc, assetSymbol: host.usdc.symbol, name: FIXED_YIELD_VAULT.name, curator: s.curator, strategy: s.payer, block: created,
        incomeApyPct: s.apyPct, deprecated: false, deprecatedAt: null, holdersLeft: [],
      });

      // The markets, and the LP's and keeper's deposits (a block before they split them).
      const maturities = MARKET_PLANS.map((p) => Math.ceil((start + p.maturityS) / HOUR_S) * HOUR_S);
      for (const maturity of maturities) send(host, s.curator, EMBEDDED_FIXED_YIELD_FACTORY, encodeFunctionData({ abi: SibylFixedYieldFactory.abi, functionName: 'createMarket', args: [s.vault, BigInt(maturity)] }), GAS.create);
      for (const [who, usd] of [[s.lp, lpUsd], [s.keeper, KEEPER_INVENTORY_USD * MARKET_PLANS.length]] as const) {
        host.approve(who, usdc, s.vault);
        send(host, who, s.vault, vaultCall('deposit', [usdcAmount(usd), who]));
        host.credit(who, usdc, -usdcAmount(usd));
      }
      host.approve(s.payer, usdc, s.vault);
      const block = await host.mineSetupBlock();

      // Each market: the LP splits enough shares for its PT side, the keeper its inventory.
      const factory = CHAINS[chain].dexes[0]!.factory;
      const totals = await vaultTotals(host);
      const index = indexOf(totals.totalAssets, totals.supply);
      const sharesFor = (usd: number) => (usdcAmount(usd) * ONE) / index;
      const plans = await Promise.all(MARKET_PLANS.map(async (plan, i) => {
        const maturity = maturities[i]!;
        const yt = await read<Address>(host, EMBEDDED_FIXED_YIELD_FACTORY, SibylFixedYieldFactory.abi, 'marketOf', [s.vault, BigInt(maturity)]);
        const pt = await read<Address>(host, yt, SibylYieldToken.abi, 'principal');
        return { plan, maturity, yt, pt };
      }));
      for (const { plan, yt } of plans) {
        for (const [who, usd] of [[s.lp, plan.depthUsd * 1.05], [s.keeper, KEEPER_INVENTORY_USD]] as const) {
          host.approve(who, s.vault, yt);
          send(host, who, yt, ytCall('split', [sharesFor(usd), who]));
        }
      }
      await host.mineSetupBlock();

      // The LP seeds each pool at the PT price of a rate near the vault's true rate (no trade in this block).
      const router = host.labels.contracts.routers[0]!;
      for (const { plan, maturity, yt, pt } of plans) {
        const deviation = CONSENSUS_SD * rng.normal();
        const seedPct = s.apyPct * (1 + deviation);
        const usdcSide = usdcAmount(plan.depthUsd);
        const ptSide = BigInt(Math.floor(Number(usdcSide) / ptPriceFor(seedPct, maturity - start)));
        host.approve(s.lp, pt, router);
        host.approve(s.lp, usdc, router);
        send(host, s.lp, router, encodeFunctionData({ abi: SibylV2Router.abi, functionName: 'addLiquidity', args: [pt, usdc, ptSide, usdcSide, 0n, 0n, s.lp, FAR_DEADLINE] }), GAS.liquidity);
        const [token0, token1] = pt.toLowerCase() < usdc.toLowerCase() ? [pt, usdc] : [usdc, pt];
        s.markets.push({ key: plan.key, yt, pt, maturity, pool: { pair: '0x', dex: 0, token0, token1, r0: 0n, r1: 0n }, deviation, stage: 'live' });
        host.labels.fixedYield.markets.push({
          market: yt, pt, yt, share: s.vault, underlying: usdc, maturity, pair: '0x', block, vaultApyPct: s.apyPct, seedApyPct: Math.round(seedPct * 1e4) / 1e4,
        });
      }
      await host.mineSetupBlock();
      await drain(host);
      for (const m of s.markets) {
        m.pool = { ...m.pool, pair: await read<Address>(host, factory, SibylV2Factory.abi, 'getPair', [m.pt, usdc]) };
        host.labels.fixedYield.markets.find((l) => l.market === m.yt)!.pair = m.pool.pair;
        s.stale.push(m.pool.pair);
        // What the splits and the seeding left each actor, read once, into the world's holdings.
        for (const who of [s.lp, s.keeper]) {
          for (const token of [m.pt, m.yt]) host.credit(who, token, (await read<bigint>(host, token, erc20Abi, 'balanceOf', [who])) - host.balance(who, token));
        }
      }
      host.labels.fixedYield.actors = { lp: s.lp, keeper: s.keeper, traders: [...s.traders], incomePayer: s.payer };
      await refreshStale(host);
    },
    async step(host, t, dt) {
      drift(dt);
      if (s.stale.length) await refreshStale(host);
      // One action a block, in this order: maturity, income, the keeper, a trade, an interest claim.
      const matured = s.markets.find((m) => t >= m.maturity && m.stage !== 'done');
      if (matured) return mature(host, matured);
      if (t >= s.nextIncome) return payIncome(host, t);
      if (await keep(host, t)) return;
      if (rng.chance(1 - Math.exp(-(dt / HOUR_S) * TRADES_PER_HOUR * s.markets.length))) return trade(host, t);
      if (rng.chance(1 - Math.exp(-(dt / 86_400) * CLAIMS_PER_DAY))) {
        const m = rng.pick(s.markets);
        const who = rng.chance(0.5) ? s.lp : s.keeper;
        send(host, who, m.yt, ytCall('claimInterest', [who]));
      }
    },
    toState: (): Saved => ({ ...s, markets: s.markets.map(({ pool: { r0: _r0, r1: _r1, ...pool }, ...m }) => ({ ...m, pool })) }),
    async restore(state, host) {
      const saved = state as Saved;
      s = { ...saved, markets: saved.markets.map((m) => ({ ...m, pool: { ...m.pool, r0: 0n, r1: 0n } })), stale: saved.markets.map((m) => m.pool.pair) };
      await refreshStale(host);
    },
  };
};

const PAIR_ABI = [{ type: 'function', name: 'getReserves', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint112' }, { type: 'uint112' }, { type: 'uint32' }] }] as const;
