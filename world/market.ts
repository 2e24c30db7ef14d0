/**
 * The simulator's mirror of its pools: reserves kept in step with the chain (V2 math applied
 * locally as transactions are queued, re-read from the chain after every block), so actors
 * can size trades without a round trip per decision.
 */
import { getContractAddress, keccak256, type Address } from 'viem';
import { SibylV2Pair } from '../chain/artifacts/index.js';
import type { WorldRpc } from './rpc.js';

/** Selector of getReserves(). */
const GET_RESERVES = '0x0902f1ac';

export interface Pool {
  readonly pair: Address;
  readonly dex: number;
  readonly token0: Address;
  readonly token1: Address;
  r0: bigint;
  r1: bigint;
}

export function v2AmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  if (amountIn <= 0n || reserveIn <= 0n || reserveOut <= 0n) return 0n;
  const withFee = amountIn * 997n;
  return (withFee * reserveOut) / (reserveIn * 1000n + withFee);
}

/** The V2 CREATE2 pair address: salt is keccak(token0 ++ token1), init code is the pair's. */
export function pairAddress(factory: Address, a: Address, b: Address): Address {
  const [t0, t1] = a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a];
  return getContractAddress({ opcode: 'CREATE2', from: factory, salt: keccak256(`0x${t0.slice(2)}${t1.slice(2)}`), bytecode: SibylV2Pair.bytecode });
}

export class Market {
  private readonly pools = new Map<string, Pool>();

  add(pool: Pool): Pool {
    this.pools.set(pool.pair.toLowerCase(), pool);
    return pool;
  }

  all(): Pool[] {
    return [...this.pools.values()];
  }

  get(pair: Address): Pool | undefined {
    return this.pools.get(pair.toLowerCase());
  }

  find(dex: number, a: Address, b: Address): Pool | undefined {
    const [t0, t1] = a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a];
    return this.all().find((p) => p.dex === dex && p.token0.toLowerCase() === t0.toLowerCase() && p.token1.toLowerCase() === t1.toLowerCase());
  }

  /** Reserves of (in, out) for a trade of `tokenIn` through `pool`. */
  sides(pool: Pool, tokenIn: Address): [bigint, bigint] {
    return tokenIn.toLowerCase() === pool.token0.toLowerCase() ? [pool.r0, pool.r1] : [pool.r1, pool.r0];
  }

  quote(pool: Pool, tokenIn: Address, amountIn: bigint): bigint {
    const [rin, rout] = this.sides(pool, tokenIn);
    return v2AmountOut(amountIn, rin, rout);
  }

  /** Applies a swap to the mirror and returns the output. */
  swap(pool: Pool, tokenIn: Address, amountIn: bigint): bigint {
    const out = this.quote(pool, tokenIn, amountIn);
    if (tokenIn.toLowerCase() === pool.token0.toLowerCase()) {
      pool.r0 += amountIn;
      pool.r1 -= out;
    } else {
      pool.r1 += amountIn;
      pool.r0 -= out;
    }
    return out;
  }

  /** Price of `token` in units of `quote` (both raw units scaled by their decimals). */
  price(pool: Pool, token: Address, tokenDecimals: number, quoteDecimals: number): number {
    const [rt, rq] = this.sides(pool, token);
    if (rt === 0n) return 0;
    return (Number(rq) / 10 ** quoteDecimals) / (Number(rt) / 10 ** tokenDecimals);
  }

  /** Re-reads reserves of the given pools (or all) with one batch of eth_calls. */
  async refresh(rpc: WorldRpc, pools: Pool[] = this.all()): Promise<void> {
    if (!pools.length) return;
    const results = await rpc.batch(pools.map((p) => ({ method: 'eth_call', params: [{ to: p.pair, data: GET_RESERVES }, 'latest'] })));
    pools.forEach((p, i) => {
      const data = results[i] as string | undefined;
      if (!data || data.length < 2 + 128) return;
      p.r0 = BigInt(`0x${data.slice(2, 66)}`);
      p.r1 = BigInt(`0x${data.slice(66, 130)}`);
    });
  }
}
