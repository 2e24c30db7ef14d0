import { beforeEach, describe, expect, it } from 'vitest';
import { encodeFunctionData, erc20Abi, getAddress, maxUint256, parseAbi, type Address, type Hash } from 'viem';
import { builderOrder, decodePending, FALLBACK_LARGE_SWAP_USD, findPendingSandwiches, firstHopPool, largeSwapRule, MIN_SWAPS_FOR_SCALE, type PendingSwap, type PendingTx } from './engine.js';
import { addr, TKN_USDC, tokenUsdc, units } from '../data/testing/fixtures.js';

const ROUTER = addr(0x7007);
const [USDC, WETH, TOKEN] = [addr(0x0c), addr(0x0e), addr(0x70c)];
const routers = new Map([[ROUTER, 'uniswap-v2']]);
const routerAbi = parseAbi([
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapTokensForExactTokens(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function addLiquidity(address, address, uint256, uint256, uint256, uint256, address, uint256)',
]);
const swapData = (amountIn: bigint, path: Address[]) => encodeFunctionData({ abi: routerAbi, functionName: 'swapExactTokensForTokens', args: [amountIn, 0n, path, addr(1), 2n ** 40n] });

let arrival = 0;
const nonces = new Map<string, number>();
// Every test starts from the same pool: first arrival, every sender at nonce 0 (alone or after the others).
beforeEach(() => {
  arrival = 0;
  nonces.clear();
});
/** A transaction entering the pool now (seenAt), with the sender's next nonce. */
const tx = (from: Address, to: Address | null, input: `0x${string}`, priorityFee = 1n, value = 0n, seenAt = 0): PendingTx => {
  const nonce = nonces.get(from) ?? 0;
  nonces.set(from, nonce + 1);
  return { hash: `0x${(++arrival).toString(16).padStart(64, '0')}` as Hash, from: getAddress(from), to: to && getAddress(to), input, value, nonce, priorityFee, seenAt, arrival, blockNumber: null };
};

describe('mempool/v1 decoding', () => {
  it('reads router swaps (exact in, exact out, native in), approvals and deployments from calldata alone', () => {
    expect(decodePending(tx(addr(1), ROUTER, swapData(5n, [USDC, WETH])), routers, WETH)).toMatchObject({ kind: 'swap', dex: 'uniswap-v2', tokenIn: getAddress(USDC), tokenOut: getAddress(WETH), amountIn: 5n, exactIn: true });
    const exactOut = encodeFunctionData({ abi: routerAbi, functionName: 'swapTokensForExactTokens', args: [1n, 9n, [USDC, WETH, TOKEN], addr(1), 1n] });
    expect(decodePending(tx(addr(1), ROUTER, exactOut), routers, WETH)).toMatchObject({ kind: 'swap', amountIn: 9n, exactIn: false, tokenOut: getAddress(TOKEN) });
    const native = encodeFunctionData({ abi: routerAbi, functionName: 'swapExactETHForTokens', args: [0n, [WETH, TOKEN], addr(1), 1n] });
    expect(decodePending(tx(addr(1), ROUTER, native, 1n, 7n), routers, WETH)).toMatchObject({ kind: 'swap', amountIn: 7n, tokenIn: getAddress(WETH) });
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [addr(0xd1), maxUint256] });
    expect(decodePending(tx(addr(1), USDC, approve), routers, WETH)).toEqual({ kind: 'approve', token: getAddress(USDC), spender: getAddress(addr(0xd1)), amount: maxUint256 });
    expect(decodePending(tx(addr(1), null, '0x6080'), routers, WETH)).toEqual({ kind: 'deploy' });
    // A router call that is no swap, and a swap's calldata sent to a contract that is no known router.
    const liquidity = encodeFunctionData({ abi: routerAbi, functionName: 'addLiquidity', args: [USDC, WETH, 1n, 1n, 0n, 0n, addr(1), 1n] });
    expect(decodePending(tx(addr(1), ROUTER, liquidity), routers, WETH)).toEqual({ kind: 'other' });
    expect(decodePending(tx(addr(1), addr(0xbad), swapData(5n, [USDC, WETH])), routers, WETH)).toEqual({ kind: 'other' });
  });

  it('finds a swap\'s first-hop pool on its own DEX only', () => {
    const pools = [{ pair: 'p1', dex: 'uniswap-v2', token0: USDC, token1: WETH, r0: 1n, r1: 1n }, { pair: 'p2', dex: 'sushiswap-v2', token0: USDC, token1: WETH, r0: 1n, r1: 1n }];
    expect(firstHopPool(pools, 'uniswap-v2', [getAddress(WETH), getAddress(USDC)])).toBe('p1');
    expect(firstHopPool(pools, 'sushiswap-v2', [getAddress(USDC), getAddress(WETH)])).toBe('p2');
    expect(firstHopPool(pools, 'other', [getAddress(USDC), getAddress(WETH)])).toBeNull();
  });
});

describe('mempool/v1 pending sandwiches', () => {
  const [ATTACKER, VICTIM, OTHER] = [addr(0xa), addr(0xb), addr(0xc)];
  const swap = (from: Address, side: Address, pool = 'p1', priorityFee = 1n, seenAt = 0): PendingSwap => {
    const t = tx(from, ROUTER, swapData(1n, side === USDC ? [USDC, WETH] : [WETH, USDC]), priorityFee, 0n, seenAt);
    return { tx: t, swap: decodePending(t, routers, WETH) as PendingSwap['swap'], pool, side: side.toLowerCase() };
  };

  it('a front and back by one sender around another\'s swap the same way, on one pool', () => {
    const front = swap(ATTACKER, USDC);
    const victim = swap(VICTIM, USDC);
    const back = swap(ATTACKER, WETH);
    expect(findPendingSandwiches([front, victim, back])).toEqual([{ pool: 'p1', attacker: getAddress(ATTACKER), victim: getAddress(VICTIM), front: front.tx.hash, victimTx: victim.tx.hash, back: back.tx.hash }]);
  });

  it('of two swaps the same way near the legs, the one that came between them is the victim', () => {
    const whale = swap(OTHER, USDC);
    const front = swap(ATTACKER, USDC);
    const victim = swap(VICTIM, USDC);
    const back = swap(ATTACKER, WETH);
    expect(findPendingSandwiches([whale, front, victim, back])).toEqual([expect.objectContaining({ victimTx: victim.tx.hash })]);
  });

  it('legs seen in any order around a victim on equal bids (a node need not keep the order they came in)', () => {
    const back = swap(ATTACKER, WETH);
    const victim = swap(VICTIM, USDC);
    // The front is the attacker's earlier nonce, though it reached the pool last.
    const front = { ...swap(ATTACKER, USDC) };
    front.tx = { ...front.tx, nonce: back.tx.nonce - 1 };
    expect(findPendingSandwiches([back, victim, front])).toEqual([expect.objectContaining({ front: front.tx.hash, victimTx: victim.tx.hash, back: back.tx.hash })]);
  });

  it('the builder order decides, not arrival: a victim seen first is sandwiched by a front bidding more', () => {
    const victim = swap(VICTIM, USDC, 'p1', 1n);
    const front = swap(ATTACKER, USDC, 'p1', 5n); // arrives after the victim but outbids it
    const back = swap(ATTACKER, WETH, 'p1', 1n); // same bid as the victim, later: runs after it
    expect(builderOrder([victim, front, back]).map((s) => s.tx.hash)).toEqual([front.tx.hash, victim.tx.hash, back.tx.hash]);
    expect(findPendingSandwiches([victim, front, back])).toHaveLength(1);
  });

  it('no sandwich: a round trip another swap cannot run inside (it bids below the back), a victim going the other way, legs on two pools, two senders', () => {
    expect(findPendingSandwiches([swap(ATTACKER, USDC, 'p1', 3n), swap(ATTACKER, WETH, 'p1', 2n), swap(VICTIM, USDC, 'p1', 1n)])).toEqual([]);
    expect(findPendingSandwiches([swap(ATTACKER, USDC, 'p1', 1n), swap(ATTACKER, WETH, 'p1', 1n), swap(VICTIM, USDC, 'p1', 2n)])).toEqual([]);
    expect(findPendingSandwiches([swap(ATTACKER, USDC), swap(VICTIM, WETH), swap(ATTACKER, WETH)])).toEqual([]);
    expect(findPendingSandwiches([swap(ATTACKER, USDC, 'p1'), swap(VICTIM, USDC, 'p1'), swap(ATTACKER, WETH, 'p2')])).toEqual([]);
    expect(findPendingSandwiches([swap(ATTACKER, USDC), swap(VICTIM, USDC), swap(OTHER, WETH)])).toEqual([]);
  });

  it('no sandwich: a trader buying, then selling minutes later with someone buying between; a back leg more than a few nonces on', () => {
    expect(findPendingSandwiches([swap(ATTACKER, USDC, 'p1', 1n, 0), swap(VICTIM, USDC, 'p1', 1n, 1_000), swap(ATTACKER, WETH, 'p1', 1n, 120_000)])).toEqual([]);
    const front = swap(ATTACKER, USDC);
    const victim = swap(VICTIM, USDC);
    for (let i = 0; i < 3; i++) swap(ATTACKER, USDC, 'p9'); // the attacker's next nonces go elsewhere
    expect(findPendingSandwiches([front, victim, swap(ATTACKER, WETH)])).toEqual([]);
    // One approval between the legs is a bot's bundle, still a sandwich.
    const front2 = swap(ATTACKER, USDC);
    const victim2 = swap(VICTIM, USDC);
    swap(ATTACKER, USDC, 'p9');
    expect(findPendingSandwiches([front2, victim2, swap(ATTACKER, WETH)])).toHaveLength(1);
  });
});

/**
 * "Large" is relative to the chain (magnitude words fit the chain's own scale). The
 * same $5,000 swap is large where the last day's swaps were tens to hundreds of dollars and
 * ordinary where they were tens of thousands; a fixed $10,000 called it small on both.
 */
describe('mempool/v1 large swaps, by the chain\'s own scale', () => {
  /** A TKN/USDC pool at $1 and one day of buys of `sizes` USDC each (blocks 10 on), each the side put in. */
  async function chainOf(sizes: readonly number[]) {
    const fx = tokenUsdc(1_000_000, 1_000_000);
    sizes.forEach((usdc, i) => fx.swap(10 + i, TKN_USDC, { to: addr(0xb000 + i), a1In: units(usdc, 6), a0Out: units(usdc, 18) }));
    return fx.market(10 + sizes.length);
  }
  const small = Array.from({ length: 40 }, (_, i) => 10 * (i + 1)); // $10 .. $400
  const big = Array.from({ length: 40 }, (_, i) => 20_000 * (i + 1)); // $20,000 .. $800,000

  it('the threshold is the 95th percentile of the chain\'s own swaps: $5,000 is large on a small chain, ordinary on a big one', async () => {
    const onSmall = await largeSwapRule(await chainOf(small), 0);
    const onBig = await largeSwapRule(await chainOf(big), 0);
    // 40 swaps: the 38th smallest (ceil(0.95 x 40)).
    expect(onSmall).toMatchObject({ minUsd: 380, basis: 'chain-quantile' });
    expect(onBig).toMatchObject({ minUsd: 760_000, basis: 'chain-quantile' });
    expect(5_000 >= onSmall.minUsd).toBe(true);
    expect(5_000 >= onBig.minUsd).toBe(false);
    expect(onSmall.note).toContain('95th percentile of the chain\'s 40 swaps');
  });

  it('too few swaps to measure: the fixed floor, said; a given minUsd is used as given', async () => {
    expect(await largeSwapRule(await chainOf(small.slice(0, MIN_SWAPS_FOR_SCALE - 1)), 0)).toMatchObject({ minUsd: FALLBACK_LARGE_SWAP_USD, basis: 'fixed-floor', note: expect.stringContaining('too few') });
    expect(await largeSwapRule(await chainOf(small), 0, 1_234)).toMatchObject({ minUsd: 1_234, basis: 'given' });
  });
});
