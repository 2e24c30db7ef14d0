/**
 * Drainers on the shared world (world/modules/drainers.ts): phished wallets approved a drainer
 * without limit and most were swept later. The approval scan must call the spender a drainer from
 * the chain alone (drainers/v1), with sweeps that are real transactions on chain as evidence,
 * whether the wallet asking was swept already or still holds what the drainer can take.
 */
import { erc20Abi, parseAbiItem, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAINS } from '../../chain/chains.js';
import { json, walletPoster } from '../helpers/sibyl.js';
import { SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';
import { startSharedWorldSibyl, type WorldSibyl } from '../helpers/world.js';

let w: WorldSibyl;
beforeAll(async () => {
  w = await startSharedWorldSibyl();
}, 300_000);
afterAll(() => w?.close());

const scan = async (owner: Address) => {
  const res = await w.post('/api/a2a/skills/approval-security-scan', { params: { address: owner, chain: 'base' } });
  const body = await json(res);
  expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
  return body.response;
};

/** WETH in USD at `block`: the reserves of its deepest WETH/USDC pair (by USDC held), read on chain. */
async function wethUsdAt(block: bigint): Promise<number> {
  const [weth, usdc] = [CHAINS.base.wrappedNative.toLowerCase(), CHAINS.base.usdc.toLowerCase()];
  const created = await w.client.getLogs({ event: parseAbiItem('event PairCreated(address indexed token0, address indexed token1, address pair, uint256 count)'), fromBlock: 0n, toBlock: block });
  const pairs = created.filter((l) => [weth, usdc].every((t) => [l.args.token0!.toLowerCase(), l.args.token1!.toLowerCase()].includes(t)));
  const held = await Promise.all(pairs.map(async (l) => {
    const [r0, r1] = await w.client.readContract({ address: l.args.pair!, abi: [parseAbiItem('function getReserves() view returns (uint112, uint112, uint32)')], functionName: 'getReserves', blockNumber: block });
    return l.args.token0!.toLowerCase() === weth ? { weth: r0, usdc: r1 } : { weth: r1, usdc: r0 };
  }));
  const deepest = held.reduce((a, b) => (b.usdc > a.usdc ? b : a));
  return (Number(deepest.usdc) / 1e6) / (Number(deepest.weth) / 1e18);
}

describe('drainers on the world', () => {
  it('a victim still waiting: its approval to the drainer is flagged, unlimited, with its whole balance at risk and real sweeps of others as evidence', async () => {
    const waiting = w.labels.drainerApprovals.find((a) => a.drainedBlock === null);
    expect(waiting, 'the world leaves some victims unswept').toBeDefined();
    const p = await walletPoster(w.sibyl.url, '5', w.rpcUrl);
    const before = await p.balance();
    const res = await p.post('/api/a2a/skills/approval-security-scan', { params: { address: waiting!.owner, chain: 'base' } });
    const body = await json(res);
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(before - (await p.balance())).toBe(SPEC_SKILL_PRICE['approval-security-scan']);
    const row = body.response.approvals.find((a: any) => a.spender.toLowerCase() === waiting!.drainer.toLowerCase());
    expect(row).toMatchObject({ spenderKind: 'drainer', unlimited: true });
    const balance = await w.client.readContract({ address: waiting!.token, abi: erc20Abi, functionName: 'balanceOf', args: [waiting!.owner] });
    expect(balance).toBeGreaterThan(0n);
    const decimals = waiting!.token.toLowerCase() === CHAINS.base.usdc.toLowerCase() ? 6 : 18;
    expect(Number(row.balance)).toBeCloseTo(Number(balance) / 10 ** decimals, 6);
    // Unlimited: the whole balance is at risk, at the token's price as of the scan (USDC at $1; WETH at its deepest USDC pool's reserves).
    const usdPrice = decimals === 6 ? 1 : await wethUsdAt(BigInt(body.response.asOf.block));
    expect(row.valueAtRiskUsd).toBeCloseTo((Number(balance) / 10 ** decimals) * usdPrice, 1);
    expect(body.response.methodology).toContain('drainers/v1');
    // The evidence: each named sweep is a transaction on chain that emptied another owner the labels say it swept.
    expect(row.drained.length).toBeGreaterThanOrEqual(2);
    for (const d of row.drained) {
      expect(d.owner.toLowerCase()).not.toBe(waiting!.owner.toLowerCase());
      const tx = await w.client.getTransaction({ hash: d.tx });
      expect(tx.to?.toLowerCase()).toBe(waiting!.drainer.toLowerCase());
      const label = w.labels.drainerApprovals.find((a) => a.owner.toLowerCase() === d.owner.toLowerCase());
      expect(label?.drainedBlock).toBe(Number(tx.blockNumber));
    }
  });

  it('every labelled drainer approval is flagged and no other spender of those wallets is', async () => {
    const owners = [...new Set(w.labels.drainerApprovals.map((a) => a.owner))];
    const drainers = new Set(w.labels.drainers.map((d) => d.contract.toLowerCase()));
    for (const owner of owners) {
      const { approvals } = await scan(owner);
      for (const a of approvals) expect(a.spenderKind === 'drainer', `${owner} → ${a.spender}`).toBe(drainers.has(a.spender.toLowerCase()));
      const labelled = w.labels.drainerApprovals.filter((l) => l.owner === owner);
      for (const l of labelled) expect(approvals.some((a: any) => a.spender.toLowerCase() === l.drainer.toLowerCase() && a.spenderKind === 'drainer'), owner).toBe(true);
    }
    // A market trader's spenders are routers, never drainers.
    const trader = w.labels.wallets.whales[0]!;
    expect((await scan(trader)).approvals.every((a: any) => a.spenderKind !== 'drainer')).toBe(true);
  });
});
