/**
 * Claimable airdrops on the shared world: demo wallet #1 is eligible for every airdrop the world
 * plants and never claims, so its allocations are checked against the labels, their statuses
 * against the distributors on chain, and the claim the skill returns is sent as demo wallet #1
 * and moves exactly the allocation. A distributor whose published leaves do not rebuild its root
 * is planted here and must be refused, not read.
 */
import { createWalletClient, encodeFunctionData, erc20Abi, http, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MerkleAirdropFactory, MerkleDistributor } from '../../chain/artifacts/index.js';
import { demoAccount } from '../../chain/accounts.js';
import { EMBEDDED_AIRDROP_FACTORY } from '../../chain/chains.js';
import { AirdropTree } from '../../chain/merkle-airdrop.js';
import { viemChain } from '../../chain/runtime.js';
import { loadMarket } from '../../skills/data/load.js';
import { json, postJson, walletPoster } from '../helpers/sibyl.js';
import { SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';
import { creditedMcpClient } from '../helpers/mcp-credits.js';
import { startSharedWorldSibyl, type WorldSibyl } from '../helpers/world.js';

const PATH = '/api/a2a/skills/claimable-airdrops';
const DEMO = demoAccount(1).address;
let w: WorldSibyl;

beforeAll(async () => {
  w = await startSharedWorldSibyl();
}, 300_000);
afterAll(() => w?.close());

const payer = () => walletPoster(w.sibyl.url, '5', w.rpcUrl);
const sender = (account: Address) => createWalletClient({ account, chain: viemChain('base', w.rpcUrl), transport: http(w.rpcUrl) });
const send = async (from: Address, to: Address, data: Hex) => {
  const receipt = await w.client.waitForTransactionReceipt({ hash: await sender(from).sendTransaction({ to, data } as never) });
  expect(receipt.status).toBe('success');
};
const isClaimed = (distributor: Address, index: number) => w.client.readContract({ address: distributor, abi: MerkleDistributor.abi, functionName: 'isClaimed', args: [BigInt(index)] });
const balanceOf = (token: Address, of: Address) => w.client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [of] });
const scanOf = async (address: Address, chain?: string) => {
  const res = await w.post(PATH, { params: { address, ...(chain && { chain }) } });
  const body = await json(res);
  expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
  return body.response;
};

interface Allocation { distributor: Address; token: Address; index: number; amount: string; amountRaw: string; status: string; valueUsd: number | null; deadline: { unix: number; iso: string }; claim: { to: Address; data: Hex; proof: Hex[] } | null }

describe('claimable airdrops on the world', () => {
  it('demo wallet #1: its allocations are the labels\', each status the chain\'s, paid at the spec price; the claim it returns claims exactly the amount', async () => {
    const p = await payer();
    const before = await p.balance();
    const res = await p.post(PATH, { params: { address: DEMO, chain: 'base' } });
    const body = await json(res);
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(before - (await p.balance())).toBe(SPEC_SKILL_PRICE['claimable-airdrops']);
    const answer = body.response;
    expect(answer).toMatchObject({ owner: DEMO.toLowerCase(), errors: [], methodology: expect.stringContaining('airdrops/v1') });
    const scan = answer.chains[0];
    expect(scan).toMatchObject({ chain: 'base', factory: EMBEDDED_AIRDROP_FACTORY, unreadable: [] });
    const allocations = scan.allocations as Allocation[];

    // Demo wallet #1 is among the eligible of every airdrop the world planted.
    const key = (distributor: string, index: number) => `${distributor.toLowerCase()}:${index}`;
    const labelled = w.labels.airdrops.flatMap((a) => a.allocations.filter((l) => l.account === DEMO).map((l) => [key(a.distributor, l.index), a.token.toLowerCase(), l.amount, a.deadline]));
    expect(labelled.length).toBe(w.labels.airdrops.length);
    expect(labelled.length).toBeGreaterThanOrEqual(2);
    expect(scan.distributors).toBe(w.labels.airdrops.length);
    expect(allocations.map((a) => [key(a.distributor, a.index), a.token.toLowerCase(), a.amountRaw, a.deadline.unix]).sort()).toEqual(labelled.sort());

    // Each status as the distributor has it at the block read; the world has one expired and at least one open.
    const head = await w.client.getBlock({ blockNumber: BigInt(scan.asOf.block) });
    for (const a of allocations) {
      const claimed = await isClaimed(a.distributor, a.index);
      const funds = await balanceOf(a.token, a.distributor);
      const expected = claimed ? 'claimed' : BigInt(a.deadline.unix) < head.timestamp ? 'expired' : funds < BigInt(a.amountRaw) ? 'unfunded' : 'claimable';
      expect(a.status, key(a.distributor, a.index)).toBe(expected);
      expect(a.claim === null, key(a.distributor, a.index)).toBe(expected !== 'claimable');
    }
    expect(allocations.map((a) => a.status)).toEqual(expect.arrayContaining(['expired', 'claimable']));
    // Valued at the index's price of the token.
    const { market } = await loadMarket(w.sibyl.context, 'base');
    for (const a of allocations) expect(a.valueUsd, a.token).toBeCloseTo(Number(a.amount) * market.priceNow(a.token)!.usd, 1);
    expect(scan.claimableUsd).toBeCloseTo(allocations.filter((a) => a.status === 'claimable').reduce((s, a) => s + a.valueUsd!, 0), 1);

    // The unsigned claim, sent as demo wallet #1 (any account may send on the world's chain), pays exactly the allocation.
    const open = allocations.find((a) => a.status === 'claimable')!;
    const held = await balanceOf(open.token, DEMO);
    await send(DEMO, open.claim!.to, open.claim!.data);
    expect((await balanceOf(open.token, DEMO)) - held).toBe(BigInt(open.amountRaw));
    expect(await isClaimed(open.distributor, open.index)).toBe(true);
    const again = (await scanOf(DEMO, 'base')).chains[0].allocations as Allocation[];
    expect(again.find((a) => a.distributor === open.distributor && a.index === open.index)).toMatchObject({ status: 'claimed', claim: null });
  });

  it('a distributor whose published leaves do not rebuild its root is listed as unreadable, and none of its leaves is trusted', async () => {
    // Someone creates a distributor through the factory publishing demo wallet #1 a leaf the tree on chain does not hold.
    const token = w.labels.airdrops[0]!.token;
    const honest = [{ index: 0n, account: demoAccount(2).address, amount: 10n ** 18n }];
    const root = new AirdropTree(honest).root;
    const creator = w.labels.wallets.whales[0]!;
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 86_400);
    await send(creator, EMBEDDED_AIRDROP_FACTORY, encodeFunctionData({ abi: MerkleAirdropFactory.abi, functionName: 'createDistributor', args: [token, root, deadline, [0n], [DEMO], [10n ** 24n]] }));

    const scan = (await scanOf(DEMO)).chains[0];
    expect(scan.unreadable).toEqual([{ distributor: expect.any(String), reason: expect.stringContaining('merkleRoot() on chain') }]);
    const forged = scan.unreadable[0].distributor.toLowerCase();
    expect(await w.client.readContract({ address: forged, abi: MerkleDistributor.abi, functionName: 'merkleRoot' })).toBe(root);
    expect((scan.allocations as Allocation[]).some((a) => a.distributor.toLowerCase() === forged)).toBe(false);
    expect(scan.allocations).toHaveLength(w.labels.airdrops.length);
  });

  it('over MCP: analyze_wallet kind airdrops debits the skill\'s price from the credits and answers what A2A answers', async () => {
    const { client, credits } = await creditedMcpClient(w.sibyl.url, w.rpcUrl);
    try {
      const result = await client.callTool({ name: 'analyze_wallet', arguments: { walletAddress: DEMO, chain: 'base', kind: 'airdrops' } });
      const body = result.structuredContent as any;
      expect(body).toMatchObject({ available: true, skill: 'claimable-airdrops', kind: 'airdrops', owner: DEMO.toLowerCase() });
      const balance = await credits();
      expect(1_000_000n - balance).toBe(SPEC_SKILL_PRICE['claimable-airdrops']);
      const a2a = (await scanOf(DEMO, 'base')).chains[0];
      expect(body.chains[0].allocations).toEqual(a2a.allocations);
    } finally {
      await client.close();
    }
  });

  it('an allocation never claimed is a forgotten reward: forgotten-assets-scan lists it with the claim claimable-airdrops gives', async () => {
    const head = Number((await w.client.getBlock()).timestamp);
    const open = w.labels.airdrops.filter((a) => a.deadline > head);
    const unclaimed = open.flatMap((a) => a.allocations.filter((l) => l.account.toLowerCase() !== DEMO.toLowerCase() && !a.claims.some((c) => c.index === l.index)).map((l) => ({ a, l })))[0];
    expect(unclaimed, 'the world leaves allocations unclaimed').toBeDefined();
    const res = await w.post('/api/a2a/skills/forgotten-assets-scan', { params: { address: unclaimed!.l.account, chain: 'base' } });
    expect(res.status).toBe(200);
    const items = (await json(res)).response.chains[0].items.filter((i: { kind: string }) => i.kind === 'unclaimed-airdrop');
    const drops = (await scanOf(unclaimed!.l.account, 'base')).chains[0].allocations.filter((x: { status: string }) => x.status === 'claimable');
    expect(items.map((i: any) => [i.distributor.toLowerCase(), i.balance, i.claim.data])).toEqual(drops.map((x: any) => [x.distributor.toLowerCase(), x.amount, x.claim.data]));
    expect(items.some((i: any) => i.distributor.toLowerCase() === unclaimed!.a.distributor.toLowerCase())).toBe(true);
  });

  it('an address with no allocation: an empty list and what was read, never an error; a malformed address is a 400 before any 402', async () => {
    const nobody = privateKeyToAccount(generatePrivateKey()).address;
    const empty = await scanOf(nobody);
    expect(empty).toMatchObject({ owner: nobody.toLowerCase(), claimableUsd: 0, errors: [] });
    expect(empty.chains.map((c: { chain: string; allocations: unknown[]; distributors: number }) => [c.chain, c.allocations, c.distributors > 0])).toEqual([['base', [], true]]);
    const bad = await postJson(`${w.sibyl.url}${PATH}`, { params: { address: '0x123' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await json(bad))).toContain('params.address');
  });
});
