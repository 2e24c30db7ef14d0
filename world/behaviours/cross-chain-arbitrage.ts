/**
 * The one market: every pool whose two sides have reference prices (on either DEX) is traded
 * back onto the reference within the block once it strays beyond REFERENCE_BAND, as
 * cross-chain and CEX-DEX arbitrageurs do. The trade is sized to land on the reference price
 * (a constant-product pool reaches price p at reserveIn' = sqrt(k * p)). The crowd doing it is
 * two sets of wallets, buyers that never sell and sellers that only sell (their bags come
 * from the treasury), so none of them books trading profit on chain: the other leg of their
 * arbitrage is off this chain. Acts last in a block, after everything that moved prices.
 */
import type { MarketBehaviour, MarketHost } from './behaviour.js';
import { sidesOf } from './pools.js';

/** Pools further than this from the reference price are traded back onto it within the block. */
const REFERENCE_BAND = 0.0015;

export class CrossChainArbitrage implements MarketBehaviour {
  readonly name = 'cross-chain-arbitrage';

  step(host: MarketHost): void {
    const { market } = host;
    for (const pool of market.all()) {
      if (pool.r0 === 0n || pool.r1 === 0n) continue;
      const sides = sidesOf(host, pool);
      if (!sides) continue;
      const { token, quote } = sides;
      const tokenUsd = host.referenceUsd(token);
      const quoteUsd = host.referenceUsd(quote);
      if (!tokenUsd || !quoteUsd) continue;
      const fair = tokenUsd / quoteUsd; // token in quote, whole units
      const gap = fair / market.price(pool, token.address, token.decimals, quote.decimals);
      if (Math.abs(gap - 1) < REFERENCE_BAND) continue;
      const buying = gap > 1; // the pool is cheap: buy the token with the quote
      const tokenIn = buying ? quote : token;
      const free = host.actors(buying ? 'accumulator' : 'distributor').filter((a) => !host.hasTraded(a));
      if (!free.length) continue;
      const actor = host.rng.pick(free);
      host.markTraded(actor);
      const [reserveIn] = market.sides(pool, tokenIn.address);
      // The price goes with reserveIn^2 (the token's: 1 / reserveIn^2), so reserveIn grows by the gap's square root.
      const growth = Math.sqrt(buying ? gap : 1 / gap) - 1;
      // (The 0.3% fee stays in the pool, so k grows a little: the landing is within 0.003 * growth.)
      const amountIn = (reserveIn * BigInt(Math.round(growth * 1e9))) / 1_000_000_000n;
      if (amountIn <= 0n) continue;
      const short = amountIn - host.balance(actor, tokenIn.address);
      // Funded in bulk: one transfer stands for a bag bridged in, not one per trade.
      if (short > 0n) host.fundToken(actor, tokenIn.address, short * 20n);
      host.swap(actor, pool, tokenIn.address, amountIn);
    }
  }
}
