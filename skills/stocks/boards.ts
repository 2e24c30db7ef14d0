/**
 * The tokenized-equity boards read from the stock markets (stock-market.ts): which board answers
 * what, and the reads each needs beyond the markets themselves (Transfer logs for mints and burns,
 * the owners' powers, supplies at attestation, feed rounds, executions).
 */
import { CHAINS } from '../../chain/chains.js';
import { STOCK_FEED_CHAIN } from '../../chain/stocks.js';
import { allExecutions } from '../data/executions.js';
import { eventRisk } from './event-risk.js';
import { floatRow } from './float.js';
import { feedRounds, supplyChanges, suppliesAtAttestation, tokenHistory, type SupplyChanges } from './history.js';
import { stockPairs, PAIR_MIN_LIQUIDITY_USD } from './pairs.js';
import { proposePortfolio } from './portfolio.js';
import { EARLY_WINDOW_HOURS, MIN_RECORD_TRADES, earlyBuyers, traderRecords } from './records.js';
import { stockAt, type StockMarkets } from './stock-market.js';
import { wrapperTrust } from './trust.js';
import type { RwaAnswer } from './rwa-intel-skill.js';

export const RWA_BOARDS = ['portfolio', 'float-corner', 'wrapper-trust', 'stock-pairs', 'pons-stock-pairs', 'early-buyers', 'trader-record', 'event-risk'] as const;
export type RwaBoard = (typeof RWA_BOARDS)[number];

/** The per-venue pairs board reads the stock chain's own AMM (the first DEX of its catalogue entry). */
export const PONS_VENUE = { chain: STOCK_FEED_CHAIN, dex: CHAINS[STOCK_FEED_CHAIN].dexes[0]!.id } as const;
/** Rows per list on a board. */
const BOARD_ROWS = 25;

/** A board's own part of the answer: its rows, and whether it found any (with why not). */
export type BoardAnswer = Partial<RwaAnswer> & { available: boolean; reason?: string };

export async function readBoard(input: { board: RwaBoard; intent?: string; token?: string }, markets: StockMarkets): Promise<BoardAnswer> {
  switch (input.board) {
    case 'stock-pairs':
    case 'pons-stock-pairs': {
      const pairs = input.board === 'stock-pairs' ? stockPairs(markets) : stockPairs(markets, PONS_VENUE.dex).map((p) => ({ ...p, wrappers: p.wrappers.filter((w) => w.chain === PONS_VENUE.chain) })).filter((p) => p.wrappers.length);
      return { ...(input.board === 'pons-stock-pairs' && { venue: { ...PONS_VENUE } }), pairs: pairs.slice(0, BOARD_ROWS), available: pairs.length > 0, ...(!pairs.length && { reason: `no stock token has a priced pool with $${PAIR_MIN_LIQUIDITY_USD.toLocaleString('en-US')} of liquidity${input.board === 'pons-stock-pairs' ? ` on ${PONS_VENUE.dex} (${PONS_VENUE.chain})` : ''}` }) };
    }
    case 'wrapper-trust': {
      const inputs = await trustInputs(markets);
      const { issuers, impostors } = wrapperTrust(markets, inputs);
      return { issuers, impostors: [...impostors], available: true };
    }
    case 'float-corner': {
      const rows = [];
      for (const { loaded } of markets.chains) {
        const pools = new Set(loaded.market.pools.map((p) => p.pair));
        for (const s of markets.stocks.filter((x) => x.chain === loaded.chain.name)) rows.push(floatRow(s, await loaded.market.reader.balances(s.address.toLowerCase()), pools));
      }
      rows.sort((a, b) => b.cornerScore - a.cornerScore);
      return { floats: rows.slice(0, BOARD_ROWS), available: rows.length > 0 };
    }
    case 'early-buyers': {
      const token = stockAt(markets, input.token!);
      if (!token) return { available: false, reason: `${input.token} is not a genuine stock token: no registered issuer lists it (see wrapper-trust for impostors)` };
      const { market } = markets.chains.find((c) => c.loaded.chain.name === token.chain)!.loaded;
      const key = token.address.toLowerCase();
      const pools = market.pools.filter((p) => p.token0 === key || p.token1 === key).map((p) => p.pair);
      const adds = (await market.reader.liquidity(0, market.head.block)).filter((r) => r.event === 'mint' && pools.includes(r.pair.toLowerCase()));
      const first = adds[0];
      const listing = { chain: token.chain, token: token.address, symbol: token.symbol, underlying: token.underlying, issuer: token.issuer.name, pool: first?.pair ?? null, liquidityAt: first ? new Date(first.ts * 1000).toISOString() : null, priceNowUsd: token.priceUsd };
      if (!first) return { listing, available: false, reason: `${token.symbol} has had no liquidity in an indexed pool yet` };
      const executions = (await allExecutions(market)).filter((e) => e.token === key);
      const buyers = earlyBuyers(executions, first.ts, token.multiplier, token.priceUsd);
      return { listing, earlyBuyers: buyers, available: buyers.length > 0, ...(!buyers.length && { reason: `nobody bought ${token.symbol} within ${EARLY_WINDOW_HOURS} h of its first liquidity` }) };
    }
    case 'trader-record': {
      const all = [];
      const price = new Map(markets.stocks.map((s) => [`${s.chain}:${s.address.toLowerCase()}`, s.priceUsd]));
      for (const { loaded } of markets.chains) {
        const genuine = new Set(markets.stocks.filter((s) => s.chain === loaded.chain.name).map((s) => s.address.toLowerCase()));
        const executions = (await allExecutions(loaded.market)).filter((e) => genuine.has(e.token));
        all.push(...executions.map((e) => ({ ...e, token: `${loaded.chain.name}:${e.token}` })));
      }
      all.sort((a, b) => a.ts - b.ts);
      const records = traderRecords(all, (t) => price.get(t) ?? null);
      const half = Math.ceil(BOARD_ROWS / 2);
      return { traders: { best: records.slice(0, half), worst: records.slice(-half).reverse().filter((r) => r.pnlUsd < 0), withRecord: records.length }, available: records.length > 0, ...(!records.length && { reason: `no wallet has ${MIN_RECORD_TRADES} trades in stock tokens yet` }) };
    }
    case 'event-risk': {
      const feedChain = markets.chains.find((c) => c.loaded.chain.name === STOCK_FEED_CHAIN)!.loaded;
      const rounds = await feedRounds(feedChain.chain, markets.feeds, feedChain.checkpoint.block);
      const rows = [];
      for (const { loaded, multipliers } of markets.chains) {
        const tokens = markets.stocks.filter((s) => s.chain === loaded.chain.name && s.priceUsd !== null);
        for (const t of tokens) rows.push(await eventRisk(t, loaded.market, rounds.get(t.underlying) ?? [], multipliers, loaded.checkpoint.timestamp));
      }
      rows.sort((a, b) => (a.ahead ? a.ahead.hoursAhead : Infinity) - (b.ahead ? b.ahead.hoursAhead : Infinity) || (b.worstPremiumAfterPct ?? 0) - (a.worstPremiumAfterPct ?? 0));
      const listed = rows.filter((r) => r.ahead || r.past.length);
      return { events: listed.slice(0, BOARD_ROWS), available: listed.length > 0, ...(!listed.length && { reason: 'no stock token has an event ahead or behind it in the history read' }) };
    }
    case 'portfolio': {
      const feedChain = markets.chains.find((c) => c.loaded.chain.name === STOCK_FEED_CHAIN)!.loaded;
      const [rounds, inputs] = await Promise.all([feedRounds(feedChain.chain, markets.feeds, feedChain.checkpoint.block), trustInputs(markets)]);
      const trust = wrapperTrust(markets, inputs);
      const flags = new Map(trust.issuers.flatMap((i) => i.tokens.map((t) => [t.token.toLowerCase(), t.flags] as const)));
      const proposal = proposePortfolio(input.intent, markets.stocks, flags, rounds, markets.at);
      return { portfolio: { ...proposal, intent: { ...proposal.intent, sectors: [...proposal.intent.sectors], tickers: [...proposal.intent.tickers] }, holdings: [...proposal.holdings], excluded: [...proposal.excluded], executes: false }, available: proposal.holdings.length > 0, ...(!proposal.holdings.length && { reason: 'no stock token fits the intent with enough liquidity, a small premium and a sound issuer' }) };
    }
  }
}

/** Mints and burns, the uses of the owners' powers and the supplies at attestation, which the trust verdicts read (each chain's logs at its checkpoint). */
export async function trustInputs(markets: StockMarkets) {
  const minted = new Map<string, SupplyChanges>();
  const burnt = new Map<string, SupplyChanges>();
  const powers = [];
  const attested = new Map<string, { block: number; supplyShares: number }>();
  for (const { loaded } of markets.chains) {
    const tokens = markets.stocks.filter((s) => s.chain === loaded.chain.name);
    const addresses = tokens.map((t) => t.address);
    const issuers = [...new Set(tokens.map((t) => t.issuer.address))];
    const [supply, history, supplies] = await Promise.all([
      supplyChanges(loaded.chain, addresses, loaded.checkpoint.block),
      tokenHistory(loaded.chain, addresses, loaded.checkpoint.block),
      suppliesAtAttestation(loaded.chain, issuers, loaded.checkpoint.block),
    ]);
    for (const [token, m] of supply.minted) minted.set(token, m);
    for (const [token, b] of supply.burnt) burnt.set(token, b);
    powers.push(...history.powers);
    for (const [token, at] of supplies) attested.set(token, at);
  }
  return { minted, burnt, powers, attested };
}

