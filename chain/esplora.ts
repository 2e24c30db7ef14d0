/**
 * A client of the Esplora HTTP API (Blockstream's; mempool.space serves the same plus extras):
 * the only way Sibyl reads Bitcoin. The embedded Bitcoin chain (world/bitcoin) serves this API
 * on a local port, and BITCOIN_ESPLORA_URL may point at a real instance instead: engines never
 * know which. Only the subset below is used; amounts are satoshis.
 *
 * Every call has its own deadline; a transport failure, a timeout or a 5xx is an
 * `EsploraUnavailableError` (answered 503 upstream_unavailable, nothing charged); a 404 is
 * `null` where the API uses it for "no such thing".
 */

export interface EsploraStatus {
  readonly confirmed: boolean;
  readonly block_height?: number;
  readonly block_hash?: string;
  readonly block_time?: number;
}

export interface EsploraVin {
  readonly txid: string;
  readonly vout: number;
  /** The output this input spends (absent for a coinbase). */
  readonly prevout: EsploraVout | null;
  readonly scriptsig: string;
  readonly scriptsig_asm: string;
  /** Hex items of the witness stack (absent when empty). */
  readonly witness?: readonly string[];
  readonly is_coinbase: boolean;
  readonly sequence: number;
  /** P2SH/P2WSH redeem scripts as asm, when the input reveals one. */
  readonly inner_redeemscript_asm?: string;
  readonly inner_witnessscript_asm?: string;
}

export interface EsploraVout {
  readonly scriptpubkey: string;
  readonly scriptpubkey_asm: string;
  /** p2pk, p2pkh, p2sh, v0_p2wpkh, v0_p2wsh, v1_p2tr, op_return, multisig, unknown. */
  readonly scriptpubkey_type: string;
  readonly scriptpubkey_address?: string;
  readonly value: number;
}

export interface EsploraTx {
  readonly txid: string;
  readonly version: number;
  readonly locktime: number;
  readonly vin: readonly EsploraVin[];
  readonly vout: readonly EsploraVout[];
  readonly size: number;
  readonly weight: number;
  readonly fee: number;
  readonly status: EsploraStatus;
}

export interface EsploraBlock {
  readonly id: string;
  readonly height: number;
  readonly version: number;
  readonly timestamp: number;
  readonly mediantime?: number;
  readonly tx_count: number;
  readonly size: number;
  readonly weight: number;
  readonly merkle_root: string;
  readonly previousblockhash: string | null;
  readonly nonce: number;
  readonly bits: number;
  readonly difficulty?: number;
}

export interface EsploraUtxo {
  readonly txid: string;
  readonly vout: number;
  readonly value: number;
  readonly status: EsploraStatus;
}

export interface EsploraAddressStats {
  readonly funded_txo_count: number;
  readonly funded_txo_sum: number;
  readonly spent_txo_count: number;
  readonly spent_txo_sum: number;
  readonly tx_count: number;
}

export interface EsploraAddress {
  readonly address: string;
  readonly chain_stats: EsploraAddressStats;
  readonly mempool_stats: EsploraAddressStats;
}

export interface EsploraMempool {
  readonly count: number;
  readonly vsize: number;
  readonly total_fee: number;
  /** [feerate sat/vB, vsize] pairs, highest feerate first (Esplora's histogram). */
  readonly fee_histogram: readonly (readonly [number, number])[];
}

export interface EsploraRecentTx {
  readonly txid: string;
  readonly fee: number;
  readonly vsize: number;
  readonly value: number;
}

export interface EsploraOutspend {
  readonly spent: boolean;
  readonly txid?: string;
  readonly vin?: number;
  readonly status?: EsploraStatus;
}

export class EsploraUnavailableError extends Error {
  constructor(
    readonly url: string,
    message: string,
  ) {
    super(`Esplora ${url}: ${message}`);
    this.name = 'EsploraUnavailableError';
  }
}

/** The API a Bitcoin engine may use: nothing else reaches the chain. */
export interface Esplora {
  /** Where the answers come from (an engine's provenance names it). */
  readonly baseUrl: string;
  tipHeight(): Promise<number>;
  tipHash(): Promise<string>;
  blockHashAt(height: number): Promise<string | null>;
  block(hash: string): Promise<EsploraBlock | null>;
  /** Up to ten blocks' headers, from `startHeight` down (`GET /blocks/:start_height`); optional: the index reads one block at a time without it. */
  blocks?(startHeight: number): Promise<EsploraBlock[]>;
  /** Up to 25 transactions of a block from `start` (a multiple of 25). */
  blockTxs(hash: string, start?: number): Promise<EsploraTx[]>;
  /** The txids of a block, in order. */
  blockTxids(hash: string): Promise<string[]>;
  tx(txid: string): Promise<EsploraTx | null>;
  outspends(txid: string): Promise<EsploraOutspend[]>;
  address(address: string): Promise<EsploraAddress>;
  addressUtxo(address: string): Promise<EsploraUtxo[]>;
  /** Newest first: up to 50 mempool transactions then 25 confirmed; `afterTxid` pages the confirmed ones. */
  addressTxs(address: string, afterTxid?: string): Promise<EsploraTx[]>;
  mempool(): Promise<EsploraMempool>;
  mempoolRecent(): Promise<EsploraRecentTx[]>;
  mempoolTxids(): Promise<string[]>;
  /** Confirmation target (blocks) → feerate (sat/vB), as the server estimates it. */
  feeEstimates(): Promise<Record<string, number>>;
}

export interface EsploraClientOptions {
  /** Per-call deadline. */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}

/** An Esplora over HTTP (`baseUrl` without a trailing slash, e.g. https://blockstream.info/api). */
export class EsploraClient implements Esplora {
  readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(baseUrl: string, options: EsploraClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.fetchImpl = options.fetch ?? fetch;
  }

  tipHeight = async () => Number(await this.text('/blocks/tip/height'));
  tipHash = () => this.text('/blocks/tip/hash');
  blockHashAt = (height: number) => this.text(`/block-height/${height}`, true);
  block = (hash: string) => this.json<EsploraBlock>(`/block/${hash}`, true);
  blocks = async (startHeight: number) => (await this.json<EsploraBlock[]>(`/blocks/${startHeight}`))!;
  blockTxs = async (hash: string, start = 0) => (await this.json<EsploraTx[]>(`/block/${hash}/txs/${start}`, true)) ?? [];
  blockTxids = async (hash: string) => (await this.json<string[]>(`/block/${hash}/txids`, true)) ?? [];
  tx = (txid: string) => this.json<EsploraTx>(`/tx/${txid}`, true);
  outspends = async (txid: string) => (await this.json<EsploraOutspend[]>(`/tx/${txid}/outspends`, true)) ?? [];
  address = async (address: string) => (await this.json<EsploraAddress>(`/address/${address}`))!;
  addressUtxo = async (address: string) => (await this.json<EsploraUtxo[]>(`/address/${address}/utxo`))!;
  addressTxs = async (address: string, afterTxid?: string) =>
    (await this.json<EsploraTx[]>(afterTxid ? `/address/${address}/txs/chain/${afterTxid}` : `/address/${address}/txs`))!;
  mempool = async () => (await this.json<EsploraMempool>('/mempool'))!;
  mempoolRecent = async () => (await this.json<EsploraRecentTx[]>('/mempool/recent'))!;
  mempoolTxids = async () => (await this.json<string[]>('/mempool/txids'))!;
  feeEstimates = async () => (await this.json<Record<string, number>>('/fee-estimates'))!;

  private async text(path: string, nullOn404: true): Promise<string | null>;
  private async text(path: string): Promise<string>;
  private async text(path: string, nullOn404 = false): Promise<string | null> {
    const res = await this.get(path);
    if (res.status === 404 && nullOn404) return null;
    await this.check(res, path);
    return (await res.text()).trim();
  }

  private async json<T>(path: string, nullOn404 = false): Promise<T | null> {
    const res = await this.get(path);
    if (res.status === 404 && nullOn404) return null;
    await this.check(res, path);
    try {
      return (await res.json()) as T;
    } catch (err) {
      throw new EsploraUnavailableError(this.baseUrl, `${path} answered malformed JSON (${(err as Error).message})`);
    }
  }

  private async get(path: string): Promise<Response> {
    try {
      return await this.fetchImpl(`${this.baseUrl}${path}`, { signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      throw new EsploraUnavailableError(this.baseUrl, `${path}: ${(err as Error).name === 'TimeoutError' ? `no answer in ${this.timeoutMs} ms` : (err as Error).message}`);
    }
  }

  private async check(res: Response, path: string): Promise<void> {
    if (res.ok) return;
    const body = (await res.text().catch(() => '')).slice(0, 200);
    throw new EsploraUnavailableError(this.baseUrl, `${path} answered ${res.status}${body ? `: ${body}` : ''}`);
  }
}
