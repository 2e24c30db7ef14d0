/**
 * The Bitcoin world as a whole: builds the pre-history and the dense era for a seed, keeps
 * running in real time when asked, and reads its ground truth (labels) from the chain.
 */
import { Rng } from '../../lib/random.js';
import type { ReferencePaths } from '../reference.js';
import { scriptAddress, scriptType } from './script.js';
import { Economy } from './economy.js';
import { Engine } from './engine.js';
import { BLOCK_SCALE, BLOCK_WEIGHT_LIMIT } from './fees.js';
import type { BitcoinLabels } from './labels.js';
import { BtcPricePath } from './prices.js';
import { Protocols } from './protocols.js';
import { Registry } from './wallets.js';

export interface BitcoinWorldOptions {
  readonly seed: string;
  readonly days: number;
  readonly origin: number;
  readonly reference: ReferencePaths;
  readonly onProgress?: (msg: string) => void;
}

/** Relative weights of what an arrival is. */
const ACTIVITY: readonly (readonly [Parameters<Economy['ordinary']>[0] | 'brc20' | 'runes' | 'staking', number])[] = [
  ['withdraw', 24], ['deposit', 20], ['p2p', 14], ['lth', 6], ['miner', 3], ['sweep', 6], ['brc20', 10], ['runes', 7], ['staking', 4],
];

export class BitcoinWorld {
  readonly engine: Engine;
  readonly economy: Economy;
  readonly protocols: Protocols;
  readonly prices: BtcPricePath;
  private readonly rng: Rng;
  denseFromHeight = 0;
  /** The dense era's deterministic end: origin + days (a seed builds the same chain whenever it runs). */
  readonly historyEnd: number;

  private constructor(readonly options: BitcoinWorldOptions) {
    this.rng = new Rng(`bitcoin-world:${options.seed}`);
    const reg = new Registry(options.seed);
    this.prices = new BtcPricePath(options.seed, options.reference);
    this.engine = new Engine(this.rng.fork('engine'), reg, emptyLabels(options.seed));
    this.economy = new Economy(this.engine, reg, options.seed, this.prices, options.origin);
    this.protocols = new Protocols(this.engine, this.economy, this.rng.fork('protocols'), options.seed);
    this.historyEnd = options.origin + Math.round(options.days * 86_400);
  }

  static async build(o: BitcoinWorldOptions): Promise<BitcoinWorld> {
    const w = new BitcoinWorld(o);
    const started = performance.now();
    const yieldNow = breather();
    w.economy.preparePoolDeposits();
    await w.economy.prehistory(yieldNow);
    w.denseFromHeight = w.engine.height;
    o.onProgress?.(`bitcoin ${o.seed}: pre-history (${w.engine.height} blocks) in ${Math.round(performance.now() - started)} ms`);
    w.protocols.prepare();
    w.economy.startDense(o.origin);
    let reported = o.origin;
    await w.economy.advance(w.historyEnd, (t) => w.act(t), () => {
      const t = w.engine.time;
      if (t - reported >= 5 * 86_400) {
        reported = t;
        o.onProgress?.(`bitcoin ${o.seed}: ${Math.round((100 * (t - o.origin)) / (w.historyEnd - o.origin))}% of ${o.days} days, height ${w.engine.height}`);
      }
    }, yieldNow);
    o.onProgress?.(`bitcoin ${o.seed}: ${o.days} days, ${w.engine.height} blocks, ${w.engine.chain.txs.size} txs in ${Math.round(performance.now() - started)} ms`);
    return w;
  }

  /** Runs the world on to `until` (seconds): the live chain, or the fast-forward after a cache. */
  async advanceTo(until: number): Promise<void> {
    await this.economy.advance(until, (t) => this.act(t), () => {}, breather());
  }

  private act(t: number): void {
    const total = ACTIVITY.reduce((a, [, w]) => a + w, 0);
    let x = this.rng.next() * total;
    let kind = ACTIVITY[0]![0];
    for (const [k, w] of ACTIVITY) {
      if ((x -= w) < 0) {
        kind = k;
        break;
      }
    }
    if (kind === 'brc20') this.protocols.brc20(t);
    else if (kind === 'runes') this.protocols.runes(t);
    else if (kind === 'staking') this.protocols.staking(t);
    else this.economy.ordinary(kind);
  }

  /** Ground truth at the tip, read from the chain itself. */
  labels(): BitcoinLabels {
    const chain = this.engine.chain;
    const l = emptyLabels(this.options.seed);
    l.tipHeight = chain.tip.height;
    l.tipHash = chain.tip.hash;
    l.denseFromHeight = this.denseFromHeight;
    l.actors = this.economy.actorLabels();
    l.actors.stakers = this.protocols.stakerAddresses();
    l.blocks = this.engine.blockStats.filter((b) => b.height >= this.denseFromHeight);
    l.custody = Object.fromEntries(this.economy.custodians.map((c) => [c.token, c.addresses]));
    l.exposed = exposedAt(this);
    this.protocols.fillLabels(l);
    return l;
  }
}

/** Keeps the event loop breathing while thousands of transactions are signed: yields every ~30 ms. */
function breather(): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < 30) return;
    await new Promise<void>((r) => setImmediate(r));
    last = performance.now();
  };
}

export function emptyLabels(seed: string): BitcoinLabels {
  return {
    seed, tipHeight: 0, tipHash: '', denseFromHeight: 0, blockWeightLimit: BLOCK_WEIGHT_LIMIT, blockScale: BLOCK_SCALE,
    actors: { pools: [], exchanges: [], custodians: [], holders: [], traders: [], stakers: [], earlyMinerScripts: [] },
    exposed: [], blocks: [], inscriptions: [], runes: [], staking: [], custody: {},
  };
}

/**
 * Where a quantum attacker could read a public key at the tip, and what it guards: unspent
 * P2PK outputs (the key is the script), P2TR outputs (the output key is in the script), and
 * P2PKH/P2WPKH addresses that still hold coins after having spent once (the spend put the key
 * in a scriptSig or witness). Confirmed state only.
 */
function exposedAt(w: BitcoinWorld): BitcoinLabels['exposed'] {
  const chain = w.engine.chain;
  const spentFrom = new Set<string>();
  const held = new Map<string, { why: BitcoinLabels['exposed'][number]['why'] | null; sats: number }>();
  for (const b of chain.blocks) {
    for (const id of b.txids) {
      const t = chain.txs.get(id)!;
      if (!t.coinbase) for (const i of t.tx.inputs) {
        const a = scriptAddress(chain.output(i.prevTxid, i.vout)!.script);
        if (a) spentFrom.add(a);
      }
    }
  }
  for (const b of chain.blocks) {
    for (const id of b.txids) {
      const t = chain.txs.get(id)!;
      t.tx.outputs.forEach((o, vout) => {
        const s = chain.spends.get(`${id}:${vout}`);
        if (s && chain.txs.get(s.txid)!.height !== undefined) return; // spent in a block
        const type = scriptType(o.script);
        const key = type === 'p2pk' ? `p2pk:${Buffer.from(o.script).toString('hex')}` : scriptAddress(o.script);
        if (!key || o.value === 0) return;
        const entry = held.get(key) ?? { why: type === 'p2pk' ? 'p2pk' : type === 'v1_p2tr' ? 'taproot-key-path' : null, sats: 0 };
        entry.sats += o.value;
        held.set(key, entry);
      });
    }
  }
  const out: BitcoinLabels['exposed'] = [];
  for (const [key, { why, sats }] of held) {
    const reason = why ?? (spentFrom.has(key) ? 'reused-after-spend' : null);
    if (reason) out.push({ address: key, why: reason, sats });
  }
  return out.sort((a, b) => b.sats - a.sats);
}
