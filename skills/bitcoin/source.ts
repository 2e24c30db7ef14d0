/**
 * What a Bitcoin engine is given: the Esplora API (the only way to the chain), the BTC/USD price
 * where this deployment knows it, the published entities (exchange and custodian addresses, as
 * tag lists publish them) and the index that follows the chain through that API. The embedded
 * chain (world/bitcoin) and a real Esplora (BITCOIN_ESPLORA_URL) give the same shape.
 */
import type { Esplora, EsploraBlock, EsploraTx } from '../../chain/esplora.js';

/** Addresses the world (or a tag list, for a real chain) attributes to a known entity. */
export interface BitcoinEntity {
  readonly name: string;
  readonly kind: 'exchange' | 'miner' | 'custodian';
  readonly addresses: readonly string[];
  /** For a custodian: the wrapped token it backs (its EVM symbol, e.g. WBTC). */
  readonly backs?: string;
}

export interface BtcPrices {
  /** Where the prices come from (provenance). */
  readonly source: string;
  /** BTC/USD at a unix time, or null where this deployment has no price. */
  at(time: number): number | null;
}

/** A plug-in of the Bitcoin index: sees every confirmed transaction once, in chain order. */
export interface BitcoinTxObserver {
  readonly name: string;
  onBlock(block: EsploraBlock, txs: readonly EsploraTx[]): void;
  /** Forget everything from this height on (a reorg); the index replays from there. */
  rewind?(height: number): void;
}

export interface BitcoinSource {
  /** `embedded` for the world's chain, `esplora` for BITCOIN_ESPLORA_URL. */
  readonly kind: 'embedded' | 'esplora';
  readonly esplora: Esplora;
  readonly prices: BtcPrices;
  readonly entities: readonly BitcoinEntity[];
}
