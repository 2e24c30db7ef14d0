/** Rug-pullers remove all their liquidity at the hour they planned when listing, once buyers have come in. */
import { encodeFunctionData, type Address } from 'viem';
import { SibylV2Router } from '../../chain/artifacts/index.js';
import { FAR_DEADLINE, GAS } from '../gas.js';
import type { MarketBehaviour, MarketHost } from './behaviour.js';
import type { Listings } from './listings.js';

export interface RugLabels {
  rugs: { token: Address; pair: Address; creator: Address; block: number }[];
}

export function emptyRugLabels(): RugLabels {
  return { rugs: [] };
}

export class RugPulls implements MarketBehaviour {
  readonly name = 'rug-pulls';

  constructor(private readonly listings: Listings) {}

  step(host: MarketHost, t: number): void {
    for (const l of this.listings.all) {
      if (l.rugAt === undefined || t < l.rugAt) continue;
      l.rugAt = undefined;
      const router = host.routers[0]!;
      const lpBalance = l.lp;
      host.approve(l.creator, l.pool.pair, router);
      host.queue({ from: l.creator, to: router, data: encodeFunctionData({ abi: SibylV2Router.abi, functionName: 'removeLiquidity', args: [l.pool.token0, l.pool.token1, lpBalance, 0n, 0n, l.creator, FAR_DEADLINE] }), gas: GAS.remove });
      host.touch(l.pool);
      l.token.tradeable = false;
      const rug = { token: l.token.address, pair: l.pool.pair, creator: l.creator };
      host.onMined((block) => host.labels.rugs.push({ ...rug, block }));
    }
  }
}
