/** Liquidity providers add to and withdraw from the pools between genesis tokens (Mint and Burn events). */
import { encodeFunctionData } from 'viem';
import { DemoToken, SibylV2Router } from '../../chain/artifacts/index.js';
import { FAR_DEADLINE, GAS } from '../gas.js';
import type { MarketBehaviour, MarketHost } from './behaviour.js';

export class LiquidityProviders implements MarketBehaviour {
  readonly name = 'liquidity';

  async step(host: MarketHost, _t: number, dt: number): Promise<void> {
    if (!host.rng.chance((dt / 3600) * 0.5)) return;
    const lp = host.rng.pick(host.actors('lp'));
    const pools = host.market.all().filter((p) => host.token(p.token0)?.kind === 'genesis' && host.token(p.token1)?.kind === 'genesis' && p.r0 > 0n);
    if (!pools.length) return;
    const pool = host.rng.pick(pools);
    const router = host.routers[pool.dex]!;
    const held = (await host.client.readContract({ address: pool.pair, abi: DemoToken.abi, functionName: 'balanceOf', args: [lp] })) as bigint;
    if (held > 0n && host.rng.chance(0.4)) {
      const amount = (held * BigInt(host.rng.int(30, 100))) / 100n;
      host.approve(lp, pool.pair, router);
      host.queue({ from: lp, to: router, data: encodeFunctionData({ abi: SibylV2Router.abi, functionName: 'removeLiquidity', args: [pool.token0, pool.token1, amount, 0n, 0n, lp, FAR_DEADLINE] }), gas: GAS.remove });
    } else {
      const share = host.rng.logUniform(0.01, 0.15);
      const amount0 = BigInt(Math.floor(Number(pool.r0) * share));
      const amount1 = BigInt(Math.floor(Number(pool.r1) * share));
      host.fundToken(lp, pool.token0, amount0);
      host.fundToken(lp, pool.token1, amount1);
      host.approve(lp, pool.token0, router);
      host.approve(lp, pool.token1, router);
      host.queue({ from: lp, to: router, data: encodeFunctionData({ abi: SibylV2Router.abi, functionName: 'addLiquidity', args: [pool.token0, pool.token1, amount0, amount1, 0n, 0n, lp, FAR_DEADLINE] }), gas: GAS.addLiquidity });
      pool.r0 += amount0;
      pool.r1 += amount1;
    }
    host.touch(pool);
  }
}
