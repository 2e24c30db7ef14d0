/**
 * Holder balances replayed from Transfers, kept twice: per token (holder → balance, for holder
 * reports) and per holder (token → balance, for wallet holdings).
 *
 * Each token's hash also records the last block whose transfers its balances include
 * (`BALANCE_MARK_FIELD`), written in the same HSET as the balances, so both land or neither.
 * Applying a block again (a pass that died after writing balances but before moving the
 * checkpoint re-reads its window) skips what was already counted instead of adding it twice,
 * and undoing a reorganisation reverses only what was counted.
 */
import { zeroAddress } from 'viem';
import type { Store } from '../store/store.js';
import { BALANCE_MARK_FIELD, type IndexKeys } from './rows.js';

export interface BalanceMove {
  readonly block: number;
  readonly holder: string;
  readonly delta: bigint;
}

/** Balance moves by token (lower-case addresses), in block order. */
export type BalanceMoves = Map<string, BalanceMove[]>;

/** A transfer's two moves; mints and burns move supply, not the zero address's balance (never a holder). */
export function recordTransfer(moves: BalanceMoves, t: { token: string; block: number; from: string; to: string; value: string }, sign: 1n | -1n = 1n): void {
  const token = t.token.toLowerCase();
  let list = moves.get(token);
  if (!list) moves.set(token, (list = []));
  const value = BigInt(t.value) * sign;
  for (const [holder, delta] of [[t.from, -value], [t.to, value]] as const) {
    if (holder.toLowerCase() !== zeroAddress) list.push({ block: t.block, holder: holder.toLowerCase(), delta });
  }
}

/** What one token's update counts: the moves to add, and the block its balances then include. */
type Plan = (through: number | null) => { moves: readonly BalanceMove[]; through: number };

export class BalanceBook {
  constructor(
    private readonly store: Store,
    private readonly keys: IndexKeys,
  ) {}

  /** Adds the moves of every block a token's balances do not include yet. */
  apply(moves: BalanceMoves): Promise<void> {
    return this.update(moves, (list) => (through) => {
      // No mark: nothing past the checkpoint is counted yet (windows start after it).
      const from = through ?? -1;
      const counted = list.filter((m) => m.block > from);
      return { moves: counted, through: counted.reduce((last, m) => Math.max(last, m.block), from) };
    });
  }

  /** Reverses the moves of blocks above `forkBlock` that a token's balances include. */
  undoAbove(forkBlock: number, moves: BalanceMoves): Promise<void> {
    return this.update(moves, (list) => (through) => {
      // No mark (an index written before marks): every indexed row is counted.
      const upTo = through ?? Infinity;
      const counted = list.filter((m) => m.block > forkBlock && m.block <= upTo).map((m) => ({ ...m, delta: -m.delta }));
      return { moves: counted, through: Math.min(upTo, forkBlock) };
    });
  }

  private async update(moves: BalanceMoves, planFor: (list: readonly BalanceMove[]) => Plan): Promise<void> {
    const byHolder = new Map<string, Record<string, string>>();
    await Promise.all([...moves].map(async ([token, list]) => {
      const key = this.keys.balances(token);
      const holders = [...new Set(list.map((m) => m.holder))];
      const [mark, ...current] = await this.store.hashGetMany(key, [BALANCE_MARK_FIELD, ...holders]);
      const through = mark === null ? null : Number(mark);
      const balances = new Map(holders.map((h, i) => [h, BigInt(current[i] ?? '0')]));
      const plan = planFor(list)(through);
      for (const m of plan.moves) balances.set(m.holder, balances.get(m.holder)! + m.delta);
      const values = Object.fromEntries([...balances].map(([h, v]) => [h, v.toString()]));
      if (plan.moves.length || plan.through !== through) await this.store.hashSetMany(key, { ...values, [BALANCE_MARK_FIELD]: String(plan.through) });
      for (const [holder, value] of Object.entries(values)) {
        let held = byHolder.get(holder);
        if (!held) byHolder.set(holder, (held = {}));
        held[token] = value;
      }
    }));
    // The per-holder copy follows the token hashes; rewritten even when nothing was counted, so a
    // pass that died between the two copies leaves them equal after the next one.
    await Promise.all([...byHolder].map(([holder, tokens]) => this.store.hashSetMany(this.keys.holdings(holder), tokens)));
  }
}
