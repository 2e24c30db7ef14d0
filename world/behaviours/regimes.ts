/**
 * Genesis tokens live the regimes (bull, bear, range) of their reference asset: a token's
 * regime tilts its retail flow. Once the history is written, each asset's regimes over it are
 * labelled.
 */
import type { RegimeLabel } from '../reference.js';
import type { MarketBehaviour, MarketHost } from './behaviour.js';

export interface RegimeLabels {
  /** Each reference asset's regimes over the history (what its price did, labelled). */
  regimes: { asset: string; label: RegimeLabel; from: number; until: number }[];
}

export function emptyRegimeLabels(): RegimeLabels {
  return { regimes: [] };
}

export class Regimes implements MarketBehaviour {
  readonly name = 'regimes';

  step(host: MarketHost, t: number): void {
    for (const token of host.tokens()) {
      if (token.kind !== 'genesis' || !token.asset || t < token.regimeUntil) continue;
      const r = host.reference.regimeAt(token.asset, t);
      token.regime = r.label === 'bull' ? 1 : r.label === 'bear' ? -1 : 0;
      token.regimeFrom = r.from;
      token.regimeUntil = r.until;
    }
  }

  finishBackfill(host: MarketHost): void {
    const assets = new Set(host.tokens().flatMap((t) => (t.asset ? [t.asset] : [])));
    host.labels.regimes = [...assets].flatMap((asset) => host.reference.regimes(asset, host.startTimestamp, host.lastBlockTime()).map((r) => ({ asset, ...r })));
  }
}
