/** BRC-20 analytics from the BRC-20 index: tickers with supply and mint progress, holders, top holders, recent transfers. */
import type { Brc20Index } from './indexer.js';
import { formatScaled } from './ops.js';

export const BRC20_METHODOLOGY = 'brc20/v1: every confirmed block read through Esplora; inscription envelopes decoded as ord does (curse flaws and non-text content excluded); BRC-20 rules as the reference indexers apply them (first deploy wins, mints within lim and max with the last one partial, transfer inscriptions within the available balance, transfers completed when the inscribed sat moves, first-in-first-out; sent as fee returns to the sender)';

const pctOf = (part: bigint, whole: bigint) => (whole > 0n ? Number((part * 1_000_000n) / whole) / 10_000 : 0);

export function brc20Report(index: Brc20Index, limit: number) {
  const tickers = index.tickers().map((t) => {
    const holders = index.holders(t.tick);
    return {
      tick: t.tick,
      max: formatScaled(t.max), lim: formatScaled(t.lim), decimals: t.dec,
      minted: formatScaled(t.minted),
      mintProgressPct: pctOf(t.minted, t.max),
      fullyMinted: t.minted >= t.max,
      mints: t.mints, invalidMints: t.invalidMints,
      holders: holders.length,
      transferInscriptions: t.transferInscriptions, invalidTransfers: t.invalidTransfers, transfers: t.transfers,
      burned: formatScaled(t.burned),
      deploy: { inscriptionId: t.deployInscription, height: t.deployHeight, time: new Date(t.deployTime * 1000).toISOString() },
      lastMintHeight: t.lastMintHeight,
      topHolders: holders.slice(0, limit).map((h) => ({
        address: h.address, balance: formatScaled(h.balance), transferable: formatScaled(h.transferable), sharePct: pctOf(h.balance, t.minted - t.burned),
      })),
    };
  });
  tickers.sort((a, b) => b.holders - a.holders || b.mints - a.mints || a.tick.localeCompare(b.tick));
  const everyHolder = new Set(index.tickers().flatMap((t) => index.holders(t.tick).map((h) => h.address)));
  const transfers = index.recentTransfers();
  return {
    totals: {
      tickers: tickers.length,
      holders: everyHolder.size,
      mints: tickers.reduce((s, t) => s + t.mints, 0),
      transfers: tickers.reduce((s, t) => s + t.transfers, 0),
      pendingTransfers: index.pendingTransfers(),
    },
    tickers: tickers.slice(0, limit),
    recentTransfers: transfers.slice(0, limit).map((t) => ({ ...t, amount: formatScaled(t.amount), time: new Date(t.time * 1000).toISOString() })),
  };
}
