/** Arbitrageurs trade between the chain's two DEXes when the same pair's prices diverge by more than 0.6%. */
import type { Address } from 'viem';
import type { Pool } from '../market.js';
import type { MarketBehaviour, MarketHost } from './behaviour.js';

export interface ArbitrageLabels {
  arbitrages: { arber: Address; buyPool: Address; sellPool: Address; block: number }[];
}

export function emptyArbitrageLabels(): ArbitrageLabels {
  return { arbitrages: [] };
}

export class DexArbitrage implements MarketBehaviour {
  readonly name = 'dex-arbitrage';

  step(host: MarketHost): void {
    const { market } = host;
    for (const a of market.all().filter((p) => p.dex === 0)) {
      const b = market.find(1, a.token0, a.token1);
      if (!b || b.r0 === 0n || a.r0 === 0n) continue;
      const pa = Number(a.r1) / Number(a.r0);
      const pb = Number(b.r1) / Number(b.r0);
      if (Math.abs(pa / pb - 1) < 0.006) continue;
      const arber = host.rng.pick(host.actors('arber'));
      // token0 is cheaper (in token1) on the lower-priced pool: buy it there with token1 and
      // sell it on the other; or, holding token0, the mirror trade on token1.
      const [cheap0, dear0] = pa < pb ? [a, b] : [b, a];
      const routes: [Pool, Pool, Address][] = [[cheap0, dear0, cheap0.token1], [dear0, cheap0, dear0.token0]];
      for (const [buyPool, sellPool, input] of routes) {
        const [reserveIn] = market.sides(buyPool, input);
        const held = host.balance(arber, input);
        let best = 0n;
        let bestProfit = 0n;
        for (let i = 1; i <= 20; i++) {
          const amountIn = (reserveIn * BigInt(i)) / 400n;
          if (amountIn > held) break;
          const got = market.quote(buyPool, input, amountIn);
          const middle = input.toLowerCase() === buyPool.token0.toLowerCase() ? buyPool.token1 : buyPool.token0;
          const back = market.quote(sellPool, middle, got);
          if (back - amountIn > bestProfit) {
            bestProfit = back - amountIn;
            best = amountIn;
          }
        }
        if (best === 0n) continue;
        const middle = input.toLowerCase() === buyPool.token0.toLowerCase() ? buyPool.token1 : buyPool.token0;
        const got = host.swap(arber, buyPool, input, best);
        host.swap(arber, sellPool, middle, got);
        const label = { arber, buyPool: buyPool.pair, sellPool: sellPool.pair };
        host.onMined((block) => host.labels.arbitrages.push({ ...label, block }));
        break;
      }
    }
  }
}
