/** Runes analytics from the runes index: etchings, mints against their cap, supply, holders, top runes. */
import { unmintableReason, type RuneEntry, type RunesIndex } from './indexer.js';
import { supplyOf } from './runestone.js';

export const RUNES_METHODOLOGY = 'runes/v1: every confirmed block read through Esplora; runestones deciphered per ord\'s runes specification (cenotaphs burn their inputs\' runes), etchings valid only with a name commitment six confirmations old, mints within cap and height/offset terms, balances per output from edicts, pointer and default output, summed per address';

/** A rune amount in its own units (divisibility decimals), as a decimal string. */
export function runeAmount(n: bigint, divisibility: number): string {
  if (divisibility === 0) return n.toString();
  const s = n.toString().padStart(divisibility + 1, '0');
  const fraction = s.slice(-divisibility).replace(/0+$/, '');
  return `${s.slice(0, -divisibility)}${fraction ? `.${fraction}` : ''}`;
}

const pctOf = (part: bigint, whole: bigint) => (whole > 0n ? Number((part * 1_000_000n) / whole) / 10_000 : null);
const num = (n: bigint | null) => (n === null ? null : n.toString());

function termsOf(r: RuneEntry) {
  const t = r.terms;
  if (!t) return null;
  return {
    amount: t.amount === null ? null : runeAmount(t.amount, r.divisibility),
    cap: num(t.cap),
    heightStart: num(t.height[0]), heightEnd: num(t.height[1]), offsetStart: num(t.offset[0]), offsetEnd: num(t.offset[1]),
  };
}

export function runesReport(index: RunesIndex, height: number, limit: number) {
  const balances = index.balances();
  const rows = index.runes().map((r) => {
    const owners = [...(balances.get(r.id) ?? [])].filter(([, v]) => v > 0n).sort((a, b) => (b[1] > a[1] ? 1 : b[1] < a[1] ? -1 : a[0].localeCompare(b[0])));
    const minted = BigInt(r.mints) * (r.terms?.amount ?? 0n);
    const issued = (r.cenotaph ? 0n : r.premine) + minted;
    const circulating = owners.reduce((s, [, v]) => s + v, 0n);
    const cap = r.terms?.cap ?? null;
    return {
      id: r.id, name: r.spacedName, symbol: r.symbol, divisibility: r.divisibility,
      etching: { txid: r.etchingTxid, height: r.block, time: new Date(r.time * 1000).toISOString() },
      cenotaph: r.cenotaph, turbo: r.turbo,
      premine: runeAmount(r.premine, r.divisibility),
      terms: termsOf(r),
      mints: r.mints,
      mintProgressPct: cap !== null && cap > 0n ? pctOf(BigInt(r.mints), cap) : null,
      mintable: !r.cenotaph && unmintableReason(r, height + 1) === null,
      mintStatus: r.cenotaph ? ('cenotaph' as const) : (unmintableReason(r, height + 1) ?? ('open' as const)),
      lastMintHeight: r.lastMintHeight,
      maxSupply: r.cenotaph ? '0' : runeAmount(supplyOf(r) ?? 0n, r.divisibility),
      issued: runeAmount(issued, r.divisibility),
      burned: runeAmount(r.burned, r.divisibility),
      circulating: runeAmount(circulating, r.divisibility),
      holders: owners.length,
      transfers: r.transfers,
      topHolders: owners.slice(0, limit).map(([address, v]) => ({ address, balance: runeAmount(v, r.divisibility), sharePct: pctOf(v, circulating) ?? 0 })),
    };
  });
  const top = [...rows].sort((a, b) => b.holders - a.holders || b.mints - a.mints || a.id.localeCompare(b.id));
  const etchings = [...rows].sort((a, b) => b.etching.height - a.etching.height || b.id.localeCompare(a.id));
  const everyHolder = new Set([...balances.values()].flatMap((m) => [...m].filter(([, v]) => v > 0n).map(([a]) => a)));
  return {
    totals: {
      runes: rows.length,
      mints: rows.reduce((s, r) => s + r.mints, 0),
      mintableNow: rows.filter((r) => r.mintable).length,
      holders: everyHolder.size,
    },
    topRunes: top.slice(0, limit),
    recentEtchings: etchings.slice(0, limit).map((r) => ({ id: r.id, name: r.name, symbol: r.symbol, height: r.etching.height, time: r.etching.time, txid: r.etching.txid, premine: r.premine, cap: r.terms?.cap ?? null, mints: r.mints })),
  };
}
