import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zeroAddress, type Address } from 'viem';
import { demoAccount } from '../../chain/accounts.js';
import { ChainRuntime } from '../../chain/runtime.js';
import { MemoryStore } from '../../store/memory.js';
import { IndexedFunding } from './funding.js';
import { fundedPolygon, type FundedChain } from './funding-devnet.js';

const T0 = 1_790_000_000;
const HOUR = 3_600;
const account = (n: number) => `0x${(0xf00d0000 + n).toString(16).padStart(40, '0')}` as Address;

describe('an account\'s first funding, read from the Polygon index', () => {
  let chain: FundedChain;

  beforeAll(async () => {
    chain = await fundedPolygon(T0 - 30 * 86_400);
    await chain.fund([
      { to: account(1), at: T0, usd: 25_000 },
      { to: account(1), at: T0 + 2 * HOUR, usd: 5 },
      { to: account(2), at: T0 + HOUR, usd: 1_234.5, fromDemo: 3 },
      { to: account(5), at: T0 - 30 * 86_400 + HOUR, usd: 10 },
    ]);
  }, 60_000);
  afterAll(() => chain?.stop());

  it('gives the first USDC transfer an account received: its block time, amount and sender', async () => {
    const funding = new IndexedFunding(chain.store, chain.chains);
    expect(await funding.firstFunding(account(1))).toMatchObject({ status: 'funded', funding: { time: T0, amountUsd: 25_000, from: zeroAddress, censored: false } });
    // Funded in the first day of the history read: it may have been funded before, so its age is only a lower bound.
    expect(await funding.firstFunding(account(5))).toMatchObject({ status: 'funded', funding: { time: T0 - 30 * 86_400 + HOUR, censored: true } });
    const sent = await funding.firstFunding(account(2).toUpperCase().replace('0X', '0x'));
    expect(sent).toMatchObject({ status: 'funded', funding: { time: T0 + HOUR, amountUsd: 1_234.5, from: demoAccount(3).address.toLowerCase() } });
    // The funder, a demo account, was first funded at genesis, not by the mint before it sent.
    const funder = await funding.firstFunding(demoAccount(3).address);
    expect(funder.status === 'funded' && funder.funding.time).toBeLessThan(T0 - 29 * 86_400);
    expect(await funding.firstFunding(account(9))).toMatchObject({ status: 'none' });
    const provenance = await funding.provenance();
    expect(provenance.source).toMatch(/^index:polygon@\d+$/);
    expect(Date.parse(provenance.through!) / 1000).toBe(T0 + 2 * HOUR);
  });

  it('reads what the index adds later, keeping each account\'s first funding', async () => {
    const funding = new IndexedFunding(chain.store, chain.chains);
    expect(await funding.firstFunding(account(4))).toMatchObject({ status: 'none' });
    await chain.fund([{ to: account(4), at: T0 + 5 * HOUR, usd: 9_000 }, { to: account(1), at: T0 + 6 * HOUR, usd: 50_000 }]);
    expect(await funding.firstFunding(account(4))).toMatchObject({ status: 'funded', funding: { time: T0 + 5 * HOUR, amountUsd: 9_000 } });
    expect(await funding.firstFunding(account(1))).toMatchObject({ status: 'funded', funding: { time: T0, amountUsd: 25_000 } });
  });

  it('a chain that is not connected, or not indexed, is unreadable: never "no funding"', async () => {
    const disconnected = new IndexedFunding(chain.store, new ChainRuntime());
    expect(await disconnected.firstFunding(account(1))).toMatchObject({ status: 'unreadable', reason: expect.stringMatching(/not connected/) });
    expect((await disconnected.provenance()).unreadable).toMatch(/not connected/);
    const unindexed = new IndexedFunding(new MemoryStore(), chain.chains);
    expect(await unindexed.firstFunding(account(1))).toMatchObject({ status: 'unreadable', reason: expect.stringMatching(/not indexed/) });
  });
});
