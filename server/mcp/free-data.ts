/**
 * What the free tools' snapshots hold, built from the index by background jobs: top movers across
 * chains, smart-money flow, whale prints, the token-safety dataset, smart-money inflow on BSC, the
 * launchpad radar and market sentiment. Each row keeps where it came from; a chain that cannot be
 * read is listed, never silently skipped.
 */
import type { ChainName } from '../../chain/chains.js';
import { altcoinSeason } from '../../skills/intel/altseason.js';
import { whaleActivity } from '../../skills/intel/flows.js';
import { byRadarOrder, launches, RADAR_RANKING, radarPace } from '../../skills/intel/launchpad.js';
import { round, TRADEABLE_LIQUIDITY_USD, type Market } from '../../skills/intel/market.js';
import { PERIODS } from '../../skills/intel/periods.js';
import { liquidityOf, tokenRows } from '../../skills/intel/rankings.js';
import { scanToken } from '../../skills/intel/security/scan.js';
import { Screen, screenList, screenTokens } from '../../skills/intel/screening.js';
import { isSmartMoney, walletRecords } from '../../skills/intel/smart-money.js';
import type { SkillContext } from '../../skills/context.js';
import { loadAllMarkets, periodStartBlock } from '../../skills/market/load.js';

/** Movers need tradeable size: thinner tokens swing on noise. */
export const MOVER_MIN_LIQUIDITY_USD = TRADEABLE_LIQUIDITY_USD;
/** The row cap a snapshot keeps per list (the tools cut to the caller's limit). */
const KEEP = 25;

type Loaded = Awaited<ReturnType<typeof loadAllMarkets>>['loaded'][number];

const source = (l: Loaded) => `index:${l.chain.name}@${l.checkpoint.block}`;

export async function topMovers(ctx: SkillContext) {
  const { loaded, unavailable } = await loadAllMarkets(ctx);
  const perChain: Record<string, unknown> = {};
  const all: Record<string, unknown>[] = [];
  let universe = 0;
  const markets = new Map(loaded.map((l) => [l.chain.name as string, l.market]));
  const locate = (r: { chain: string; token: string }) => ({ market: markets.get(r.chain)!, token: r.token });
  // Gainers leave out tokens that fail the screen (their gain cannot be taken); losers keep and flag them.
  const board = async (rows: ({ chain: string; token: string; changePct: number | null })[]) => {
    const sorted = [...rows].sort((a, b) => b.changePct! - a.changePct!);
    const [gainers, losers] = await Promise.all([screenList(ctx.store, sorted, locate, KEEP, 'excluded'), screenList(ctx.store, [...sorted].reverse(), locate, KEEP, 'flagged')]);
    return { gainers: gainers.listed, losers: losers.listed, excludedByScreen: gainers.excluded, screen: { gainers: gainers.screen, losers: losers.screen } };
  };
  for (const l of loaded) {
    const fromBlock = await periodStartBlock(l.market, l.checkpoint, '24h');
    const rows = await tokenRows(l.market, l.checkpoint, '24h', fromBlock);
    universe += rows.length;
    const cohort = rows.filter((r) => r.changePct !== null && r.liquidityUsd >= MOVER_MIN_LIQUIDITY_USD).map((r) => ({ chain: l.chain.name as string, ...r }));
    all.push(...cohort);
    const { gainers, losers } = await board(cohort);
    perChain[l.chain.name] = { source: source(l), cohortSize: cohort.length, gainers, losers };
  }
  const cross = await board(all as { chain: string; token: string; changePct: number }[]);
  return {
    window: '24h',
    minLiquidityUsd: MOVER_MIN_LIQUIDITY_USD,
    source: loaded.map(source).join(', '),
    idSource: 'token contract addresses of the index',
    screen: cross.screen,
    excludedByScreen: cross.excludedByScreen,
    perChainUnavailable: unavailable,
    crossAsset: { gainers: cross.gainers, losers: cross.losers, cohortSize: all.length, universeSize: universe },
    perChain,
    errors: unavailable.map((u) => ({ leg: u.chain, reason: u.reason })),
  };
}

export async function smartMoneyFlow(ctx: SkillContext) {
  const { loaded, unavailable } = await loadAllMarkets(ctx);
  const notable: Record<string, unknown>[] = [];
  const moves: Record<string, unknown>[] = [];
  let net = 0;
  let droppedRoutineCustody = 0;
  for (const l of loaded) {
    const fromBlock = await periodStartBlock(l.market, l.checkpoint, '24h');
    const records = await walletRecords(l.market, fromBlock);
    const smart = [...records.values()].filter(isSmartMoney);
    const smartSet = new Set(smart.map((r) => r.wallet.toLowerCase()));
    const traders = new Set(records.keys());
    const screen = await screenTokens(l.market, smart.flatMap((r) => [...r.recent.keys()]), ctx.store);
    for (const r of smart) {
      for (const [token, f] of r.recent) {
        const netUsd = f.boughtUsd - f.soldUsd;
        if (netUsd === 0) continue;
        net += netUsd;
        moves.push({ chain: l.chain.name, wallet: r.wallet, token, symbol: l.market.tokens.get(token)?.symbol ?? null, netUsd: round(netUsd, 2), direction: netUsd > 0 ? 'accumulating' : 'distributing', winRate: round(r.winRate, 4), realizedUsd: round(r.realizedUsd, 2), ...screen.row(l.chain.name, token) });
      }
    }
    for (const e of await whaleActivity(l.market, fromBlock)) {
      const from = e.wallet.toLowerCase();
      const to = e.counterparty?.toLowerCase() ?? '';
      // A transfer between wallets that never trade is custody being moved, not a market signal.
      if (e.kind === 'transfer' && !traders.has(from) && !traders.has(to)) {
        droppedRoutineCustody++;
        continue;
      }
      const label = (a: string) => (smartSet.has(a) ? 'smart-money' : l.market.pools.some((p) => p.pair === a) ? 'pool' : traders.has(a) ? 'trader' : 'wallet');
      notable.push({
        chain: l.chain.name,
        description: `${e.kind === 'swap' ? 'swap' : 'transfer'} of $${Math.round(e.usd).toLocaleString('en-US')} ${e.symbol ?? e.token} by ${e.wallet}`,
        token: e.token, symbol: e.symbol, amountUsd: round(e.usd, 2),
        direction: e.kind === 'swap' ? 'into-pool' : 'wallet-to-wallet',
        signalClass: smartSet.has(from) ? 'smart-money' : 'whale',
        fromLabel: label(from), toLabel: label(to), tx: e.tx, time: e.time,
      });
    }
  }
  return {
    window: '24h',
    source: loaded.map(source).join(', '),
    overallSignal: net > 0 ? 'accumulating' : net < 0 ? 'distributing' : 'neutral',
    netUsd: round(net, 2),
    droppedRoutineCustody,
    notableTransfers: notable.sort((a, b) => (b.amountUsd as number) - (a.amountUsd as number)).slice(0, KEEP),
    smartMoneyMoves: moves.sort((a, b) => Math.abs(b.netUsd as number) - Math.abs(a.netUsd as number)).slice(0, KEEP),
    errors: unavailable.map((u) => ({ leg: u.chain, reason: u.reason })),
  };
}

/** What a whale print is: a swap this big, on this chain's venues, in this window. */
export const WHALE_PRINTS = { chain: 'base' as ChainName, windowMinutes: 1_440, minUsd: 50_000 } as const;

/** Big swaps on the payment chain's venues over the last day. */
export async function whalePrints(ctx: SkillContext, { chain: chainName, windowMinutes, minUsd } = WHALE_PRINTS) {
  const { loaded, unavailable } = await loadAllMarkets(ctx, [chainName]);
  const l = loaded[0];
  if (!l) return { prints: { available: false, reason: unavailable[0]?.reason ?? `${chainName} is not connected`, chain: chainName } };
  const fromBlock = (await l.market.reader.firstBlockAtOrAfter(l.checkpoint.timestamp - windowMinutes * 60)) ?? l.checkpoint.block + 1;
  const swaps = await l.market.reader.swaps(fromBlock, l.checkpoint.block);
  const quotes = new Set([l.chain.spec.usdc.toLowerCase(), l.chain.spec.wrappedNative.toLowerCase()]);
  const eth = l.market.priceNow(l.chain.spec.wrappedNative)?.usd ?? null;
  const prints: Record<string, unknown>[] = [];
  let rejected = 0;
  let quoteSwaps = 0;
  let quoteSwapUsd = 0;
  for (const s of swaps) {
    const pool = l.market.pools.find((p) => p.pair === s.pair.toLowerCase());
    if (!pool) {
      rejected++;
      continue;
    }
    // The side that is not the quote is what was bought or sold; a swap of two quotes is counted apart.
    const base = quotes.has(pool.token0) && !quotes.has(pool.token1) ? pool.token1 : pool.token0;
    const baseIs0 = base === pool.token0;
    const bought = BigInt(baseIs0 ? s.amount0Out : s.amount1Out) > 0n;
    const price = l.market.priceNow(base)?.usd;
    const decimals = l.market.decimals(base);
    if (price === undefined || decimals === null) {
      rejected++;
      continue;
    }
    const raw = BigInt(baseIs0 ? (bought ? s.amount0Out : s.amount0In) : bought ? s.amount1Out : s.amount1In);
    const usd = (Number(raw) / 10 ** decimals) * price;
    if (quotes.has(pool.token0) && quotes.has(pool.token1)) {
      quoteSwaps++;
      quoteSwapUsd += usd;
      continue;
    }
    if (usd >= minUsd) prints.push({ token: base, symbol: l.market.tokens.get(base)?.symbol ?? null, side: bought ? 'buy' : 'sell', venue: pool.dex, usd: round(usd, 2), tx: s.tx, block: s.block });
  }
  return {
    prints: {
      available: true, chain: chainName, chainId: l.chain.spec.chainId, source: source(l),
      prints: prints.sort((a, b) => (b.usd as number) - (a.usd as number)).slice(0, KEEP),
      minUsd, ethUsd: eth === null ? null : round(eth, 2), ethSource: `${l.chain.spec.wrappedNativeSymbol} deepest pool, ${source(l)}`,
      windowMinutes, rowsScanned: swaps.length, rowsRejected: rejected, quoteSwaps, quoteSwapUsd: round(quoteSwapUsd, 2),
      note: 'prices are current pool prices (market/v1), not the price at each swap',
    },
  };
}

/** The token-safety dataset: every indexed token with a pool, scanned; keyed `chain:address`. */
export async function tokenSafety(ctx: SkillContext) {
  const { loaded, unavailable } = await loadAllMarkets(ctx);
  const rows: Record<string, unknown> = {};
  for (const l of loaded) {
    const quotes = new Set([l.chain.spec.usdc.toLowerCase(), l.chain.spec.wrappedNative.toLowerCase()]);
    for (const token of l.market.tokens.keys()) {
      if (quotes.has(token)) continue;
      try {
        const scan = await scanToken(l.market, token);
        rows[`${l.chain.name}:${token}`] = {
          honeypot: scan.honeypot,
          riskLevel: scan.verdict,
          flags: scan.findings.map((f) => f.finding),
          result: { riskScore: scan.riskScore, rugged: scan.rugged, findings: scan.findings, source: source(l) },
        };
      } catch {
        // Left out: a token the scan cannot read is "not screened", which the tool says.
      }
    }
  }
  return { rows, chains: loaded.map((l) => l.chain.name), unavailable };
}

/** Where smart money put money on BSC over the day, per token. */
export async function smartMoneyInflow(ctx: SkillContext) {
  const { loaded, unavailable } = await loadAllMarkets(ctx, ['bsc']);
  const l = loaded[0];
  if (!l) return { available: false, reason: unavailable[0]?.reason ?? 'bsc is not connected', chain: 'bsc' };
  const fromBlock = await periodStartBlock(l.market, l.checkpoint, '24h');
  const records = [...(await walletRecords(l.market, fromBlock)).values()].filter(isSmartMoney);
  const inflow = new Map<string, { usd: number; traders: Set<string> }>();
  for (const r of records) {
    for (const [token, f] of r.recent) {
      const row = inflow.get(token) ?? { usd: 0, traders: new Set<string>() };
      row.usd += f.boughtUsd - f.soldUsd;
      row.traders.add(r.wallet);
      inflow.set(token, row);
    }
  }
  const market = await tokenRows(l.market, l.checkpoint, '24h', fromBlock);
  const screen = await screenTokens(l.market, inflow.keys(), ctx.store);
  const rows = [];
  for (const [token, f] of inflow) {
    const m = market.find((r) => r.token.toLowerCase() === token);
    const balances = await l.market.reader.balances(token);
    const held = Object.values(balances).map((b) => BigInt(b)).filter((b) => b > 0n).sort((a, b) => (b > a ? 1 : -1));
    const total = held.reduce((a, b) => a + b, 0n);
    rows.push({
      chainId: l.chain.spec.chainId, contractAddress: token, symbol: l.market.tokens.get(token)?.symbol ?? null,
      priceUsd: m?.priceUsd ?? null, priceChangePct: m?.changePct ?? null, liquidityUsd: m?.liquidityUsd ?? round(liquidityOf(l.market, token), 2), volumeUsd: m?.volumeUsd ?? 0,
      inflowUsd: round(f.usd, 2), traders: f.traders.size, holders: held.length,
      holdersTop10Pct: total > 0n ? round((Number(held.slice(0, 10).reduce((a, b) => a + b, 0n)) / Number(total)) * 100, 2) : null,
      ...screen.row(l.chain.name, token),
    });
  }
  return { object: 'smart-money-inflow', chain: 'bsc', period: '24h', source: source(l), screen: screen.summary('flagged'), rows: rows.sort((a, b) => b.inflowUsd - a.inflowUsd).slice(0, KEEP) };
}

/** Bonding-curve launches of the EVM launchpads, closest to graduating at their current pace first (RADAR_RANKING). */
export async function launchpadRadar(ctx: SkillContext) {
  const { loaded, unavailable } = await loadAllMarkets(ctx);
  const rows = [];
  const screen = new Screen(ctx.store);
  for (const l of loaded) {
    const fromBlock = await periodStartBlock(l.market, l.checkpoint, '24h');
    const recent = await launches(l.market, fromBlock);
    await screen.check(l.market, recent.map((launch) => launch.token));
    for (const launch of recent) {
      rows.push({
        chainId: l.chain.spec.chainId, chain: l.chain.name, contractAddress: launch.token, symbol: launch.symbol, name: launch.name,
        priceUsd: launch.lastPriceUsd, volumeUsd: round(launch.period.volumeUsd, 2), raisedUsd: launch.raisedUsd, progressPct: launch.progressPct,
        protocol: 'bonding-curve launchpad', createTime: launch.launchedAt, migrateStatus: launch.graduated ? 'migrated' : 'on-curve',
        devAddress: launch.creator, traders: launch.lifetime.traders, source: source(l),
        ...radarPace(launch),
        ...screen.row(l.chain.name, launch.token),
      });
    }
  }
  return { object: 'launchpad-radar', chain: 'all', window: '24h', screen: screen.summary('flagged'), ranking: RADAR_RANKING, rows: rows.sort(byRadarOrder).slice(0, KEEP), errors: unavailable.map((u) => ({ leg: u.chain, reason: u.reason })) };
}

/** Sentiment derived from the markets Sibyl indexes; sources it does not have are said unavailable. */
export async function marketSentiment(ctx: SkillContext) {
  const { loaded } = await loadAllMarkets(ctx);
  const now = new Date().toISOString();
  let up = 0;
  let counted = 0;
  let sum = 0;
  for (const l of loaded) {
    const fromBlock = await periodStartBlock(l.market, l.checkpoint, '24h');
    for (const r of await tokenRows(l.market, l.checkpoint, '24h', fromBlock)) {
      if (r.changePct === null || r.liquidityUsd < MOVER_MIN_LIQUIDITY_USD) continue;
      counted++;
      sum += r.changePct;
      if (r.changePct > 0) up++;
    }
  }
  const base = loaded.find((l) => l.chain.name === 'base') ?? loaded[0];
  const season = base ? await altcoinSeason(base.market, await periodStartBlock(base.market, base.checkpoint, '30d'), base.checkpoint.timestamp - PERIODS['30d'].seconds) : null;
  const index = counted ? Math.round((up / counted) * 100) : null;
  return {
    crypto: counted
      ? { available: true, index, label: index! >= 75 ? 'extreme greed' : index! >= 55 ? 'greed' : index! > 45 ? 'neutral' : index! > 25 ? 'fear' : 'extreme fear', breadthUp: up, tokens: counted, averageChangePct: round(sum / counted, 4), window: '24h', method: `share of liquid tokens (>= $${MOVER_MIN_LIQUIDITY_USD.toLocaleString('en-US')}) up over 24 h across the indexed chains`, source: loaded.map(source).join(', ') }
      : { available: false, reason: 'no liquid token has a 24 h price change yet' },
    cmc: { available: false, reason: 'no CoinMarketCap feed on this deployment' },
    tradfi: { available: false, reason: 'no traditional-markets feed on this deployment' },
    altcoinSeason: season ?? { available: false, reason: 'no chain is indexed yet' },
    fetchedAt: { crypto: now, cmc: null, tradfi: null, altcoinSeason: now },
  };
}

