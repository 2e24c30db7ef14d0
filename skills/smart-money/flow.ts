/**
 * Where proven wallets moved money over the day: their net moves and the notable whale transfers
 * with who was on each side (custody moves between wallets that never trade are dropped and
 * counted), and per token on BSC, their net inflow with holders and concentration.
 */
import { whaleActivity } from '../whales/flows.js';
import { entityBook } from '../data/entities.js';
import { round } from '../data/market.js';
import { liquidityOf, tokenRows } from '../data/rankings.js';
import { screenTokens } from '../data/screening.js';
import { isSmartMoney, walletRecords } from './engine.js';
import type { SkillContext } from '../core/context.js';
import { FREE_ROWS } from '../core/params.js';
import { indexSource, loadAllMarkets, periodStartBlock } from '../data/load.js';

/** The row cap a snapshot keeps per list (free tools cut to the caller's limit, at most this). */
const SNAPSHOT_ROWS = FREE_ROWS.max;

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
    const entities = await entityBook(l.market);
    for (const e of await whaleActivity(l.market, fromBlock)) {
      const from = e.wallet.toLowerCase();
      const to = e.counterparty?.toLowerCase() ?? '';
      // A transfer between wallets that never trade is custody being moved, not a market signal.
      if (e.kind === 'transfer' && !traders.has(from) && !traders.has(to)) {
        droppedRoutineCustody++;
        continue;
      }
      // Sides named as every engine names them: a treasury, exchange or protocol contract by entities/v1.
      const label = (a: string) => (smartSet.has(a) ? 'smart-money' : l.market.pools.some((p) => p.pair === a) ? 'pool' : entities.kind(a) ?? (traders.has(a) ? 'trader' : 'wallet'));
      notable.push({
        chain: l.chain.name,
        description: `${e.kind === 'swap' ? 'swap' : 'transfer'} of $${Math.round(e.usd).toLocaleString('en-US')} ${e.symbol ?? e.token} by ${e.wallet}`,
        token: e.token, symbol: e.symbol, amountUsd: round(e.usd, 2),
        direction: e.kind === 'swap' ? 'into-pool' : 'wallet-to-wallet',
        signalClass: smartSet.has(from) ? 'smart-money' : entities.kind(from) ?? 'whale',
        fromLabel: label(from), toLabel: label(to), tx: e.tx, time: e.time,
      });
    }
  }
  return {
    window: '24h',
    source: loaded.map(indexSource).join(', '),
    overallSignal: net > 0 ? 'accumulating' : net < 0 ? 'distributing' : 'neutral',
    netUsd: round(net, 2),
    droppedRoutineCustody,
    notableTransfers: notable.sort((a, b) => (b.amountUsd as number) - (a.amountUsd as number)).slice(0, SNAPSHOT_ROWS),
    smartMoneyMoves: moves.sort((a, b) => Math.abs(b.netUsd as number) - Math.abs(a.netUsd as number)).slice(0, SNAPSHOT_ROWS),
    errors: unavailable.map((u) => ({ leg: u.chain, reason: u.reason })),
  };
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
  return { object: 'smart-money-inflow', chain: 'bsc', period: '24h', source: indexSource(l), screen: screen.summary('flagged'), rows: rows.sort((a, b) => b.inflowUsd - a.inflowUsd).slice(0, SNAPSHOT_ROWS) };
}
