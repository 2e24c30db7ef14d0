/**
 * Mempool watch on the shared world: while a paid watch listens, world actors send a large swap,
 * an approval to one of the world's drainers, a sandwich (three swaps sealed into one block) and
 * a small swap. The report must name exactly what was sent, each with the block that took it,
 * and charge the spec's price; a window outside 30-120 s is refused before any 402.
 */
import { createWalletClient, erc20Abi, getAddress, http, maxUint256, parseAbi, parseUnits, type Address, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAINS } from '../../chain/chains.js';
import { viemChain } from '../../chain/runtime.js';
import { json, postJson, rpc, walletPoster } from '../helpers/sibyl.js';
import { SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';
import { startSharedWorldSibyl, type WorldSibyl } from '../helpers/world.js';

const routerAbi = parseAbi(['function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[])']);
const [USDC, WETH] = [CHAINS.base.usdc, CHAINS.base.wrappedNative];

let w: WorldSibyl;
beforeAll(async () => {
  w = await startSharedWorldSibyl();
}, 300_000);
afterAll(() => w?.close());

describe('mempool watch on the world', () => {
  it('reports the large swap, the drainer approval and the sandwich sent during its window, with their blocks; not the small swap', { timeout: 120_000 }, async () => {
    const router = w.labels.contracts.routers[0]!;
    const [whale, attacker, victim, small] = [w.labels.wallets.whales[0]!, w.labels.wallets.sandwichers[0]!, w.labels.wallets.whales[1]!, w.labels.wallets.smartMoney[0]!].map((a) => getAddress(a));
    const send = (from: Address, to: Address, data: { abi: any; functionName: string; args: readonly unknown[] }) =>
      createWalletClient({ account: from, chain: viemChain('base', w.rpcUrl), transport: http(w.rpcUrl) }).writeContract({ address: to, ...data, gas: 400_000n } as never);
    const swap = (from: Address, tokenIn: Address, tokenOut: Address, amount: bigint) => send(from, router, { abi: routerAbi, functionName: 'swapExactTokensForTokens', args: [amount, 0n, [tokenIn, tokenOut], from, 2n ** 40n] });

    const p = await walletPoster(w.sibyl.url, '5', w.rpcUrl);
    const before = await p.balance();
    const watch = p.post('/api/a2a/skills/mempool-watch', { params: { chain: 'base', windowSeconds: 30 } });
    watch.catch(() => undefined); // awaited below; a failure before then must not go unhandled
    await new Promise((r) => setTimeout(r, 5_000)); // paid and listening

    const large = await swap(whale!, USDC, WETH, parseUnits('50000', 6));
    const phished = privateKeyToAccount(generatePrivateKey()).address;
    await rpc(w.rpcUrl, 'anvil_setBalance', [phished, '0xde0b6b3a7640000']); // 1 ETH of gas
    const drainer = getAddress(w.labels.drainers[0]!.contract);
    const approval = await send(phished, USDC, { abi: erc20Abi, functionName: 'approve', args: [drainer, maxUint256] });
    // The sandwich is sealed into one block in the order sent: front, victim, back.
    await rpc(w.rpcUrl, 'evm_setAutomine', [false]);
    let legs: [Hash, Hash, Hash];
    try {
      legs = [await swap(attacker!, USDC, WETH, parseUnits('20000', 6)), await swap(victim!, USDC, WETH, parseUnits('3000', 6)), await swap(attacker!, WETH, USDC, parseUnits('2', 18))];
      await rpc(w.rpcUrl, 'evm_mine', []);
    } finally {
      await rpc(w.rpcUrl, 'evm_setAutomine', [true]);
    }
    const smallSwap = await swap(small!, USDC, WETH, parseUnits('50', 6));
    const blockOf = async (hash: Hash) => Number((await w.client.waitForTransactionReceipt({ hash })).blockNumber);

    const res = await watch;
    const body = await json(res);
    expect(res.status, JSON.stringify(body).slice(0, 400)).toBe(200);
    expect(before - (await p.balance())).toBe(SPEC_SKILL_PRICE['mempool-watch']);
    const r = body.response;
    expect(r).toMatchObject({ chain: 'base', window: { seconds: 30 }, methodology: expect.stringContaining('mempool/v1') });
    // "Large" by the chain's own last day of swaps, not a fixed $10,000: the 50,000 USDC swap is above it, the 50 USDC one below.
    expect(r.largeSwapRule).toMatchObject({ basis: 'chain-quantile', note: expect.stringContaining('95th percentile') });
    expect(r.largeSwapRule.minUsd).toBeGreaterThan(50);
    expect(r.largeSwapRule.minUsd).toBeLessThan(50_000);
    expect(r.seen.transactions).toBeGreaterThanOrEqual(6);
    expect(r.seen.swaps).toBeGreaterThanOrEqual(5);

    const bigRow = r.largeSwaps.find((s: any) => s.tx === large);
    expect(bigRow).toMatchObject({ from: whale, symbolIn: 'USDC', symbolOut: 'WETH', amountIn: '50000', exactIn: true, includedIn: await blockOf(large) });
    expect(bigRow.usd).toBeCloseTo(50_000, 0);
    expect(r.largeSwaps.some((s: any) => s.tx === smallSwap)).toBe(false);

    expect(r.drainerApprovals).toHaveLength(1);
    expect(r.drainerApprovals[0]).toMatchObject({ tx: approval, owner: phished, spender: drainer, unlimited: true, includedIn: await blockOf(approval) });
    expect(r.drainerApprovals[0].drained.length).toBeGreaterThanOrEqual(2);

    expect(r.pendingSandwiches).toEqual([expect.objectContaining({ attacker, victim, front: legs![0], victimTx: legs![1], back: legs![2], includedIn: await blockOf(legs![2]!) })]);
    expect(r.pendingSandwiches[0].victimUsd).toBeCloseTo(3_000, 0);
  });

  it('a window outside 30-120 s is a 400 naming the field, before any 402', async () => {
    for (const windowSeconds of [29, 121]) {
      const res = await postJson(`${w.sibyl.url}/api/a2a/skills/mempool-watch`, { params: { windowSeconds } });
      expect(res.status).toBe(400);
      expect(JSON.stringify(await json(res))).toContain('params.windowSeconds');
    }
  });
});
