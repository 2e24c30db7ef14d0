/**
 * Smart money is informed: it sees where the reference path goes over the next SMART_HORIZON_S
 * (in USD, what its profit is counted in). When the best price ahead is at least
 * SMART_MIN_GAIN above now, each smart wallet (once per token every three hours, with
 * probability 0.85) buys 0.2-0.5% of the pool's quote reserve, and sells once SMART_TAKE of
 * that move has come or at the best moment: it books real profits, as the labels claim.
 */
import type { Address } from 'viem';
import type { TokenInfo } from '../world.js';
import type { MarketBehaviour, MarketHost } from './behaviour.js';

/** How far ahead smart money sees the reference path, and the gain it waits for. */
const SMART_HORIZON_S = 24 * 3600;
const SMART_MIN_GAIN = 0.04;
/** The share of the move seen ahead at which smart money takes its profit. */
const SMART_TAKE = 0.7;

interface Position { actor: Address; token: TokenInfo; amount: bigint; exitAt: number; target: number }
interface Saved {
  positions: [string, { actor: Address; token: Address; amount: string; exitAt: number; target: number }][];
  decisions: string[];
}

export class SmartMoney implements MarketBehaviour {
  readonly name = 'smart-money';
  /** Open positions by `${actor}:${token}` (lower case). */
  private readonly positions = new Map<string, Position>();
  /** Entry decisions taken, one per wallet, token and three-hour window. */
  private readonly decisions = new Set<string>();

  step(host: MarketHost, t: number): void {
    for (const token of host.tokens()) {
      if (token.kind !== 'genesis' || !token.asset) continue;
      const pool = host.market.find(0, token.address, token.quote);
      if (!pool) continue;
      // Judged in USD, as its profit is: a token quoted in a falling native can still lose.
      const usd = (at: number) => host.referenceUsd(token, at)!;
      const now = usd(t);
      let best = { ratio: 1, at: t };
      for (let h = 1; h <= SMART_HORIZON_S / 3600; h++) {
        const ratio = usd(t + h * 3600) / now;
        if (ratio > best.ratio) best = { ratio, at: t + h * 3600 };
      }
      // One smart entry and one exit per token a block, wallets taken in a rotating order: piling
      // in behind each other, the last would buy dearest and sell cheapest every time.
      const smart = host.actors('smart');
      const first = host.rng.int(0, smart.length - 1);
      let entered = false;
      let exited = false;
      for (const actor of [...smart.slice(first), ...smart.slice(0, first)]) {
        if (host.hasTraded(actor)) continue;
        const key = `${actor}:${token.address}`.toLowerCase();
        const position = this.positions.get(key);
        if (!position && !entered && best.ratio - 1 >= SMART_MIN_GAIN) {
          const decision = `${key}:${Math.floor((t - host.startTimestamp) / (3 * 3600))}`;
          if (this.decisions.has(decision)) continue;
          this.decisions.add(decision);
          if (!host.rng.chance(0.85)) continue;
          const [quoteReserve] = host.market.sides(pool, token.quote);
          const amountIn = (quoteReserve * BigInt(host.rng.int(20, 50))) / 10_000n;
          const amount = host.swap(actor, pool, token.quote, amountIn);
          if (amount > 0n) {
            entered = true;
            host.markTraded(actor);
            // Takes profit once most of the move it saw has come, or at the moment it saw as best.
            this.positions.set(key, { actor, token, amount, exitAt: best.at, target: now * (1 + SMART_TAKE * (best.ratio - 1)) });
          }
        } else if (position && !exited && (t >= position.exitAt || now >= position.target)) {
          exited = true;
          host.markTraded(actor);
          // Sells the position, not the wallet's float of the token (e.g. its wrapped native).
          host.swap(actor, pool, token.address, position.amount);
          this.positions.delete(key);
        }
      }
    }
  }

  toState(): Saved {
    return {
      positions: [...this.positions].map(([k, p]) => [k, { actor: p.actor, token: p.token.address, amount: p.amount.toString(), exitAt: p.exitAt, target: p.target }]),
      decisions: [...this.decisions],
    };
  }

  restore(state: unknown, host: MarketHost): void {
    const saved = state as Saved;
    for (const [k, p] of saved.positions) this.positions.set(k, { actor: p.actor, token: host.token(p.token)!, amount: BigInt(p.amount), exitAt: p.exitAt, target: p.target });
    for (const d of saved.decisions) this.decisions.add(d);
  }
}
