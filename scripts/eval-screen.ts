/**
 * `npx tsx scripts/eval-screen.ts --seed N [--days D] [--chains base,ethereum] [--period 24h]`:
 * builds the world for a seed, indexes it, and measures the screen (`screen/v1`) against the
 * world's labels (which only this script reads): labelled traps (honeypot, taxed, owner-powers)
 * that would have been investment ideas or top-10 gainers without the screen and are with it,
 * every priced trap flagged or not, tokens failed that no label calls a trap, and how long a
 * cold and a warm screen of every priced token take.
 */
import { parseArgs } from 'node:util';
import { withIndexedWorld } from './indexed-world.js';
import type { EvmChainName } from '../chain/chains.js';
import { MIN_LIQUIDITY_USD, investmentIdeas } from '../skills/investment/engine.js';
import { Market, TRADEABLE_LIQUIDITY_USD } from '../skills/data/market.js';
import { PERIODS, type Period } from '../skills/data/periods.js';
import { tokenRows } from '../skills/data/rankings.js';
import { screenList, screenTokens } from '../skills/data/screening.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: 'sibyl' },
    days: { type: 'string', default: '14' },
    chains: { type: 'string', default: 'base,ethereum,bsc,arbitrum,polygon,optimism' },
    period: { type: 'string', default: '24h' },
  },
  allowPositionals: true,
});
const days = Number(values.days);
const chains = values.chains!.split(',') as EvmChainName[];
const period = values.period as Period;
const TRAPS = new Set(['honeypot', 'taxed', 'owner-powers']);

const totals = { priced: 0, trapsPriced: 0, trapsFlagged: 0, failedNotTrap: 0, unscreened: 0, ideasBefore: 0, trapIdeasBefore: 0, ideasAfter: 0, trapIdeasAfter: 0, excluded: 0, trapGainersBefore: 0, trapGainersAfter: 0, coldMs: 0, warmMs: 0 };
await withIndexedWorld(values.seed!, days, chains, async ({ chain, store, reader, labels }) => {
  const checkpoint = (await reader.checkpoint())!;
  const market = await Market.load(chain, reader);
  const kinds = new Map(labels.tokens.map((t) => [t.token.toLowerCase(), t.kind as string]));
  const isTrap = (token: string) => TRAPS.has(kinds.get(token.toLowerCase()) ?? '');
  const fromBlock = (await reader.firstBlockAtOrAfter(checkpoint.timestamp - PERIODS[period].seconds)) ?? checkpoint.block + 1;
  const rows = await tokenRows(market, checkpoint, period, fromBlock);

  // Every priced token, cold (nothing cached) then warm (same checkpoint, cached in the store).
  let started = Date.now();
  const screen = await screenTokens(market, rows.map((r) => r.token), store);
  const coldMs = Date.now() - started;
  started = Date.now();
  await screenTokens(await Market.load(chain, reader), rows.map((r) => r.token), store);
  const warmMs = Date.now() - started;
  const summary = screen.summary('flagged');

  const liquid = rows.filter((r) => r.liquidityUsd >= MIN_LIQUIDITY_USD);
  const { ideas, excluded } = await investmentIdeas(market, checkpoint, period, fromBlock, store);
  const byChange = rows.filter((r) => r.changePct !== null && r.liquidityUsd >= TRADEABLE_LIQUIDITY_USD).sort((a, b) => b.changePct! - a.changePct!);
  const gainers = await screenList(store, byChange, (r) => ({ market, token: r.token }), 10, 'excluded');
  const line = {
    chain: chain.name, blocks: checkpoint.block, priced: rows.length, screenedColdMs: coldMs, screenedWarmMs: warmMs, unscreened: summary.unscreened,
    trapsPriced: rows.filter((r) => isTrap(r.token)).length,
    trapsFlagged: rows.filter((r) => isTrap(r.token) && screen.of(chain.name, r.token).fails).length,
    failedNotTrap: rows.filter((r) => !isTrap(r.token) && screen.of(chain.name, r.token).fails).map((r) => `${r.symbol} (${screen.of(chain.name, r.token).failures.join('; ')})`),
    ideasBefore: liquid.length, trapIdeasBefore: liquid.filter((r) => isTrap(r.token)).length,
    ideasAfter: ideas.length, trapIdeasAfter: ideas.filter((r) => isTrap(r.token)).length, excluded: excluded.length,
    trapGainersBefore: byChange.slice(0, 10).filter((r) => isTrap(r.token)).length,
    trapGainersAfter: gainers.listed.filter((r) => isTrap(r.token)).length,
  };
  console.log(JSON.stringify(line));
  totals.priced += line.priced; totals.trapsPriced += line.trapsPriced; totals.trapsFlagged += line.trapsFlagged;
  totals.failedNotTrap += line.failedNotTrap.length; totals.unscreened += line.unscreened;
  totals.ideasBefore += line.ideasBefore; totals.trapIdeasBefore += line.trapIdeasBefore; totals.ideasAfter += line.ideasAfter; totals.trapIdeasAfter += line.trapIdeasAfter;
  totals.excluded += line.excluded; totals.trapGainersBefore += line.trapGainersBefore; totals.trapGainersAfter += line.trapGainersAfter;
  totals.coldMs += coldMs; totals.warmMs += warmMs;
});

process.exit(0);
