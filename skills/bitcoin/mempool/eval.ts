/**
 * Were the fee recommendations right? At past heights the chain is served as it stood then (the
 * mempool of that moment), the recommendation for N blocks is computed from that API alone, and
 * a transaction paying it counts as confirmed within N blocks when one of the next N blocks
 * included a feerate at or below it, or was not full (it took every transaction it could). The
 * same is measured for the server's own /fee-estimates and for the 1 sat/vB floor (the base rate:
 * how often paying nothing extra would have done), with how much each overpaid. The engine reads
 * as in the service: through the API, with an index that follows it (forward, height by height).
 */
import { EsploraClient, type Esplora } from '../../../chain/esplora.js';
import { BitcoinIndexer } from '../../../indexer/bitcoin/indexer.js';
import type { BitcoinSource } from '../../../chain/bitcoin.js';
import { FEE_TARGETS, MIN_RELAY_FEERATE, mempoolIntelligence } from './engine.js';

/** What cleared in a block (from the world's labels, or any record of the chain's blocks). */
export interface ClearedBlock {
  readonly height: number;
  readonly minFeerate: number | null;
  readonly full: boolean;
}

export interface FeeEvalOptions {
  /** Serves the chain as it stood at a height; the eval closes it after use. */
  readonly serveAt: (height: number) => Promise<{ url: string; close(): Promise<void> }>;
  readonly blocks: readonly ClearedBlock[];
  readonly heights: readonly number[];
  readonly targets?: readonly number[];
}

export interface TargetScore {
  readonly target: number;
  readonly samples: number;
  readonly hitRate: { readonly sibyl: number; readonly server: number | null; readonly floor: number };
  /** Median of recommended / the lowest feerate that would have cleared within the target. */
  readonly medianOverpay: { readonly sibyl: number; readonly server: number | null };
}

/** The lowest feerate that confirmed within `target` blocks after `height` (the floor when a block had room), or null past the chain's end. */
export function clearingFeerate(byHeight: ReadonlyMap<number, ClearedBlock>, height: number, target: number): number | null {
  let lowest = Infinity;
  for (let k = 1; k <= target; k++) {
    const b = byHeight.get(height + k);
    if (!b) return null;
    if (!b.full || b.minFeerate === null) return MIN_RELAY_FEERATE;
    lowest = Math.min(lowest, b.minFeerate);
  }
  return lowest;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1]! : NaN;
};
const share = (hits: number, n: number) => (n ? Math.round((1000 * hits) / n) / 1000 : NaN);

/** An Esplora that forwards to whichever server stands at the height being evaluated. */
class MovingEsplora implements Esplora {
  readonly baseUrl = 'the chain as of each evaluated height';
  target!: Esplora;
  tipHeight = () => this.target.tipHeight();
  tipHash = () => this.target.tipHash();
  blockHashAt = (h: number) => this.target.blockHashAt(h);
  block = (hash: string) => this.target.block(hash);
  blockTxs = (hash: string, start?: number) => this.target.blockTxs(hash, start);
  blockTxids = (hash: string) => this.target.blockTxids(hash);
  tx = (txid: string) => this.target.tx(txid);
  outspends = (txid: string) => this.target.outspends(txid);
  address = (a: string) => this.target.address(a);
  addressUtxo = (a: string) => this.target.addressUtxo(a);
  addressTxs = (a: string, after?: string) => this.target.addressTxs(a, after);
  mempool = () => this.target.mempool();
  mempoolRecent = () => this.target.mempoolRecent();
  mempoolTxids = () => this.target.mempoolTxids();
  feeEstimates = () => this.target.feeEstimates();
}

export async function evaluateFees(o: FeeEvalOptions): Promise<TargetScore[]> {
  const targets = o.targets ?? FEE_TARGETS;
  const esplora = new MovingEsplora();
  const prices = { source: 'none', at: () => null };
  const index = new BitcoinIndexer({ esplora, prices, entities: [] });
  const byHeight = new Map(o.blocks.map((b) => [b.height, b]));
  const acc = new Map(targets.map((t) => [t, { n: 0, sibyl: 0, server: 0, serverN: 0, floor: 0, overS: [] as number[], overE: [] as number[] }]));
  for (const h of [...o.heights].sort((a, b) => a - b)) {
    const served = await o.serveAt(h);
    try {
      esplora.target = new EsploraClient(served.url);
      await index.sync();
      const bitcoin: BitcoinSource = { kind: 'embedded', esplora, prices, entities: [], index };
      const answer = await mempoolIntelligence(bitcoin, 1);
      for (const r of answer.recommendations) {
        const a = acc.get(r.targetBlocks);
        const cleared = clearingFeerate(byHeight, h, r.targetBlocks);
        if (!a || cleared === null) continue;
        a.n++;
        if (r.feerate >= cleared) a.sibyl++;
        if (MIN_RELAY_FEERATE >= cleared) a.floor++;
        a.overS.push(r.feerate / cleared);
        if (r.serverEstimate !== null) {
          a.serverN++;
          if (r.serverEstimate >= cleared) a.server++;
          a.overE.push(r.serverEstimate / cleared);
        }
      }
    } finally {
      await served.close();
    }
  }
  return targets.map((target) => {
    const a = acc.get(target)!;
    return {
      target,
      samples: a.n,
      hitRate: { sibyl: share(a.sibyl, a.n), server: a.serverN ? share(a.server, a.serverN) : null, floor: share(a.floor, a.n) },
      medianOverpay: { sibyl: Math.round(median(a.overS) * 100) / 100, server: a.overE.length ? Math.round(median(a.overE) * 100) / 100 : null },
    };
  });
}

/** `count` heights spread over [from, to]. */
export function spreadHeights(from: number, to: number, count: number): number[] {
  if (to <= from) return [from];
  return Array.from({ length: count }, (_, i) => Math.round(from + ((to - from) * i) / Math.max(1, count - 1)));
}
