/**
 * Tokens and staking on the Bitcoin world, written the way their wallets write them:
 * - BRC-20: deploy, mint and transfer inscriptions (commit, then a reveal spending it through
 *   the envelope's leaf); a transfer inscription is then sent to its receiver.
 * - Runes: an etching reveals its name's commitment (committed six blocks earlier) and carries
 *   the runestone; mints name the rune by block:tx; transfers move balances with edicts.
 * - Babylon-style staking: stakes with timelocks, early unbonding (staker + covenant), and
 *   withdrawals once a timelock has passed.
 * Every operation is valid under its protocol's rules unless the labels say otherwise.
 */
import type { Rng } from '../../lib/random.js';
import { toHex } from './bytes.js';
import type { ChainTx } from './chain.js';
import { COIN, type Engine } from './engine.js';
import type { Economy, User } from './economy.js';
import { deriveKey, schnorrKey, taprootTweak, type KeyPair, type SchnorrKey } from './keys.js';
import type { BitcoinLabels } from './labels.js';
import { BRC20_CONTENT_TYPE, brc20Body, envelopeLeaf, INSCRIPTION_POSTAGE, type Brc20Op } from './ordinals.js';
import { RUNE_COMMIT_CONFIRMATIONS, runeCommitment, runestoneScript, type Etching } from './runes.js';
import { OP, outputScript, push, script, scriptAddress } from './script.js';
import { stakingOpReturn, stakingOutput, unbondedOutput, UNBONDING_TIME } from './staking.js';
import { controlBlock, estimateWeight, RBF_SEQUENCE, tapLeafHash, vsizeOf, type InputSigner, type TxOutput } from './tx.js';
import type { Coin, OwnedScript } from './wallets.js';

const TICKERS: readonly { tick: string; max: bigint; lim: bigint }[] = [
  { tick: 'ordi', max: 21_000n, lim: 1_000n },
  { tick: 'sats', max: 2_100_000n, lim: 50_000n },
  { tick: 'pepe', max: 42_000n, lim: 2_000n },
  { tick: 'mxrc', max: 1_000_000n, lim: 1_000n },
];

const RUNES: readonly Etching[] = [
  { name: 'DOG•GO•TO•THE•MOON', divisibility: 5, symbol: '🐕', premine: 10_000_000_000n, terms: { amount: 100_000_000n, cap: 40n } },
  { name: 'SIBYL•SIGNAL', divisibility: 0, symbol: 'ⓢ', premine: 0n, terms: { amount: 5_000n, cap: 25n } },
  { name: 'QUANTUM•PROOF•COIN', divisibility: 2, symbol: 'Q', premine: 100_000_000n, terms: { amount: 10_000n, cap: 1_000n } },
];

/** Staking timelocks (blocks) stakers choose from: some expire within a month of history, most do not. */
const STAKING_TIMES = [150, 300, 1_000, 64_000, 64_000];
const RUNE_POSTAGE = 10_000;

interface TickerState { readonly tick: string; readonly max: bigint; readonly lim: bigint; deployed: 'no' | 'pending' | 'yes'; minted: bigint }
interface InscriptionRecord {
  inscriptionId: string; txid: string; commitTxid: string; ticker: string; op: 'deploy' | 'mint' | 'transfer'; amount: string; lim?: string;
  owner: string; sentTo: string | null; sentTxid: string | null; valid: boolean;
}
interface RuneState {
  readonly etching: Etching; etcher: User | null; commitTxid: string | null; etchingTxid: string | null; id: { block: number; tx: number } | null;
  mintsStarted: bigint; mints: { txid: string; to: string }[]; transfers: { txid: string; from: string; to: string; amount: string }[];
}
interface StakeRecord {
  txid: string; staker: User; key: OwnedScript; fp: Uint8Array; sats: number; timelock: number;
  unbondingTxid: string | null; withdrawTxid: string | null; ending: boolean;
}

export class Protocols {
  private readonly tickers: TickerState[] = TICKERS.map((t) => ({ ...t, deployed: 'no', minted: 0n }));
  /** Per address and ticker: confirmed available BRC-20 balance (what a transfer may inscribe). */
  private readonly brcBalances = new Map<string, Map<string, bigint>>();
  private readonly inscriptions: InscriptionRecord[] = [];
  private readonly runeStates: RuneState[] = [];
  private readonly stakes: StakeRecord[] = [];
  private readonly finalityProviders: Uint8Array[];
  private readonly covenant: SchnorrKey;
  private readonly covenantKey: KeyPair;

  constructor(readonly engine: Engine, readonly economy: Economy, readonly rng: Rng, readonly seed: string) {
    this.finalityProviders = [0, 1, 2, 3].map((i) => deriveKey(seed, `babylon:fp:${i}`).xonly);
    this.covenantKey = deriveKey(seed, 'babylon:covenant');
    this.covenant = schnorrKey(this.covenantKey);
  }

  /** Ordinals and runes users hold taproot keys. */
  private taprootUsers(): User[] {
    return this.economy.traders.filter((u) => u.kind === 'p2tr');
  }

  prepare(): void {
    RUNES.forEach((etching) => this.runeStates.push({ etching, etcher: null, commitTxid: null, etchingTxid: null, id: null, mintsStarted: 0n, mints: [], transfers: [] }));
  }

  // ---- BRC-20 ----

  brc20(_t: number): void {
    const r = this.rng;
    const users = this.taprootUsers().filter((u) => u.wallet.spendable(this.engine.height).length);
    if (!users.length) return;
    const undeployed = this.tickers.find((t) => t.deployed === 'no');
    if (undeployed) {
      this.inscribe(r.pick(users), { op: 'deploy', tick: undeployed.tick, max: undeployed.max.toString(), lim: undeployed.lim.toString() }, true);
      undeployed.deployed = 'pending';
      return;
    }
    const transferable = [...this.brcBalances].flatMap(([addr, m]) => [...m].filter(([, v]) => v > 0n).map(([tick, v]) => ({ addr, tick, v })));
    if (transferable.length && r.chance(0.35)) {
      const pick = r.pick(transferable);
      const owner = users.find((u) => u.wallet.keys.some((k) => k.address === pick.addr));
      if (owner) {
        const amt = pick.v <= 1n ? pick.v : BigInt(Math.max(1, Math.floor(Number(pick.v) * (0.1 + 0.8 * r.next()))));
        this.brcBalances.get(pick.addr)!.set(pick.tick, pick.v - amt);
        this.inscribe(owner, { op: 'transfer', tick: pick.tick, amt: amt.toString() }, true, pick.addr);
        return;
      }
    }
    const open = this.tickers.filter((t) => t.deployed === 'yes' && t.max - t.minted >= t.lim);
    if (!open.length) return;
    const t = r.pick(open);
    // Now and then someone mints over the limit: an invalid mint the indexers must ignore.
    const over = r.chance(0.05);
    const amt = over ? t.lim * 2n : t.lim;
    if (!over) t.minted += amt;
    this.inscribe(r.pick(users), { op: 'mint', tick: t.tick, amt: amt.toString() }, !over);
  }

  /** Commit then reveal an inscription to the user's own taproot address. */
  private inscribe(user: User, op: Brc20Op, valid: boolean, ownerAddress?: string): void {
    const e = this.engine;
    const owner = ownerAddress ? user.wallet.keys.find((k) => k.address === ownerAddress)! : user.wallet.keys.find((k) => k.kind === 'p2tr')!;
    const leaf = envelopeLeaf(owner.key.xonly, BRC20_CONTENT_TYPE, brc20Body(op));
    const reveal = this.scriptSpend(owner.key, leaf);
    const revealOut: TxOutput = { script: owner.script, value: INSCRIPTION_POSTAGE };
    const revealFee = this.revealFee(reveal, [revealOut], 2);
    const commit = e.pay(user.wallet, [{ script: reveal.script, value: INSCRIPTION_POSTAGE + revealFee }], { target: this.rng.pick([1, 2, 3]), change: owner });
    if (!commit) {
      if (op.op === 'mint' && valid) this.tickers.find((x) => x.tick === op.tick)!.minted -= BigInt(op.amt);
      if (op.op === 'deploy') this.tickers.find((x) => x.tick === op.tick)!.deployed = 'no';
      if (op.op === 'transfer') this.credit(owner.address!, op.tick, BigInt(op.amt));
      return;
    }
    e.whenConfirmed(commit.txid, () => {
      e.schedule(e.time + 1 + Math.floor(this.rng.next() * 60), () => {
        const tx = e.spend([{ coin: reveal.coin(commit, 0), signer: reveal.signer }], [revealOut]);
        const inscriptionId = `${tx.txid}i0`;
        e.tag(tx.txid, 0, { kind: 'inscription', inscriptionId });
        const rec: InscriptionRecord = {
          inscriptionId, txid: tx.txid, commitTxid: commit.txid, ticker: op.tick, op: op.op, amount: op.op === 'deploy' ? op.max : op.amt,
          ...(op.op === 'deploy' ? { lim: op.lim } : {}), owner: owner.address!, sentTo: null, sentTxid: null, valid,
        };
        this.inscriptions.push(rec);
        e.whenConfirmed(tx.txid, () => {
          if (op.op === 'deploy') this.tickers.find((x) => x.tick === op.tick)!.deployed = 'yes';
          if (op.op === 'mint' && valid) this.credit(owner.address!, op.tick, BigInt(op.amt));
          if (op.op === 'transfer') e.schedule(e.time + 60 + Math.floor(this.rng.next() * 3600), () => this.sendInscription(user, rec));
        });
      });
    });
  }

  private credit(address: string, tick: string, amt: bigint): void {
    let m = this.brcBalances.get(address);
    if (!m) this.brcBalances.set(address, (m = new Map()));
    m.set(tick, (m.get(tick) ?? 0n) + amt);
  }

  /** Sends a transfer inscription to another user: the inscribed sat is the first of input 0, so it lands in output 0. */
  private sendInscription(from: User, rec: InscriptionRecord): void {
    const e = this.engine;
    const coin = from.wallet.coins.find((c) => c.tag.kind === 'inscription' && c.tag.inscriptionId === rec.inscriptionId);
    const feeCoin = from.wallet.spendable(e.height).sort((a, b) => b.value - a.value)[0];
    const to = this.rng.pick(this.taprootUsers().filter((u) => u !== from));
    if (!coin || !feeCoin || !to) return;
    const toKey = to.wallet.keys.find((k) => k.kind === 'p2tr')!;
    const outs: TxOutput[] = [{ script: toKey.script, value: coin.value }];
    const fee = e.feeFor([{ coin }, { coin: feeCoin }], [...outs, { script: feeCoin.owner.script, value: 0 }], e.feerateFor(3));
    if (feeCoin.value - fee < 546) return;
    const tx = e.spend([{ coin }, { coin: feeCoin }], [...outs, { script: feeCoin.owner.script, value: feeCoin.value - fee }]);
    e.tag(tx.txid, 0, { kind: 'inscription', inscriptionId: rec.inscriptionId });
    e.whenConfirmed(tx.txid, () => {
      rec.sentTo = toKey.address!;
      rec.sentTxid = tx.txid;
      // The receiver may transfer what it received (BRC-20 credits the receiver when the transfer inscription moves).
      this.credit(toKey.address!, rec.ticker, BigInt(rec.amount));
    });
  }

  // ---- runes ----

  runes(_t: number): void {
    const e = this.engine;
    const r = this.rng;
    const pendingEtch = this.runeStates.find((x) => x.commitTxid === null);
    if (pendingEtch) return this.commitRune(pendingEtch);
    const mintable = this.runeStates.filter((x) => x.id && x.mintsStarted < x.etching.terms!.cap);
    const holders = this.taprootUsers().filter((u) => u.wallet.coins.some((c) => c.tag.kind === 'runes') && u.wallet.spendable(e.height).length);
    if (holders.length && (r.chance(0.3) || !mintable.length)) return this.transferRunes(r.pick(holders));
    if (!mintable.length) return;
    const rune = r.pick(mintable);
    const users = this.taprootUsers().filter((u) => u.wallet.spendable(e.height).length);
    if (!users.length) return;
    const u = r.pick(users);
    const key = u.wallet.keys.find((k) => k.kind === 'p2tr')!;
    const stone: TxOutput = { script: runestoneScript({ mint: rune.id! }), value: 0 };
    const tx = e.pay(u.wallet, [stone, { script: key.script, value: RUNE_POSTAGE }], { target: r.pick([1, 2, 3]), change: key });
    if (!tx) return;
    rune.mintsStarted++;
    e.tag(tx.txid, 1, { kind: 'runes', balances: new Map([[this.runeKey(rune), rune.etching.terms!.amount]]) });
    e.whenConfirmed(tx.txid, () => rune.mints.push({ txid: tx.txid, to: key.address! }));
  }

  private runeKey(r: RuneState): string {
    return `${r.id!.block}:${r.id!.tx}`;
  }

  /** The etcher commits to the name in a tapscript; six confirmations later the etching reveals it. */
  private commitRune(rune: RuneState): void {
    const e = this.engine;
    const funded = this.taprootUsers().filter((x) => x.wallet.spendable(e.height).length);
    if (!funded.length) return;
    const u = this.rng.pick(funded);
    const key = u.wallet.keys.find((k) => k.kind === 'p2tr')!;
    const leaf = script(push(key.key.xonly), OP.OP_CHECKSIG, OP.OP_0, OP.OP_IF, push(runeCommitment(rune.etching.name)), OP.OP_ENDIF);
    const reveal = this.scriptSpend(key.key, leaf);
    const stone: TxOutput = { script: runestoneScript({ etching: rune.etching }), value: 0 };
    const outs = [stone, { script: key.script, value: RUNE_POSTAGE }];
    const fee = this.revealFee(reveal, outs, 6);
    const commit = e.pay(u.wallet, [{ script: reveal.script, value: RUNE_POSTAGE + fee }], { target: 3, change: key });
    if (!commit) return;
    rune.commitTxid = commit.txid;
    rune.etcher = u;
    e.whenConfirmed(commit.txid, (c) => {
      e.atHeight(c.height! + RUNE_COMMIT_CONFIRMATIONS, () => {
        const tx = e.spend([{ coin: reveal.coin(commit, 0), signer: reveal.signer }], outs);
        rune.etchingTxid = tx.txid;
        e.whenConfirmed(tx.txid, (t) => {
          rune.id = { block: t.height!, tx: t.position! };
          // The premine went to the first non-OP_RETURN output, the etcher's, now credited: tag it with the rune's id.
          const coin = u.wallet.coins.find((c) => c.txid === tx.txid && c.vout === 1);
          if (coin) u.wallet.replace({ ...coin, tag: rune.etching.premine > 0n ? { kind: 'runes', balances: new Map([[this.runeKey(rune), rune.etching.premine]]) } : { kind: 'plain' } });
        });
        // Until then the postage output is kept out of ordinary payments.
        e.tag(tx.txid, 1, { kind: 'commit', purpose: 'etching' });
      });
    });
  }

  /** Sends part of a rune balance to another user with an edict; the rest returns to the sender through the pointer. */
  private transferRunes(from: User): void {
    const e = this.engine;
    const r = this.rng;
    const coin = r.pick(from.wallet.coins.filter((c) => c.tag.kind === 'runes'));
    if (coin.tag.kind !== 'runes') return;
    const [rawId, balance] = [...coin.tag.balances][0]!;
    const rune = this.runeStates.find((x) => x.id && this.runeKey(x) === rawId);
    if (!rune || balance <= 0n) return;
    const id = this.runeKey(rune);
    const feeCoin = from.wallet.spendable(e.height).sort((a, b) => b.value - a.value)[0];
    const to = r.pick(this.taprootUsers().filter((u) => u !== from));
    if (!feeCoin || !to) return;
    const amount = balance <= 1n ? balance : BigInt(Math.max(1, Math.floor(Number(balance) * (0.1 + 0.8 * r.next()))));
    const toKey = to.wallet.keys.find((k) => k.kind === 'p2tr')!;
    const back = from.wallet.keys.find((k) => k.kind === 'p2tr')!;
    const stone: TxOutput = { script: runestoneScript({ edicts: [{ id: rune.id!, amount, output: 1 }], pointer: 2 }), value: 0 };
    const outs: TxOutput[] = [stone, { script: toKey.script, value: RUNE_POSTAGE }];
    const inputs = [{ coin }, { coin: feeCoin }];
    const fee = e.feeFor(inputs, [...outs, { script: back.script, value: 0 }], e.feerateFor(r.pick([2, 3, 6])));
    const rest = coin.value + feeCoin.value - RUNE_POSTAGE - fee;
    if (rest < RUNE_POSTAGE) return;
    const tx = e.spend(inputs, [...outs, { script: back.script, value: rest }]);
    e.tag(tx.txid, 1, { kind: 'runes', balances: new Map([[id, amount]]) });
    e.tag(tx.txid, 2, balance - amount > 0n ? { kind: 'runes', balances: new Map([[id, balance - amount]]) } : { kind: 'plain' });
    e.whenConfirmed(tx.txid, () => rune.transfers.push({ txid: tx.txid, from: back.address!, to: toKey.address!, amount: amount.toString() }));
  }

  // ---- staking ----

  staking(_t: number): void {
    const e = this.engine;
    const r = this.rng;
    const active = this.stakes.filter((s) => !s.ending && e.chain.txs.get(s.txid)?.height !== undefined);
    if (active.length && r.chance(0.2)) return this.unbond(r.pick(active));
    const users = [...this.economy.traders, ...this.economy.holders.slice(0, 30)].filter((u) => u.wallet.spendable(e.height).some((c) => c.value > 0.05 * COIN));
    if (!users.length) return;
    const u = r.pick(users);
    const key = u.wallet.keys[0]!;
    const biggest = u.wallet.spendable(e.height).sort((a, b) => b.value - a.value)[0]!;
    const sats = Math.round(Math.min(biggest.value * 0.6, r.logUniform(0.01, 2) * COIN));
    const timelock = r.pick(STAKING_TIMES);
    const fp = r.pick(this.finalityProviders);
    const out = stakingOutput(key.key.xonly, this.covenantKey.xonly, timelock);
    const tx = e.pay(u.wallet, [{ script: out.script, value: sats }, { script: stakingOpReturn(key.key.xonly, fp, timelock), value: 0 }], { target: r.pick([2, 3, 6]), coins: [biggest], change: key });
    if (!tx) return;
    const rec: StakeRecord = { txid: tx.txid, staker: u, key, fp, sats, timelock, unbondingTxid: null, withdrawTxid: null, ending: false };
    this.stakes.push(rec);
    e.whenConfirmed(tx.txid, (t) => {
      // Most stakers withdraw soon after their timelock passes (if it passes within the world's time).
      if (timelock < 5_000 && r.chance(0.8)) e.atHeight(t.height! + timelock, () => e.schedule(e.time + 60 + Math.floor(r.next() * 7_200), () => this.withdraw(rec, out)));
    });
  }

  private stakeCoin(rec: StakeRecord, script: Uint8Array, txid: string, value: number): Coin {
    return { txid, vout: 0, value, owner: { kind: 'p2tr', key: rec.key.key, script, address: scriptAddress(script), signer: rec.key.signer }, height: 0, coinbase: false, tag: { kind: 'stake', stakeTxid: rec.txid } };
  }

  /** The timelock has passed: the staker spends the staking output through the timelock leaf. */
  private withdraw(rec: StakeRecord, out: ReturnType<typeof stakingOutput>): void {
    if (rec.ending) return;
    const e = this.engine;
    const signer: InputSigner = { kind: 'p2tr-script', signers: [schnorrKey(rec.key.key)], leafScript: out.timelockLeaf, controlBlock: out.timelockControl };
    const coin = this.stakeCoin(rec, out.script, rec.txid, rec.sats);
    const dest = rec.key;
    const fee = e.feeFor([{ coin, signer, sequence: rec.timelock }], [{ script: dest.script, value: 0 }], e.feerateFor(6));
    rec.ending = true;
    const tx = e.spend([{ coin, signer, sequence: rec.timelock }], [{ script: dest.script, value: rec.sats - fee }]);
    rec.withdrawTxid = tx.txid;
  }

  /** Early unbonding: staker and covenant sign the unbonding leaf into an output locked for UNBONDING_TIME, then the staker withdraws. */
  private unbond(rec: StakeRecord): void {
    const e = this.engine;
    const out = stakingOutput(rec.key.key.xonly, this.covenantKey.xonly, rec.timelock);
    const signer: InputSigner = { kind: 'p2tr-script', signers: [schnorrKey(rec.key.key), this.covenant], leafScript: out.unbondingLeaf, controlBlock: out.unbondingControl };
    const coin = this.stakeCoin(rec, out.script, rec.txid, rec.sats);
    const unbonded = unbondedOutput(rec.key.key.xonly);
    const fee = e.feeFor([{ coin, signer }], [{ script: unbonded.script, value: 0 }], e.feerateFor(3));
    rec.ending = true;
    const tx = e.spend([{ coin, signer }], [{ script: unbonded.script, value: rec.sats - fee }]);
    rec.unbondingTxid = tx.txid;
    e.whenConfirmed(tx.txid, (t) => {
      e.atHeight(t.height! + UNBONDING_TIME, () => e.schedule(e.time + 30 + Math.floor(this.rng.next() * 3_600), () => {
        const leafSigner: InputSigner = { kind: 'p2tr-script', signers: [schnorrKey(rec.key.key)], leafScript: unbonded.leaf, controlBlock: unbonded.control };
        const c = this.stakeCoin(rec, unbonded.script, tx.txid, rec.sats - fee);
        const fee2 = e.feeFor([{ coin: c, signer: leafSigner, sequence: UNBONDING_TIME }], [{ script: rec.key.script, value: 0 }], e.feerateFor(6));
        rec.withdrawTxid = e.spend([{ coin: c, signer: leafSigner, sequence: UNBONDING_TIME }], [{ script: rec.key.script, value: c.value - fee2 }]).txid;
      }));
    });
  }

  // ---- shared ----

  /** A taproot output with one leaf under `key`, and how to spend it through that leaf. */
  private scriptSpend(key: KeyPair, leaf: Uint8Array) {
    const tweak = taprootTweak(key, tapLeafHash(leaf));
    const outScript = outputScript.p2tr(tweak.output);
    const signer: InputSigner = { kind: 'p2tr-script', signers: [schnorrKey(key)], leafScript: leaf, controlBlock: controlBlock(tweak.parity, key.xonly) };
    return {
      script: outScript,
      signer,
      coin: (commit: ChainTx, vout: number): Coin => ({
        txid: commit.txid, vout, value: commit.tx.outputs[vout]!.value,
        owner: { kind: 'p2tr', key, script: outScript, address: scriptAddress(outScript), signer }, height: commit.height ?? 0, coinbase: false, tag: { kind: 'commit', purpose: 'reveal' },
      }),
    };
  }

  /** The fee a reveal spending the commit through its leaf will pay at a feerate for `target`. */
  private revealFee(reveal: { signer: InputSigner }, outputs: readonly TxOutput[], target: number): number {
    const tx = { version: 2, locktime: 0, inputs: [{ prevTxid: '00'.repeat(32), vout: 0, sequence: RBF_SEQUENCE, scriptSig: new Uint8Array(0), witness: [] }], outputs: [...outputs] };
    return Math.ceil(this.engine.feerateFor(target) * vsizeOf(estimateWeight(tx, [reveal.signer])));
  }

  stakerAddresses(): string[] {
    return [...new Set(this.stakes.map((s) => s.key.address!))];
  }

  fillLabels(l: BitcoinLabels): void {
    const chain = this.engine.chain;
    const heightOf = (txid: string | null) => (txid ? chain.txs.get(txid)?.height ?? null : null);
    l.inscriptions = this.inscriptions.filter((i) => heightOf(i.txid) !== null).map((i) => ({
      inscriptionId: i.inscriptionId, txid: i.txid, height: heightOf(i.txid)!, ticker: i.ticker, op: i.op, amount: i.amount,
      ...(i.lim ? { lim: i.lim } : {}), owner: i.owner,
      sentTo: heightOf(i.sentTxid) !== null ? i.sentTo : null, sentTxid: heightOf(i.sentTxid) !== null ? i.sentTxid : null, valid: i.valid,
    }));
    l.runes = this.runeStates.filter((r) => r.id).map((r) => ({
      name: r.etching.name.replace(/•/g, ''), spacedName: r.etching.name, id: `${r.id!.block}:${r.id!.tx}`, etchingTxid: r.etchingTxid!, commitTxid: r.commitTxid!,
      divisibility: r.etching.divisibility, symbol: r.etching.symbol, premine: r.etching.premine.toString(),
      amount: r.etching.terms?.amount.toString() ?? null, cap: r.etching.terms?.cap.toString() ?? null,
      mints: r.mints.map((m) => ({ ...m, height: heightOf(m.txid)! })),
      transfers: r.transfers.map((t) => ({ ...t, height: heightOf(t.txid)! })),
    }));
    l.staking = this.stakes.filter((s) => heightOf(s.txid) !== null).map((s) => {
      const unbondedAt = heightOf(s.unbondingTxid);
      const withdrawnAt = heightOf(s.withdrawTxid);
      return {
        txid: s.txid, staker: s.key.address!, stakerPk: toHex(s.key.key.xonly), finalityProviderPk: toHex(s.fp), sats: s.sats, timelock: s.timelock,
        height: heightOf(s.txid)!, unbondedAt, unbondingTxid: unbondedAt !== null ? s.unbondingTxid : null,
        withdrawnAt, withdrawTxid: withdrawnAt !== null ? s.withdrawTxid : null,
      };
    });
  }
}
