/**
 * The sandwich bots' labels say what the chain did (world/behaviours/sandwiches.ts): an attack is
 * labelled once its block is mined and only if all three legs succeeded. The world's own
 * receipts are read in test/world/world.test.ts; here a host reports the legs' outcomes.
 */
import { describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import { Rng } from '../../lib/random.js';
import type { MarketHost } from '../../world/behaviours/behaviour.js';
import { Sandwichers } from '../../world/behaviours/sandwiches.js';
import { emptyLabels } from '../../world/labels.js';
import { Market, type Pool } from '../../world/market.js';

const ATTACKER = '0x00000000000000000000000000000000000a77ac' as Address;
const VICTIM = '0x00000000000000000000000000000000000f1c71' as Address;
const QUOTE = '0x0000000000000000000000000000000000000001' as Address;
const TOKEN = '0x0000000000000000000000000000000000000002' as Address;
const PAIR = '0x0000000000000000000000000000000000000003' as Address;
const BLOCK = 7;

/** A host whose block, once "mined", reports `outcome` for the transactions a behaviour watches. */
function hostMining(outcome: (index: number) => boolean) {
  const market = new Market();
  const pool: Pool = market.add({ pair: PAIR, dex: 0, token0: QUOTE, token1: TOKEN, r0: 10n ** 24n, r1: 10n ** 24n });
  const labels = emptyLabels('base', 'sandwich-test');
  const queue: string[] = [];
  const mined: (() => void)[] = [];
  const host = {
    labels,
    market,
    rng: new Rng('sandwich-test'),
    actors: () => [ATTACKER],
    balance: () => 10n ** 30n,
    swap: (actor: Address, p: Pool, tokenIn: Address, amountIn: bigint) => {
      queue.push(`${actor} sells ${tokenIn}`);
      return market.swap(p, tokenIn, amountIn);
    },
    queued: () => queue.length,
    onSettled: (txs: readonly number[], fn: (block: number, succeeded: readonly boolean[]) => void) => void mined.push(() => fn(BLOCK, txs.map(outcome))),
    onMined: (fn: (block: number) => void) => void mined.push(() => fn(BLOCK)),
  } as unknown as MarketHost;
  return { host, pool, queue, mine: () => mined.splice(0).forEach((m) => m()) };
}

describe('sandwich labels', () => {
  it('label an attack whose three legs succeeded, once its block is mined', () => {
    const { host, pool, queue, mine } = hostMining(() => true);
    new Sandwichers().around(host, VICTIM, pool, QUOTE, 10n ** 22n, 1_000);
    expect(queue).toEqual([`${ATTACKER} sells ${QUOTE}`, `${VICTIM} sells ${QUOTE}`, `${ATTACKER} sells ${TOKEN}`]);
    expect(host.labels.sandwiches).toEqual([]);
    mine();
    expect(host.labels.sandwiches).toEqual([{ pool: PAIR, attacker: ATTACKER, victim: VICTIM, victimUsd: 1_000, block: BLOCK }]);
  });

  it('leave out an attack whose back leg reverted on chain (it only front-ran its victim)', () => {
    const { host, pool, queue, mine } = hostMining((i) => i !== 2);
    new Sandwichers().around(host, VICTIM, pool, QUOTE, 10n ** 22n, 1_000);
    expect(queue).toHaveLength(3);
    mine();
    expect(host.labels.sandwiches).toEqual([]);
  });
});
