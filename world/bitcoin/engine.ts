/**
 * The machinery every actor of the Bitcoin world goes through: building and signing a
 * payment from a wallet's coins, sending it to the mempool (or straight into a pre-history
 * block), mining blocks by the fee market, crediting confirmed outputs to their owners, and a
 * clock of scheduled events. What the actors do lives in economy.ts and protocols.ts.
 */
import { Rng } from '../../lib/random.js';
import { BitcoinChain, feerateOf, type ChainTx } from './chain.js';
import { coinbaseTx, medianTime, merkleRoot, mine, BLOCK_VERSION, REGTEST_BITS } from './block.js';
import { BLOCK_WEIGHT_LIMIT, COINBASE_RESERVE_WEIGHT, feeEstimates, MIN_RELAY_FEERATE, selectBlockTxs } from './fees.js';
import { estimateWeight, hasWitness, RBF_SEQUENCE, signTx, vsizeOf, type InputSigner, type Tx, type TxOutput } from './tx.js';
import type { Coin, CoinTag, OwnedScript, Registry, Wallet } from './wallets.js';
import type { BitcoinLabels } from './labels.js';

export const DUST = 546;
/** The heaviest transaction the dense era's (scaled) blocks can take. */
export const MAX_TX_WEIGHT = BLOCK_WEIGHT_LIMIT - COINBASE_RESERVE_WEIGHT;
export const COIN = 100_000_000;

/** Halvings by date (the world's heights are not mainnet's, so its subsidy follows the calendar). */
const HALVINGS = ['2012-11-28', '2016-07-09', '2020-05-11', '2024-04-20', '2028-04-10', '2032-04-01'].map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
export function subsidyAt(time: number): number {
  let s = 50 * COIN;
  for (const h of HALVINGS) if (time >= h) s = Math.floor(s / 2);
  return s;
}

export interface SpendInput {
  readonly coin: Coin;
  /** How to unlock it; default: the owner key's signer. */
  readonly signer?: InputSigner;
  readonly sequence?: number;
}

export interface BlockStat {
  readonly height: number;
  readonly minFeerate: number | null;
  readonly maxFeerate: number | null;
  readonly txCount: number;
  readonly full: boolean;
}

export class Engine {
  readonly chain = new BitcoinChain();
  /** Coins spent by transactions not yet confirmed (their owners no longer hold them). */
  private readonly pendingTags = new Map<string, CoinTag>();
  private readonly confirmHooks = new Map<string, (t: ChainTx) => void>();
  private scheduled: { at: number; seq: number; run: () => void }[] = [];
  private seq = 0;
  private estimateCache: { at: number; time: number; est: Record<string, number> } | null = null;
  readonly blockStats: BlockStat[] = [];
  /** Sim clock (unix seconds). */
  time = 0;

  constructor(readonly rng: Rng, readonly reg: Registry, readonly labels: BitcoinLabels) {}

  get height(): number {
    return this.chain.blocks.length;
  }

  // ---- transactions ----

  /**
   * Feerate a sender aiming at `target` blocks picks: the estimate its wallet shows, with its own
   * margin (the hurried pay more over it, a few overpay a lot).
   */
  feerateFor(target: number): number {
    const est = this.estimates()[String(target)] ?? MIN_RELAY_FEERATE;
    const hurry = target <= 1 ? 1.4 : target <= 3 ? 1.15 : 1;
    const overpay = this.rng.chance(0.04) ? 2 + 3 * this.rng.next() : 1;
    const rate = est * hurry * overpay * Math.exp(0.1 + 0.3 * this.rng.normal());
    return Math.max(MIN_RELAY_FEERATE, Math.round(rate * 10) / 10);
  }

  /** The wallets' fee estimates: refreshed at each block and at most a minute old (as wallets poll them). */
  estimates(): Record<string, number> {
    const c = this.estimateCache;
    if (c && c.at === this.height && this.time - c.time < 60) return c.est;
    const recent = this.blockStats.slice(-6).map((b) => b.minFeerate ?? MIN_RELAY_FEERATE);
    const est = feeEstimates([...this.chain.mempool.values()], recent);
    this.estimateCache = { at: this.height, time: this.time, est };
    return est;
  }

  /**
   * Pays `outputs` from `from`'s spendable coins (oldest first, or the given `coins` first),
   * change to `change`, at a feerate for `target` blocks. Returns null when the wallet cannot
   * afford it.
   */
  pay(from: Wallet, outputs: TxOutput[], o: { target?: number; feerate?: number; change?: OwnedScript; coins?: Coin[]; maxInputs?: number; prefer?: 'oldest' | 'largest'; seenAt?: number; direct?: boolean } = {}): ChainTx | null {
    const feerate = o.feerate ?? this.feerateFor(o.target ?? 3);
    const need = outputs.reduce((a, x) => a + x.value, 0);
    const pool = o.coins ? [...o.coins] : this.pickOrder(from.spendable(this.height), o.prefer ?? 'oldest');
    const chosen: Coin[] = [];
    let sum = 0;
    const max = o.maxInputs ?? 4;
    const change = o.change ?? from.keys[0]!;
    for (const c of pool) {
      if (chosen.length >= max) break;
      if (!o.direct && !this.fits([...chosen, c].map((coin) => ({ coin })), [...outputs, { script: change.script, value: 1 }])) break;
      chosen.push(c);
      sum += c.value;
      const fee = this.feeFor(chosen.map((coin) => ({ coin })), [...outputs, { script: change.script, value: 1 }], feerate);
      if (sum >= need + fee) break;
    }
    const withChange = [...outputs, { script: change.script, value: 0 }];
    const fee = this.feeFor(chosen.map((coin) => ({ coin })), withChange, feerate);
    if (sum < need + fee) return null;
    const rest = sum - need - fee;
    const outs = rest >= DUST ? [...outputs, { script: change.script, value: rest }] : outputs;
    return this.spend(chosen.map((coin) => ({ coin })), outs, o.seenAt, o.direct);
  }

  private pickOrder(coins: Coin[], prefer: 'oldest' | 'largest'): Coin[] {
    return prefer === 'largest' ? coins.sort((a, b) => b.value - a.value) : coins.sort((a, b) => a.height - b.height || b.value - a.value);
  }

  /** Whether a transaction of these inputs and outputs fits the world's blocks. */
  fits(inputs: readonly SpendInput[], outputs: readonly TxOutput[]): boolean {
    return estimateWeight(this.unsigned(inputs, outputs), inputs.map((i) => i.signer ?? i.coin.owner.signer)) <= MAX_TX_WEIGHT;
  }

  /** The longest prefix of `coins` that, spent to `outputs`, fits the world's blocks. */
  fitting<T extends Coin>(coins: readonly T[], outputs: readonly TxOutput[]): T[] {
    const out = [...coins];
    while (out.length && !this.fits(out.map((coin) => ({ coin })), outputs)) out.pop();
    return out;
  }

  feeFor(inputs: readonly SpendInput[], outputs: readonly TxOutput[], feerate: number): number {
    const tx = this.unsigned(inputs, outputs);
    return Math.ceil(feerate * vsizeOf(estimateWeight(tx, inputs.map((i) => i.signer ?? i.coin.owner.signer))));
  }

  private unsigned(inputs: readonly SpendInput[], outputs: readonly TxOutput[]): Tx {
    return {
      version: 2,
      locktime: 0,
      inputs: inputs.map((i) => ({ prevTxid: i.coin.txid, vout: i.coin.vout, sequence: i.sequence ?? RBF_SEQUENCE, scriptSig: new Uint8Array(0), witness: [] })),
      outputs: [...outputs],
    };
  }

  /**
   * Signs and sends a transaction spending exactly `inputs` to `outputs` (the caller has sized
   * the fee): into the mempool, or with `direct` into the next block (the pre-history).
   */
  spend(inputs: readonly SpendInput[], outputs: readonly TxOutput[], seenAt = this.time, direct = false): ChainTx {
    const tx = this.unsigned(inputs, outputs);
    if (!direct && !this.fits(inputs, outputs)) throw new Error(`a transaction of ${inputs.length} inputs and ${outputs.length} outputs is heavier than the world's blocks allow`);
    signTx(tx, inputs.map((i) => ({ script: i.coin.owner.script, value: i.coin.value })), inputs.map((i) => i.signer ?? i.coin.owner.signer));
    const t = this.chain.record(tx, seenAt);
    for (const i of inputs) this.walletOf(i.coin)?.take([i.coin]);
    if (direct) this.directTxs.push(t);
    else {
      this.chain.addToMempool(t);
    }
    return t;
  }

  private walletOf(coin: Coin): Wallet | undefined {
    return this.reg.ownerOf(coin.owner.script)?.wallet;
  }

  /** Marks an output of a just-sent transaction as special (an inscription, runes, a stake...). */
  tag(txid: string, vout: number, tag: CoinTag): void {
    this.pendingTags.set(`${txid}:${vout}`, tag);
  }

  /** Runs `hook` when `txid` confirms. */
  whenConfirmed(txid: string, hook: (t: ChainTx) => void): void {
    this.confirmHooks.set(txid, hook);
  }

  private heightHooks: { height: number; seq: number; run: () => void }[] = [];
  /** Runs `run` once the chain has `height` blocks (right after the block that makes it so). */
  atHeight(height: number, run: () => void): void {
    this.heightHooks.push({ height, seq: this.seq++, run });
  }

  schedule(at: number, run: () => void): void {
    this.scheduled.push({ at, seq: this.seq++, run });
    this.scheduled.sort((a, b) => a.at - b.at || a.seq - b.seq);
  }

  nextScheduled(): number {
    return this.scheduled[0]?.at ?? Infinity;
  }

  runScheduled(): void {
    const e = this.scheduled.shift();
    if (!e) return;
    this.time = Math.max(this.time, e.at);
    e.run();
  }

  // ---- blocks ----

  /** Transactions that go straight into the next block (pre-history). */
  private directTxs: ChainTx[] = [];

  /**
   * Mines a block at `time`: the mempool's best transactions by feerate (the pre-history's
   * direct ones, all of them), the coinbase paying `payouts` plus the fees, real proof of work.
   */
  mineBlock(time: number, tag: string, payouts: (fees: number) => TxOutput[]): void {
    this.time = time;
    let txs: ChainTx[];
    let full = false;
    if (this.directTxs.length) {
      txs = this.directTxs;
      this.directTxs = [];
    } else {
      // Arrivals of the block's own second come after it (the loop mines first on a tie).
      const picked = selectBlockTxs([...this.chain.mempool.values()].filter((t) => t.seenAt < time));
      txs = picked.txs;
      full = picked.full;
    }
    const fees = txs.reduce((a, t) => a + t.fee, 0);
    const witness = txs.some((t) => hasWitness(t.tx));
    const cb = coinbaseTx(this.height, tag, payouts(fees), witness ? txs.map((t) => t.wtxid) : null);
    const cbt = this.chain.record(cb, time, true);
    const all = [cbt, ...txs];
    const prev = this.chain.blocks.at(-1);
    const { header, hash } = mine({
      version: BLOCK_VERSION,
      prevHash: prev?.hash ?? '0'.repeat(64),
      merkleRoot: merkleOf(all),
      time,
      bits: REGTEST_BITS,
    });
    const mtp = medianTime([...this.chain.blocks.slice(-10).map((b) => b.header.time), time]);
    const block = this.chain.addBlock(header, hash, all, mtp);
    const rates = txs.map(feerateOf);
    this.blockStats.push({ height: block.height, minFeerate: rates.length ? Math.min(...rates) : null, maxFeerate: rates.length ? Math.max(...rates) : null, txCount: all.length, full });
    this.estimateCache = null;
    for (const t of all) this.credit(t);
    const due = this.heightHooks.filter((h) => h.height <= this.height);
    if (due.length) {
      this.heightHooks = this.heightHooks.filter((h) => h.height > this.height);
      for (const h of due) h.run();
    }
  }

  private credit(t: ChainTx): void {
    t.tx.outputs.forEach((o, vout) => {
      const owner = this.reg.ownerOf(o.script);
      const key = `${t.txid}:${vout}`;
      const tag = this.pendingTags.get(key) ?? { kind: 'plain' as const };
      this.pendingTags.delete(key);
      if (owner) owner.wallet.add({ txid: t.txid, vout, value: o.value, owner: owner.owned, height: t.height!, coinbase: t.coinbase, tag });
    });
    const hook = this.confirmHooks.get(t.txid);
    if (hook) {
      this.confirmHooks.delete(t.txid);
      hook(t);
    }
  }
}

function merkleOf(txs: readonly ChainTx[]): string {
  return merkleRoot(txs.map((t) => t.txid));
}
