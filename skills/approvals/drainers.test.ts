import { describe, expect, it } from 'vitest';
import { toEventSelector, parseAbiItem, type Address, type Hash } from 'viem';
import type { ConnectedChain } from '../../chain/runtime.js';
import { CHAINS } from '../../chain/chains.js';
import { DRAINER_MIN_VICTIMS, drainerRecord } from './drainers.js';
import { addr } from '../data/testing/fixtures.js';

const TRANSFER_TOPIC = toEventSelector(parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'));
const topic = (a: Address) => `0x${a.slice(2).padStart(64, '0')}`;
const [TOKEN, OTHER_TOKEN, DRAINER, OPERATOR, SINK, VAULT, RELAYER, SOLVER, LONE] = [addr(0x70c), addr(0x70d), addr(0xd1), addr(0xd2), addr(0xd3), addr(0xa1), addr(0xb1), addr(0xb2), addr(0xc1)];
const [V1, V2, V3, V4, V5] = [addr(0x1001), addr(0x1002), addr(0x1003), addr(0x1004), addr(0x1005)];

interface Tx { hash: Hash; from: Address; to: Address; block: bigint; transfers: { token: Address; from: Address; to: Address }[] }
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hash;

/** A node with Approval and Transfer logs, transactions and receipts built from a list of transactions. */
function chainOf(approvals: { owner: Address; spender: Address; token: Address; block: bigint }[], txs: Tx[]) {
  const reads = { transactions: 0 };
  const client = {
    async getLogs({ event, args, fromBlock, toBlock }: { event: { name: string }; args: { spender?: Address; from?: Address[] }; fromBlock: bigint; toBlock: bigint }) {
      const inRange = (b: bigint) => b >= fromBlock && b <= toBlock;
      if (event.name === 'Approval') {
        return approvals.filter((a) => a.spender === args.spender!.toLowerCase() && inRange(a.block)).map((a, i) => ({
          address: a.token, topics: ['0x', '0x', '0x'], blockNumber: a.block, transactionHash: hash(9_000 + i), args: { owner: a.owner, spender: a.spender, value: 1n },
        }));
      }
      const owners = new Set(args.from!.map((o) => o.toLowerCase()));
      return txs.filter((t) => inRange(t.block)).flatMap((t) => t.transfers.filter((x) => owners.has(x.from)).map((x) => ({
        address: x.token, topics: ['0x', '0x', '0x'], blockNumber: t.block, transactionHash: t.hash, args: { from: x.from, to: x.to, value: 5n },
      })));
    },
    async getTransaction({ hash: h }: { hash: Hash }) {
      reads.transactions++;
      const t = txs.find((x) => x.hash === h)!;
      return { hash: t.hash, from: t.from, to: t.to };
    },
    async getTransactionReceipt({ hash: h }: { hash: Hash }) {
      const t = txs.find((x) => x.hash === h)!;
      return { logs: t.transfers.map((x) => ({ address: x.token, topics: [TRANSFER_TOPIC, topic(x.from), topic(x.to)] })) };
    },
  };
  return { chain: { name: 'base', spec: { ...CHAINS.base, chainId: Math.floor(Math.random() * 1e9) }, client } as unknown as ConnectedChain, reads };
}

describe('drainers/v1', () => {
  const approvals = [
    ...[V1, V2, V3].map((owner, i) => ({ owner, spender: DRAINER, token: TOKEN, block: BigInt(10 + i) })),
    ...[V1, V2].map((owner, i) => ({ owner, spender: VAULT, token: TOKEN, block: BigInt(10 + i) })),
    ...[V4, V5].map((owner, i) => ({ owner, spender: RELAYER, token: TOKEN, block: BigInt(10 + i) })),
    { owner: V4, spender: LONE, token: TOKEN, block: 10n },
  ];
  const txs: Tx[] = [
    // Each owner deposits into the vault in its own transaction: the vault pulls, the owner sent it.
    { hash: hash(1), from: V1, to: VAULT, block: 20n, transfers: [{ token: TOKEN, from: V1, to: VAULT }] },
    { hash: hash(2), from: V2, to: VAULT, block: 21n, transfers: [{ token: TOKEN, from: V2, to: VAULT }] },
    // A solver settles signed orders through the relayer: the owners are paid in the same transaction.
    { hash: hash(3), from: SOLVER, to: RELAYER, block: 22n, transfers: [{ token: TOKEN, from: V4, to: RELAYER }, { token: OTHER_TOKEN, from: RELAYER, to: V4 }] },
    { hash: hash(4), from: SOLVER, to: RELAYER, block: 23n, transfers: [{ token: TOKEN, from: V5, to: RELAYER }, { token: OTHER_TOKEN, from: RELAYER, to: V5 }] },
    // The drainer's operator sweeps two victims to its sink; the third is still waiting.
    { hash: hash(5), from: OPERATOR, to: DRAINER, block: 30n, transfers: [{ token: TOKEN, from: V1, to: SINK }] },
    { hash: hash(6), from: OPERATOR, to: DRAINER, block: 31n, transfers: [{ token: TOKEN, from: V2, to: SINK }] },
    // An EOA spender that pulled from one owner only: one victim is not a record.
    { hash: hash(7), from: LONE, to: TOKEN, block: 32n, transfers: [{ token: TOKEN, from: V4, to: LONE }] },
    // A transfer of a token the owner never approved to the drainer does not count for it.
    { hash: hash(8), from: OPERATOR, to: DRAINER, block: 33n, transfers: [{ token: OTHER_TOKEN, from: V3, to: SINK }] },
  ];

  it('a spender that swept two owners who sent nothing and got nothing back is a drainer, with the sweeps as evidence', async () => {
    const { chain } = chainOf(approvals, txs);
    const record = await drainerRecord(chain, DRAINER, 100n);
    expect(record.drainer).toBe(true);
    expect(record.approvers).toBe(3);
    expect(record.victims.length).toBe(DRAINER_MIN_VICTIMS);
    expect(record.victims.map((v) => [v.owner, v.tx]).sort()).toEqual([[V1, hash(5)], [V2, hash(6)]]);
  });

  it('a vault pulling in its owners\' own transactions, a relayer paying owners back and a single pull are not drainers', async () => {
    const { chain } = chainOf(approvals, txs);
    for (const spender of [VAULT, RELAYER, LONE]) {
      const record = await drainerRecord(chain, spender, 100n);
      expect(record.drainer, spender).toBe(false);
    }
    expect((await drainerRecord(chain, LONE, 100n)).victims.map((v) => v.owner)).toEqual([V4]);
  });

  it('judges at a block: sweeps after it are not yet known, and a spender nobody approved has no record', async () => {
    const { chain } = chainOf(approvals, txs);
    expect((await drainerRecord(chain, DRAINER, 30n)).drainer).toBe(false);
    expect(await drainerRecord(chain, addr(0xeee), 100n)).toMatchObject({ drainer: false, approvers: 0, victims: [] });
  });
});
