/**
 * The Bitcoin chain as Sibyl reads it (a chain-layer shape, so the simulator, the index and the
 * skills share it): the Esplora API (the only way to the chain), the BTC/USD price where this
 * deployment knows it, the published entities (exchange and custodian addresses, as
 * tag lists publish them) and the index that follows the chain through that API. The embedded
 * chain (world/bitcoin) and a real Esplora (BITCOIN_ESPLORA_URL) give the same shape.
 */
import type { Esplora, EsploraBlock, EsploraTx } from './esplora.js';

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

/** An unspent output as the index keeps it (amounts in satoshis). */
export interface IndexedUtxo {
  readonly txid: string;
  readonly vout: number;
  readonly value: number;
  readonly address: string | null;
  readonly height: number;
  /** Unix seconds of the block that created it. */
  readonly time: number;
  /** BTC/USD when it was created (null where the deployment has no price then). */
  readonly price: number | null;
  readonly coinbase: boolean;
}

/** One indexed block: its header figures and what the index measured in it. */
export interface IndexedBlock {
  readonly height: number;
  readonly hash: string;
  readonly time: number;
  readonly weight: number;
  readonly size: number;
  readonly txCount: number;
  /** Satoshis: fees paid by its transactions, and the coinbase's outputs (subsidy + fees). */
  readonly fees: number;
  readonly minerRevenue: number;
  /** Feerates (sat/vB) of its non-coinbase transactions: lowest, median, highest (null: coinbase only). */
  readonly feerate: { readonly min: number; readonly median: number; readonly max: number } | null;
}

/** Exchange flows of a period, satoshis, by entity name. */
export interface ExchangeFlows {
  readonly inflow: number;
  readonly outflow: number;
  readonly byExchange: Readonly<Record<string, { readonly inflow: number; readonly outflow: number }>>;
}

/** Spent outputs of a period: value at spend price and at creation price (USD), for SOPR. */
export interface SpentValue {
  /** Satoshis spent (priced or not). */
  readonly sats: number;
  readonly atSpend: number;
  readonly atCreation: number;
  /** Satoshis spent whose creation or spend price is unknown (left out of the two sums). */
  readonly unpriced: number;
}

/** One UTC day of the chain as the index read it (a day the index began or is still in may be partial). */
export interface BitcoinDay {
  /** YYYY-MM-DD (UTC) of the blocks' timestamps. */
  readonly day: string;
  readonly fromHeight: number;
  readonly toHeight: number;
  /** The last block's time and BTC/USD then (the day's close). */
  readonly closeTime: number;
  readonly priceUsd: number | null;
  readonly txCount: number;
  /** Satoshis moved to outputs other than change (an output to an address among the tx's inputs is change). */
  readonly txVolume: number;
  readonly fees: number;
  readonly minerRevenue: number;
  /** Distinct addresses that received or spent that day. */
  readonly activeAddresses: number;
  readonly exchange: ExchangeFlows;
  /** All spends, and split at 155 days of age (long-term holders at or above). */
  readonly spent: SpentValue;
  readonly spentShortTerm: SpentValue;
  readonly spentLongTerm: SpentValue;
  /** At the day's close: satoshis unspent, realised cap (USD; null if any output's price is unknown), supply unmoved for a year or more. */
  readonly supply: number;
  readonly realizedCap: number | null;
  readonly dormantSupply: number;
}

/**
 * The chain as the Bitcoin index has read it through Esplora: held in memory, rebuilt from the
 * API at start. From height 0 the UTXO set is whole; from a later height (a real Esplora, read
 * from tip - N) it is partial and metrics over the whole set must say so.
 */
export interface BitcoinIndex {
  /** The Esplora the index follows (provenance). */
  readonly esploraUrl: string;
  /** Where the index began reading. */
  readonly fromHeight: number;
  /** True when the index began at genesis, so the UTXO set is the chain's whole set. */
  readonly utxoSetComplete: boolean;
  /** Highest block read, or null before the first. */
  indexedHeight(): number | null;
  indexedTip(): IndexedBlock | null;
  /** Reads up to the chain's current tip (joins a read already running); Esplora failures reject. */
  sync(): Promise<void>;
  /** When (epoch ms) a read last reached the tip; null until the first did (answers wait for it: the index is still being built). */
  syncedAt(): number | null;
  /** A plug-in passed to the index, by name. */
  observer<T extends BitcoinTxObserver>(name: string): T | undefined;
  /** Blocks read, oldest first (the last `keepBlocks` of them). */
  blocks(): readonly IndexedBlock[];
  /** Days read, oldest first. */
  days(): readonly BitcoinDay[];
  /** The unspent outputs now. */
  utxos(): Iterable<IndexedUtxo>;
}

export interface BitcoinSource {
  /** `embedded` for the world's chain, `esplora` for BITCOIN_ESPLORA_URL. */
  readonly kind: 'embedded' | 'esplora';
  readonly esplora: Esplora;
  readonly prices: BtcPrices;
  readonly entities: readonly BitcoinEntity[];
  /** The index following the chain (indexer/bitcoin); absent where the service runs none. */
  readonly index?: BitcoinIndex;
}
