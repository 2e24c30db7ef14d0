/**
 * A chain's market behaviours, in the order they act in a block. They share the market's
 * generator, so this order is part of the world a seed makes: changing it changes the world.
 */
import type { MarketBehaviour } from './behaviour.js';
import { CrossChainArbitrage } from './cross-chain-arbitrage.js';
import { DexArbitrage } from './dex-arbitrage.js';
import { Launchpad } from './launchpad.js';
import { LiquidityProviders } from './liquidity.js';
import { Listings } from './listings.js';
import { Orders } from './orders.js';
import { Regimes } from './regimes.js';
import { RugPulls } from './rug-pulls.js';
import { Sandwichers } from './sandwiches.js';
import { SmartMoney } from './smart-money.js';
import { Snipers } from './snipers.js';
import { WhaleTransfers } from './whale-transfers.js';

export interface MarketBehaviours {
  readonly all: readonly MarketBehaviour[];
  /** The listings, whose schedule the world lends its modules. */
  readonly listings: Listings;
}

export function marketBehaviours(): MarketBehaviours {
  const listings = new Listings();
  return {
    listings,
    all: [
      new Regimes(),
      listings,
      new Snipers(listings),
      new RugPulls(listings),
      new SmartMoney(),
      new Launchpad(),
      new LiquidityProviders(),
      new WhaleTransfers(),
      new Orders(new Sandwichers()),
      new DexArbitrage(),
      new CrossChainArbitrage(),
    ],
  };
}
