/**
 * Who lives on the Bitcoin chain and what they do. Pools mine; exchanges keep cold and hot
 * wallets and one deposit address per customer, sweep deposits and pay withdrawals; holders
 * bought at historical prices and now and then sell old coins; traders move coins between
 * exchanges and each other; custodians of wrapped BTC hold the wrapped supply.
 *
 * Two eras. The pre-history is sparse: a few early 50-BTC coinbases to P2PK keys (never moved),
 * then one block every couple of weeks up to the origin, each standing for the mainnet blocks
 * of its interval, so its coinbase carries their summed subsidy (paid out to the era's pool,
 * an exchange and buyers) — that is how the world's supply and its coins' ages and creation
 * prices come out realistic in a few hundred blocks. The dense era from the origin has blocks
 * every ~10 minutes (Poisson) and a mempool fed by a daily cycle of activity.
 */
import { GENESIS } from '../../chain/genesis.js';
import { Rng } from '../../lib/random.js';
import { sha256 } from './bytes.js';
import { deriveKey } from './keys.js';
import { OP, outputScript, push, script, scriptAddress } from './script.js';
import { COIN, DUST, Engine, subsidyAt } from './engine.js';
import type { BitcoinLabels } from './labels.js';
import type { BtcPricePath } from './prices.js';
import type { TxOutput } from './tx.js';
import type { AddressKind, Coin, OwnedScript, Registry, Wallet } from './wallets.js';
import type { BitcoinEntity } from '../../chain/bitcoin.js';

export const GENESIS_TIME = 1231006505;
/** Early 50-BTC coinbases to P2PK keys (2009 to mid-2010). */
const EARLY_BLOCKS = 24;
const EARLY_UNTIL = Date.parse('2010-06-30T00:00:00Z') / 1000;
/** Sparse pre-history blocks from mid-2010 up to the origin. */
export const PREHISTORY_BLOCKS = 420;
/** Mean seconds between blocks of the dense era. */
export const BLOCK_SECONDS = 600;
/**
 * Mean ordinary transactions arriving per block interval (before the daily cycle). With the
 * world's block size (fees.ts) this fills blocks at the daily peak and leaves room at night;
 * it is kept modest because every input is really signed (~0.3 ms each).
 */
export const TX_PER_BLOCK = 2.3;
/** Daily activity cycle: amplitude around the mean, peaking at PEAK_HOUR_UTC. */
const CYCLE_AMPLITUDE = 0.6;
const PEAK_HOUR_UTC = 15;

const POOLS: readonly { name: string; share: number; kind: AddressKind }[] = [
  { name: 'Foundry USA', share: 0.3, kind: 'p2wpkh' },
  { name: 'AntPool', share: 0.2, kind: 'p2pkh' },
  { name: 'MARA Pool', share: 0.18, kind: 'p2wpkh' },
  { name: 'F2Pool', share: 0.17, kind: 'p2pkh' },
  { name: 'ViaBTC', share: 0.15, kind: 'p2wpkh' },
];

const EXCHANGES: readonly { name: string; cold: AddressKind }[] = [
  { name: 'Binance', cold: 'p2wpkh' },
  { name: 'Coinbase', cold: 'p2wpkh' },
  { name: 'Kraken', cold: 'p2pkh' },
  { name: 'OKX', cold: 'p2tr' },
];

/** Wrapped BTC custodians: their launch dates and how their custody is held. */
const CUSTODIANS: readonly { token: string; name: string; from: string; multisig: boolean; addresses: number }[] = [
  { token: 'WBTC', name: 'BitGo (WBTC custody)', from: '2019-01-31', multisig: true, addresses: 3 },
  { token: 'BTCB', name: 'Binance (BTCB custody)', from: '2019-06-18', multisig: false, addresses: 2 },
];

/** Wrapped supply backed by a token's custody: the token's genesis supply summed over every chain that has it. */
export function wrappedSupply(token: string): number {
  let sum = 0;
  for (const market of Object.values(GENESIS)) for (const t of market?.tokens ?? []) if (t.symbol === token) sum += t.supply;
  return sum;
}

export interface Pool { readonly name: string; readonly share: number; readonly wallet: Wallet; readonly payout: OwnedScript }
export interface Exchange {
  readonly name: string;
  readonly cold: Wallet; readonly coldKey: OwnedScript;
  readonly hot: Wallet; readonly hotKey: OwnedScript;
  readonly deposits: Wallet;
}
export interface User {
  readonly wallet: Wallet;
  readonly kind: AddressKind;
  /** Sends change back to the address it spent from (address reuse). */
  readonly reuses: boolean;
  readonly home: Exchange;
  readonly depositKey: OwnedScript;
}
export interface Custodian { readonly token: string; readonly name: string; readonly scripts: Uint8Array[]; readonly addresses: string[]; readonly target: number; funded: number; readonly from: number }

/** Address kinds in use at a time: legacy before segwit, segwit after, some taproot after its activation. */
function kindAt(rng: Rng, time: number): AddressKind {
  if (time < Date.parse('2017-08-24') / 1000) return 'p2pkh';
  if (time < Date.parse('2021-11-14') / 1000) return rng.chance(0.2) ? 'p2pkh' : 'p2wpkh';
  return rng.chance(0.35) ? 'p2tr' : 'p2wpkh';
}

export class Economy {
  readonly pools: Pool[];
  readonly exchanges: Exchange[];
  readonly custodians: Custodian[];
  readonly holders: User[] = [];
  readonly traders: User[] = [];
  readonly earlyMiners: Wallet;
  private readonly rng: Rng;
  private nextArrival = 0;
  private nextBlock = 0;

  constructor(readonly engine: Engine, readonly reg: Registry, readonly seed: string, readonly prices: BtcPricePath, readonly origin: number) {
    this.rng = engine.rng.fork('economy');
    this.earlyMiners = reg.wallet('early-miners', 'early-miner', 'Early miners');
    this.pools = POOLS.map((p) => {
      const wallet = reg.wallet(`pool:${p.name}`, 'pool', p.name);
      return { name: p.name, share: p.share, wallet, payout: reg.addKey(wallet, p.kind, 'payout') };
    });
    this.exchanges = EXCHANGES.map((e) => {
      const cold = reg.wallet(`exchange:${e.name}:cold`, 'exchange-cold', e.name);
      const hot = reg.wallet(`exchange:${e.name}:hot`, 'exchange-hot', e.name);
      const deposits = reg.wallet(`exchange:${e.name}:deposits`, 'exchange-deposits', e.name);
      return { name: e.name, cold, coldKey: reg.addKey(cold, e.cold, 'cold'), hot, hotKey: reg.addKey(hot, 'p2wpkh', 'hot'), deposits };
    });
    this.custodians = CUSTODIANS.map((c) => {
      const scripts = Array.from({ length: c.addresses }, (_, i) => {
        if (!c.multisig) return outputScript.p2wpkh(deriveKey(seed, `custody:${c.token}:${i}`).pkh);
        // 2-of-3 multisig behind P2WSH, as BitGo holds WBTC's reserves.
        const keys = [0, 1, 2].map((k) => deriveKey(seed, `custody:${c.token}:${i}:${k}`).pub);
        const witnessScript = script(OP.OP_1 + 1, ...keys.map(push), OP.OP_1 + 2, OP.OP_CHECKMULTISIG);
        return outputScript.p2wsh(sha256(witnessScript));
      });
      return { token: c.token, name: c.name, scripts, addresses: scripts.map((s) => scriptAddress(s)!), target: wrappedSupply(c.token) * COIN, funded: 0, from: Date.parse(`${c.from}T00:00:00Z`) / 1000 };
    });
  }

  private newUser(list: User[], role: 'holder' | 'trader', time: number): User {
    const id = `${role}:${list.length}`;
    const wallet = this.reg.wallet(id, role, id);
    const kind = role === 'trader' ? (this.rng.chance(0.45) ? 'p2tr' : 'p2wpkh') : kindAt(this.rng, time);
    this.reg.addKey(wallet, kind, 'k0');
    const home = this.rng.pick(this.exchanges);
    const depositKey = this.reg.addKey(home.deposits, 'p2wpkh', `deposit:${id}`);
    const user: User = { wallet, kind, reuses: this.rng.chance(role === 'trader' ? 0.35 : 0.25), home, depositKey };
    list.push(user);
    return user;
  }

  /**
   * Where a user receives: its first address if it reuses, else a new one (a holder keeps up to
   * three, a trader six, then receives on them again: key derivation costs a curve multiplication).
   */
  receiveKey(u: User): OwnedScript {
    if (u.reuses) return u.wallet.keys[0]!;
    if (u.wallet.keys.length < (u.wallet.role === 'trader' ? 6 : 3)) return this.reg.addKey(u.wallet, u.kind, `k${u.wallet.keys.length}`);
    return this.rng.pick(u.wallet.keys);
  }

  private poolAt(): Pool {
    let x = this.rng.next();
    for (const p of this.pools) if ((x -= p.share) < 0) return p;
    return this.pools[0]!;
  }

  // ---- pre-history ----

  async prehistory(yieldNow: () => Promise<void>): Promise<void> {
    const e = this.engine;
    // Genesis and the early years: 50 BTC to a fresh uncompressed P2PK key per block, never moved.
    for (let i = 0; i <= EARLY_BLOCKS; i++) {
      const t = i === 0 ? GENESIS_TIME : GENESIS_TIME + 518_400 + Math.round(((EARLY_UNTIL - GENESIS_TIME - 518_400) * (i - 1)) / (EARLY_BLOCKS - 1));
      const miner = this.reg.addKey(this.earlyMiners, 'p2pk', `early:${i}`, true);
      e.mineBlock(t, '', () => [{ script: miner.script, value: 50 * COIN }]);
    }
    const start = EARLY_UNTIL + 10 * 86_400;
    const end = this.origin - 2 * 3600;
    let prevTime = e.chain.tip.header.time;
    for (let i = 0; i < PREHISTORY_BLOCKS; i++) {
      const t = Math.round(start + ((end - start) * i) / (PREHISTORY_BLOCKS - 1));
      e.time = t;
      this.prehistoryTxs(t, i);
      const mined = Math.round(subsidyAt((t + prevTime) / 2) * ((t - prevTime) / BLOCK_SECONDS));
      const pool = this.poolAt();
      const ex = this.exchanges[i % this.exchanges.length]!;
      const buyers = this.buyers(t, this.rng.int(1, 3));
      e.mineBlock(t, `/${pool.name}/`, (fees) => {
        const toPool = Math.round(mined * 0.08) + fees;
        const toExchange = Math.round(mined * 0.32);
        const each = Math.floor((mined - Math.round(mined * 0.08) - toExchange) / buyers.length);
        return [
          { script: pool.payout.script, value: toPool },
          { script: ex.coldKey.script, value: toExchange },
          ...buyers.map((b) => ({ script: this.receiveKey(b).script, value: each })),
        ];
      });
      prevTime = t;
      if (i % 20 === 0) await yieldNow();
    }
  }

  /** Who buys at a pre-history time: new holders while the world grows, traders in the last year. */
  private buyers(t: number, n: number): User[] {
    const lastYear = t > this.origin - 365 * 86_400;
    return Array.from({ length: n }, () => {
      if (lastYear && (this.traders.length < 70 && this.rng.chance(0.7))) return this.newUser(this.traders, 'trader', t);
      if (this.holders.length < 12 || (this.holders.length < 120 && this.rng.chance(0.3))) return this.newUser(this.holders, 'holder', t);
      return lastYear && this.traders.length > 0 && this.rng.chance(0.5) ? this.rng.pick(this.traders) : this.rng.pick(this.holders);
    });
  }

  /** The transactions of a pre-history block: an exchange pays its customers out, a holder sells, custodians take reserves. */
  private prehistoryTxs(t: number, i: number): void {
    const e = this.engine;
    const direct = { direct: true, feerate: 2, seenAt: t };
    const ex = this.exchanges[(i + 1) % this.exchanges.length]!;
    // Disbursement: the exchange spends its oldest coin, pays a few buyers a share of it, keeps the change (revalued today).
    const coin = ex.cold.spendable(e.height).sort((a, b) => a.height - b.height)[0];
    if (coin) {
      const buyers = this.buyers(t, this.rng.int(2, 4));
      const share = coin.value * (0.2 + 0.4 * this.rng.next());
      const outs = buyers.map((b) => ({ script: this.receiveKey(b).script, value: Math.floor(share / buyers.length) }));
      e.pay(ex.cold, outs, { ...direct, coins: [coin], change: ex.coldKey });
    }
    // A holder sells some old coins to an exchange.
    if (i % 2 === 0 && this.holders.length > 3) {
      const h = this.rng.pick(this.holders);
      const c = h.wallet.spendable(e.height)[0];
      if (c) e.pay(h.wallet, [{ script: h.home.coldKey.script, value: Math.floor(c.value * (0.2 + 0.8 * this.rng.next())) }], { ...direct, coins: [c], change: this.changeKey(h, c.owner) });
    }
    // Custodians take their reserves in installments from the launch to the origin.
    for (const c of this.custodians) {
      if (t < c.from || c.funded >= c.target || i % 9 !== 4) continue;
      const left = c.target - c.funded;
      const amount = Math.min(left, Math.round(c.target / 8));
      const from = this.exchanges.find((x) => x.cold.spendable(e.height).some((k) => k.value > amount + COIN));
      if (!from) continue;
      const big = from.cold.spendable(e.height).find((k) => k.value > amount + COIN)!;
      const outs = splitAcross(c.scripts, amount, (c.funded / Math.round(c.target / 8)) | 0);
      if (e.pay(from.cold, outs, { ...direct, coins: [big], change: from.coldKey })) c.funded += amount;
    }
    // Just before the origin, the exchanges' hot wallets are stocked.
    if (i === PREHISTORY_BLOCKS - 3) {
      for (const x of this.exchanges) {
        const big = x.cold.spendable(e.height).sort((a, b) => b.value - a.value)[0];
        if (big) e.pay(x.cold, [{ script: x.hotKey.script, value: 400 * COIN }], { ...direct, coins: [big], change: x.coldKey });
      }
    }
  }

  private changeKey(u: User, spentFrom: OwnedScript): OwnedScript {
    return u.reuses ? spentFrom : this.receiveKey(u);
  }

  // ---- the dense era ----

  /** Intensity of activity at a time: the daily cycle, weekends quieter, and each day its own mood. */
  private intensity(t: number): number {
    const hour = (t % 86_400) / 3600;
    const cycle = 1 + CYCLE_AMPLITUDE * Math.cos(((hour - PEAK_HOUR_UTC) / 24) * 2 * Math.PI);
    const dayIndex = Math.floor(t / 86_400);
    const weekday = (dayIndex + 4) % 7; // 1970-01-01 was a Thursday
    const mood = Math.exp(0.25 * new Rng(`btc-day:${this.seed}:${dayIndex}`).normal());
    return cycle * (weekday === 0 || weekday === 6 ? 0.8 : 1) * mood;
  }

  startDense(t: number): void {
    this.nextBlock = t + this.exp(BLOCK_SECONDS);
    this.nextArrival = t + this.exp(BLOCK_SECONDS / TX_PER_BLOCK / this.intensity(t));
  }

  private exp(mean: number): number {
    return Math.max(1, Math.round(-mean * Math.log(1 - this.rng.next())));
  }

  /** Runs the world up to `until`: arrivals, scheduled follow-ups and blocks in time order. */
  async advance(until: number, act: (t: number) => void, onBlock: () => void, yieldNow: () => Promise<void>): Promise<void> {
    const e = this.engine;
    let n = 0;
    for (;;) {
      const next = Math.min(this.nextBlock, this.nextArrival, e.nextScheduled());
      if (next > until) break;
      if (next === this.nextBlock) {
        const pool = this.poolAt();
        e.mineBlock(next, `/${pool.name}/`, (fees) => [{ script: pool.payout.script, value: subsidyAt(next) + fees }]);
        this.nextBlock = next + this.exp(BLOCK_SECONDS);
        this.rebalance();
        onBlock();
      } else if (next === e.nextScheduled()) {
        e.runScheduled();
      } else {
        e.time = next;
        act(next);
        this.nextArrival = next + this.exp(BLOCK_SECONDS / TX_PER_BLOCK / this.intensity(next));
      }
      if (++n % 64 === 0) await yieldNow();
    }
    e.time = Math.max(e.time, until);
  }

  /** One ordinary arrival: withdrawals, deposits, payments, old coins moving, miners selling, sweeps. */
  ordinary(kind: 'withdraw' | 'deposit' | 'p2p' | 'lth' | 'miner' | 'sweep'): boolean {
    const e = this.engine;
    const r = this.rng;
    switch (kind) {
      case 'withdraw': {
        const ex = r.pick(this.exchanges);
        const user = r.chance(0.75) && this.traders.length ? r.pick(this.traders) : r.pick(this.holders);
        const amount = Math.min(Math.round(r.logUniform(0.002, 1.5) * COIN), Math.floor(ex.hot.balance() * 0.2));
        if (amount < 10 * DUST) return false;
        return !!e.pay(ex.hot, [{ script: this.receiveKey(user).script, value: amount }], { target: r.pick([1, 2, 3, 6]), change: ex.hotKey, prefer: 'largest' });
      }
      case 'deposit': {
        const u = r.pick(this.traders);
        const coins = u.wallet.spendable(e.height);
        if (!coins.length) return false;
        const c = r.pick(coins);
        const amount = Math.floor(c.value * (r.chance(0.4) ? 1 : 0.2 + 0.7 * r.next()));
        const tx = e.pay(u.wallet, [{ script: u.depositKey.script, value: amount }], { target: r.pick([1, 2, 3, 6]), coins: [c], change: this.changeKey(u, c.owner) });
        // The whole coin, if it cannot cover the fee and the amount: send what is left after the fee.
        return !!tx || !!this.sendAll(c, u.depositKey.script, r.pick([2, 3, 6]));
      }
      case 'p2p': {
        const u = r.pick(this.traders);
        const to = r.pick(this.traders);
        const coins = u.wallet.spendable(e.height);
        if (!coins.length || to === u) return false;
        const c = r.pick(coins);
        const amount = Math.floor(c.value * (0.1 + 0.6 * r.next()));
        return !!e.pay(u.wallet, [{ script: this.receiveKey(to).script, value: amount }], { target: r.pick([1, 2, 3, 6, 12]), coins: [c], change: this.changeKey(u, c.owner) });
      }
      case 'lth': {
        const h = r.pick(this.holders);
        const old = h.wallet.spendable(e.height).filter((c) => e.time - e.chain.blocks[c.height]!.header.time > 155 * 86_400);
        if (!old.length) return false;
        const c = r.pick(old);
        if (r.chance(0.2)) return !!this.sendAll(c, this.receiveKey(h).script, r.pick([6, 12, 25]));
        const amount = Math.floor(c.value * (0.05 + 0.5 * r.next()));
        return !!e.pay(h.wallet, [{ script: h.depositKey.script, value: amount }], { target: r.pick([3, 6, 12, 25]), coins: [c], change: this.changeKey(h, c.owner) });
      }
      case 'miner': {
        const pool = r.pick(this.pools);
        const ex = this.exchanges[this.pools.indexOf(pool) % this.exchanges.length]!;
        const coins = e.fitting(pool.wallet.spendable(e.height).filter((c) => c.coinbase && c.value < 100 * COIN).slice(0, 3), [{ script: this.depositOf(ex, pool.name), value: 0 }]);
        if (!coins.length) return false;
        const total = coins.reduce((a, c) => a + c.value, 0);
        const fee = e.feeFor(coins.map((coin) => ({ coin })), [{ script: ex.hotKey.script, value: 0 }], e.feerateFor(12));
        return !!e.spend(coins.map((coin) => ({ coin })), [{ script: this.depositOf(ex, pool.name), value: total - fee }]);
      }
      case 'sweep': {
        const ex = r.pick(this.exchanges);
        const coins = e.fitting(ex.deposits.spendable(e.height).slice(0, 3), [{ script: ex.hotKey.script, value: 0 }]);
        if (coins.length < 2) return false;
        const total = coins.reduce((a, c) => a + c.value, 0);
        const fee = e.feeFor(coins.map((coin) => ({ coin })), [{ script: ex.hotKey.script, value: 0 }], e.feerateFor(r.pick([25, 144])));
        if (total - fee < DUST) return false;
        return !!e.spend(coins.map((coin) => ({ coin })), [{ script: ex.hotKey.script, value: total - fee }]);
      }
    }
  }

  /** A pool's deposit address at an exchange (pools are customers too). */
  private readonly poolDeposits = new Map<string, Uint8Array>();
  private depositOf(ex: Exchange, who: string): Uint8Array {
    const id = `${ex.name}:${who}`;
    let s = this.poolDeposits.get(id);
    if (!s) {
      s = this.reg.addKey(ex.deposits, 'p2wpkh', `deposit:${who}`).script;
      this.poolDeposits.set(id, s);
    }
    return s;
  }

  /** Every pool's deposit address exists from the start (so the entity list is complete). */
  preparePoolDeposits(): void {
    this.pools.forEach((p, i) => this.depositOf(this.exchanges[i % this.exchanges.length]!, p.name));
  }

  /** Sends a whole coin (less the fee) to one script. */
  private sendAll(coin: Coin, to: Uint8Array, target: number) {
    const e = this.engine;
    const fee = e.feeFor([{ coin }], [{ script: to, value: 0 }], e.feerateFor(target));
    if (coin.value - fee < DUST) return null;
    return e.spend([{ coin }], [{ script: to, value: coin.value - fee }]);
  }

  /** Exchanges keep their hot wallets stocked from cold storage, and send surplus back. */
  private rebalance(): void {
    const e = this.engine;
    for (const ex of this.exchanges) {
      const hot = ex.hot.balance();
      if (hot < 40 * COIN && !this.refilling.has(ex.name)) {
        const tx = e.pay(ex.cold, [{ script: ex.hotKey.script, value: Math.round((150 + 150 * this.rng.next()) * COIN) }], { target: 3, change: ex.coldKey, prefer: 'largest', maxInputs: 1 });
        if (tx) {
          this.refilling.add(ex.name);
          e.whenConfirmed(tx.txid, () => this.refilling.delete(ex.name));
        }
      } else if (hot > 1_500 * COIN) {
        e.pay(ex.hot, [{ script: ex.coldKey.script, value: 600 * COIN }], { target: 12, change: ex.hotKey, prefer: 'largest' });
      }
    }
  }
  private readonly refilling = new Set<string>();

  // ---- what the world publishes ----

  entities(): BitcoinEntity[] {
    return [
      ...this.exchanges.map((x) => ({
        name: x.name, kind: 'exchange' as const,
        addresses: [x.coldKey.address!, x.hotKey.address!, ...x.deposits.keys.map((k) => k.address!)],
      })),
      ...this.pools.map((p) => ({ name: p.name, kind: 'miner' as const, addresses: [p.payout.address!] })),
      ...this.custodians.map((c) => ({ name: c.name, kind: 'custodian' as const, addresses: c.addresses, backs: c.token })),
    ];
  }

  actorLabels(): BitcoinLabels['actors'] {
    return {
      pools: this.pools.map((p) => ({ name: p.name, addresses: [p.payout.address!] })),
      exchanges: this.exchanges.map((x) => ({ name: x.name, cold: [x.coldKey.address!], hot: [x.hotKey.address!], deposits: x.deposits.keys.map((k) => k.address!) })),
      custodians: this.custodians.map((c) => ({ name: c.name, backs: c.token, addresses: c.addresses, sats: c.funded })),
      holders: this.holders.flatMap((h) => h.wallet.keys.map((k) => k.address!)),
      traders: this.traders.flatMap((h) => h.wallet.keys.map((k) => k.address!)),
      stakers: [],
      earlyMinerScripts: this.earlyMiners.keys.map((k) => Buffer.from(k.script).toString('hex')),
    };
  }
}

/** An amount split across custody scripts (one output each time, rotating). */
function splitAcross(scripts: readonly Uint8Array[], amount: number, round: number): TxOutput[] {
  return [{ script: scripts[round % scripts.length]!, value: amount }];
}
