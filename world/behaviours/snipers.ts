/** Snipers watch the mempool: they buy a new listing in the very block its liquidity arrives, right behind it. */
import type { Address } from 'viem';
import type { MarketBehaviour, MarketHost } from './behaviour.js';
import type { Listings } from './listings.js';

export interface SnipeLabels {
  snipes: { sniper: Address; token: Address; pair: Address; block: number }[];
}

export function emptySnipeLabels(): SnipeLabels {
  return { snipes: [] };
}

export class Snipers implements MarketBehaviour {
  readonly name = 'snipers';

  constructor(private readonly listings: Listings) {}

  step(host: MarketHost): void {
    const listing = this.listings.fresh;
    if (!listing) return;
    const quote = host.token(listing.token.quote)!;
    const { address: token } = listing.token;
    const { pair } = listing.pool;
    for (const sniper of host.actors('sniper')) {
      if (!host.rng.chance(0.8)) continue;
      const amountIn = host.toRaw(quote, host.rng.logUniform(500, 5_000));
      // A sniper keeps inventory in every asset listings pair with (e.g. VIRTUAL on Base).
      if (host.balance(sniper, quote.address) < amountIn) host.fundToken(sniper, quote.address, amountIn * 10n);
      host.swap(sniper, listing.pool, quote.address, amountIn);
      host.onMined((block) => host.labels.snipes.push({ sniper, token, pair, block }));
    }
  }
}
