/** Block records summed into UTC days (by the running maximum of block times, so days never go back). */
import type { BitcoinDay, ExchangeFlows, SpentValue } from '../../chain/bitcoin.js';
import { dayOf, type BlockRecord } from './ledger.js';

const addSpent = (a: SpentValue, b: SpentValue): SpentValue => ({ sats: a.sats + b.sats, atSpend: a.atSpend + b.atSpend, atCreation: a.atCreation + b.atCreation, unpriced: a.unpriced + b.unpriced });

function addFlows(a: ExchangeFlows, b: ExchangeFlows): ExchangeFlows {
  const byExchange: Record<string, { inflow: number; outflow: number }> = {};
  for (const src of [a.byExchange, b.byExchange])
    for (const [name, f] of Object.entries(src)) {
      const t = (byExchange[name] ??= { inflow: 0, outflow: 0 });
      t.inflow += f.inflow;
      t.outflow += f.outflow;
    }
  return { inflow: a.inflow + b.inflow, outflow: a.outflow + b.outflow, byExchange };
}

/**
 * Days of the records, oldest first. `openDayDormant` measures the dormant supply of the last
 * (still open) day on the current set; closed days carry theirs from the moment they closed.
 */
export function summariseDays(records: readonly BlockRecord[], openDayDormant: () => number): BitcoinDay[] {
  const days: BitcoinDay[] = [];
  let i = 0;
  while (i < records.length) {
    const day = dayOf(records[i]!.clockTime);
    let j = i;
    const addresses = new Set<string>();
    let d: BitcoinDay | undefined;
    for (; j < records.length && dayOf(records[j]!.clockTime) === day; j++) {
      const r = records[j]!;
      for (const a of r.activeAddresses) addresses.add(a);
      d = d
        ? {
            ...d,
            toHeight: r.block.height,
            closeTime: r.block.time,
            priceUsd: r.price,
            txCount: d.txCount + r.block.txCount,
            txVolume: d.txVolume + r.txVolume,
            fees: d.fees + r.block.fees,
            minerRevenue: d.minerRevenue + r.block.minerRevenue,
            exchange: addFlows(d.exchange, r.exchange),
            spent: addSpent(d.spent, r.spent),
            spentShortTerm: addSpent(d.spentShortTerm, r.spentShortTerm),
            spentLongTerm: addSpent(d.spentLongTerm, r.spentLongTerm),
            supply: r.supply,
            realizedCap: r.realizedCap,
          }
        : {
            day,
            fromHeight: r.block.height,
            toHeight: r.block.height,
            closeTime: r.block.time,
            priceUsd: r.price,
            txCount: r.block.txCount,
            txVolume: r.txVolume,
            fees: r.block.fees,
            minerRevenue: r.block.minerRevenue,
            activeAddresses: 0,
            exchange: r.exchange,
            spent: r.spent,
            spentShortTerm: r.spentShortTerm,
            spentLongTerm: r.spentLongTerm,
            supply: r.supply,
            realizedCap: r.realizedCap,
            dormantSupply: 0,
          };
    }
    const last = records[j - 1]!;
    days.push({ ...d!, activeAddresses: addresses.size, dormantSupply: j === records.length ? openDayDormant() : (last.dormantSupply ?? 0) });
    i = j;
  }
  return days;
}
