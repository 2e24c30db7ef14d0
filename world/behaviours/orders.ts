/**
 * The crowd's orders: retail traders buy and sell the tradeable pools in small sizes (leaning
 * with a token's regime, and towards new listings), and now and then a whale places a large
 * one. A retail buy of some size may fall prey to a sandwich bot.
 */
import type { Pool } from '../market.js';
import type { TokenInfo } from '../world.js';
import type { MarketBehaviour, MarketHost } from './behaviour.js';
import { sidesOf } from './pools.js';
import type { Sandwichers } from './sandwiches.js';

export class Orders implements MarketBehaviour {
  readonly name = 'orders';

  constructor(private readonly sandwichers: Sandwichers) {}

  step(host: MarketHost, t: number, dt: number): void {
    const retailTrades = host.rng.poisson((dt / 3600) * 6);
    for (let i = 0; i < retailTrades; i++) this.trade(host, t, false);
    if (host.rng.chance((dt / 3600) * 0.4)) this.trade(host, t, true);
  }

  private trade(host: MarketHost, t: number, whale: boolean): void {
    const pools = tradeablePools(host, t);
    if (!pools.length) return;
    const pool = host.rng.pick(pools);
    const sides = sidesOf(host, pool);
    if (!sides) return;
    const { token, quote } = sides;
    const actor = host.rng.pick(host.actors(whale ? 'whale' : 'retail'));
    // A person trades once per block: a block stands for seconds of a real chain.
    if (host.hasTraded(actor)) return;
    host.markTraded(actor);
    // A whale's order is large but still a fraction of the book: at most 10% of the quote reserve.
    const usd = whale ? Math.min(host.rng.logUniform(60_000, 600_000), 0.1 * host.usdOf(quote) * Number(host.market.sides(pool, quote.address)[0]) / 10 ** quote.decimals) : host.rng.logUniform(20, 4_000);
    const buyBias = 0.5 + 0.15 * token.regime + (token.kind === 'genesis' ? 0 : 0.2);
    const held = host.balance(actor, token.address);
    const buy = held === 0n || host.rng.chance(buyBias);
    if (buy) {
      const amountIn = host.toRaw(quote, usd);
      if (host.balance(actor, quote.address) < amountIn) return;
      const victimUsd = usd;
      const sandwich = !whale && victimUsd > 400 && host.rng.chance(0.12) && token.kind === 'genesis';
      if (sandwich) return this.sandwichers.around(host, actor, pool, quote.address, amountIn, victimUsd);
      host.swap(actor, pool, quote.address, amountIn);
    } else {
      const amountIn = (held * BigInt(host.rng.int(20, 100))) / 100n;
      host.swap(actor, pool, token.address, amountIn);
    }
  }
}

/** Pools with liquidity whose tokens still trade, except a listing in its first block (only snipers trade it then). */
function tradeablePools(host: MarketHost, t: number): Pool[] {
  return host.market.all().filter((p) => {
    const a = host.token(p.token0);
    const b = host.token(p.token1);
    const fresh = (token?: TokenInfo) => token?.listedAt !== undefined && token.listedAt >= t;
    return a?.tradeable !== false && b?.tradeable !== false && !fresh(a) && !fresh(b) && p.r0 > 0n && p.r1 > 0n;
  });
}
