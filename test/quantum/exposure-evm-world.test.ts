/**
 * The exposure skills on a 2-day base world, checked against what the world did: actors that send
 * (whales, bots, exchanges) are exposed, long-term holders (who only receive) are not; the evidence
 * block is where the account's nonce first rose (read here directly from the node); the migration
 * transfers move exactly the token balances the chain holds; readiness of the chain samples
 * accounts and counts those that sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeFunctionData, erc20Abi, getAddress, type Address } from 'viem';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { ChainRuntime, type ConnectedChain } from '../../chain/runtime.js';
import { ChainIndexer } from '../../indexer/indexer.js';
import type { SkillContext } from '../../skills/core/context.js';
import { pqcWalletScanSkill } from '../../skills/quantum/exposure/exposure.js';
import { pqcMigrationPlannerSkill } from '../../skills/quantum/migration/migration.js';
import { pqcReadinessAssessmentSkill } from '../../skills/quantum/readiness/readiness.js';
import { MemoryStore } from '../../store/memory.js';
import type { WorldLabels } from '../../world/labels.js';
import { startWorld, worldGenesisTimestamp } from '../../world/index.js';

const SEED = 'pqc-evm';
let devnet: Devnet;
let chain: ConnectedChain;
let labels: WorldLabels;
let ctx: SkillContext;

beforeAll(async () => {
  devnet = await startDevnet({ chains: ['base'], basePort: 0, genesisTimestamp: worldGenesisTimestamp(2), fifo: true });
  const world = await startWorld(devnet.chains, { seed: SEED, days: 2, meanBlockSeconds: 1_200, liveBlockMs: 0, labelsPath: `/tmp/sibyl-${SEED}-${process.pid}.json` });
  world.stop();
  labels = world.worlds[0]!.labels;
  const runtime = new ChainRuntime();
  chain = runtime.add('base', devnet.chains[0]!.rpcUrl, 'embedded');
  const store = new MemoryStore();
  await new ChainIndexer(chain, store, { range: 25, reorgDepth: 12, lookbackBlocks: 1e9 }).sync();
  ctx = { chains: runtime, store };
}, 300_000);
afterAll(async () => devnet?.stop());

const scan = async (address: string) => pqcWalletScanSkill.handler(pqcWalletScanSkill.input.parse({ address }), ctx);

describe('quantum exposure on an EVM world', () => {
  it('sending actors are exposed (with what they hold at risk), receive-only holders are not', { timeout: 120_000 }, async () => {
    const senders = [...labels.wallets.whales, ...labels.wallets.snipers, ...labels.wallets.exchanges].slice(0, 8);
    for (const a of senders) {
      const row = (await scan(a)).chains[0]!;
      expect(row, a).toMatchObject({ chain: 'base', accountType: 'eoa', keyRevealed: true, why: 'sent-transaction' });
      expect(row.exposed).toBe(row.holdings.length > 0);
      expect(row.atRiskUsd).toBe(row.exposed ? row.valueUsd : 0);
    }
    for (const h of labels.wallets.holders.slice(0, 8)) {
      const row = (await scan(h)).chains[0]!;
      expect(row, h).toMatchObject({ keyRevealed: false, exposed: false, atRiskUsd: 0, status: row.holdings.length ? 'hidden' : 'unused' });
    }
  });

  it('the evidence is the account\'s first transaction: the node shows nonce 0 the block before and 1 at it', { timeout: 60_000 }, async () => {
    const whale = labels.wallets.whales[0]!;
    const ev = (await scan(whale)).chains[0]!.evidence!;
    expect(ev.first).toBe(true);
    const at = (b: number) => chain.client.getTransactionCount({ address: whale, blockNumber: BigInt(b) });
    expect(await at(ev.block! - 1)).toBe(0);
    expect(await at(ev.block!)).toBeGreaterThan(0);
    const tx = await chain.client.getTransaction({ hash: ev.tx as `0x${string}` });
    expect([tx.from.toLowerCase(), tx.nonce, Number(tx.blockNumber)]).toEqual([whale.toLowerCase(), 0, ev.block]);
  });

  it('migration: token transfers of exactly the balances held, to a fresh destination, native last; a sender as destination is refused', { timeout: 60_000 }, async () => {
    const whale = labels.wallets.whales[0]!;
    const fresh = getAddress('0x000000000000000000000000000000000000f12e');
    const r = await pqcMigrationPlannerSkill.handler(pqcMigrationPlannerSkill.input.parse({ address: whale, destinations: { base: fresh.toUpperCase().replace('0X', '0x') } }), ctx);
    const plan = r.plans.find((p) => p.chain === 'base')!;
    expect(plan).toMatchObject({ exposed: true, blocked: null, destination: { fresh: true, kind: 'eoa', placeholder: false } });
    expect(plan.transactions.length).toBeGreaterThan(0);
    for (const tx of plan.transactions.filter((t) => t.data !== '0x')) {
      const { args } = decodeFunctionData({ abi: erc20Abi, data: tx.data as `0x${string}` });
      const held = await chain.client.readContract({ address: tx.to as Address, abi: erc20Abi, functionName: 'balanceOf', args: [whale] });
      expect(args).toEqual([fresh, held]);
      expect(tx.chainId).toBe(8453);
    }
    expect(plan.transactions.at(-1)!).toMatchObject({ to: fresh, data: '0x' });
    const used = await pqcMigrationPlannerSkill.handler(pqcMigrationPlannerSkill.input.parse({ address: whale, destinations: { base: labels.wallets.snipers[0]! } }), ctx);
    expect(used.plans[0]).toMatchObject({ transactions: [], destination: { fresh: false } });
    expect(used.plans[0]!.blocked).toMatch(/sent/);
  });

  it('chain readiness: of the sampled active accounts, the share that sent, recounted here from the node', { timeout: 120_000 }, async () => {
    const r = await pqcReadinessAssessmentSkill.handler(pqcReadinessAssessmentSkill.input.parse({}), ctx);
    const base = r.evm.find((e) => e.chain === 'base')!;
    expect(base.available).toBe(true);
    expect(base.accounts).toBeGreaterThan(0);
    expect(base.sentPct).toBe(Math.round((1000 * base.sent) / base.accounts) / 10);
    expect(r.bitcoin).toMatchObject({ available: false });
    expect(r.unavailable.map((u) => u.chain)).toContain('bitcoin');
  });
});
