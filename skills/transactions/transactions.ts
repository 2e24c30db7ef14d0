/** One transaction, looked up on the connected chains: why it did what it did, and where its money went. */
import { z } from 'zod';
import type { Hash } from 'viem';
import { EVM_CHAIN_NAMES, type ChainName } from '../../chain/chains.js';
import { provenance } from '../data/provenance.js';
import { DEBUGGER_METHODOLOGY, FLOW_METHODOLOGY, debugTransaction, findTransaction, traceFunds } from './engine.js';
import type { SkillContext } from '../core/context.js';
import { EVM_CHAINS } from '../core/params.js';
import { address, intString, isoTime, provenanceShape } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';
import { admitChain } from '../core/admission.js';
import { usd } from '../core/summary.js';
import { loadMarket } from '../data/load.js';

const txHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x followed by 64 hex characters').transform((h) => h.toLowerCase() as Hash).describe('Transaction hash (0x + 64 hex).');
const chain = z.enum(EVM_CHAINS).optional().describe(`Chain: one of ${EVM_CHAIN_NAMES.join(', ')}; every connected chain is searched when absent.`);

async function locate(ctx: SkillContext, hash: Hash, chainName: ChainName | undefined) {
  const chains = chainName ? [ctx.chains.get(chainName)] : ctx.chains.list().filter((c) => c.spec.kind === 'evm');
  const found = await findTransaction(chains, hash);
  const head = await found.chain.client.getBlock();
  return { found, head: { number: head.number, timestamp: head.timestamp } };
}

const txStatus = z.enum(['success', 'reverted']);

export const transactionDebuggerSkill = defineSkill({
  id: 'transaction-debugger',
  title: 'Transaction debugger',
  description: 'Explains one transaction: success or revert (with the revert reason), gas used and fee, the decoded call and every decoded log (transfers, swaps, liquidity).',
  tags: ['transaction', 'debug', 'revert', 'gas', 'logs', 'failed'],
  examples: ['Why did transaction 0x... fail?', 'Decode what tx 0x... did on base'],
  input: z.strictObject({ txHash, chain }),
  price: '0.25',
  toolName: 'transaction_debugger',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...provenanceShape,
    txHash: z.string(),
    status: txStatus,
    revertReason: z.string().optional().describe('Reverted: the reason replayed at its block.'),
    from: address,
    to: address.nullable(),
    contractCreated: address.nullable(),
    valueNative: z.string(),
    nonce: z.number().int(),
    block: intString,
    timestamp: isoTime,
    gas: z.object({ limit: intString, used: intString, usedPct: z.number(), effectiveGasPrice: intString, feeNative: z.string() }),
    call: z.object({
      kind: z.string().describe('native transfer, or call.'),
      selector: z.string().optional(),
      function: z.string().nullable().optional().describe('null when the selector is not one Sibyl decodes.'),
      args: z.array(z.unknown()).optional(),
      note: z.string().optional(),
    }),
    logs: z.array(z.object({
      address,
      logIndex: z.number().int(),
      event: z.string().nullable().describe('Decoded event name (ERC-20, V2), or null.'),
      symbol: z.string().optional(),
      args: z.record(z.string(), z.unknown()).nullable().optional(),
      topic0: z.string().nullable().optional(),
    })),
  }),
  summarize: (r) => {
    const events = new Map<string, number>();
    for (const l of r.logs as { event: string | null }[]) events.set(l.event ?? 'unknown', (events.get(l.event ?? 'unknown') ?? 0) + 1);
    return `${r.status === 'success' ? 'Succeeded' : `Reverted: ${r.revertReason}`}. ${r.call.function ?? r.call.kind} from ${r.from} to ${r.to ?? 'a new contract'} in block ${r.block}; ` +
      `gas ${r.gas.used} of ${r.gas.limit} (${r.gas.usedPct}%), fee ${r.gas.feeNative}; logs: ${[...events].map(([e, n]) => `${n} ${e}`).join(', ') || 'none'}.`;
  },
  admit: async (input, ctx) => void (input.chain && admitChain(ctx, input.chain)),
  async handler(input, ctx) {
    const { found, head } = await locate(ctx, input.txHash, input.chain);
    const market = await loadMarket(ctx, found.chain.name).then((m) => m.market).catch(() => null);
    return { ...provenance(found.chain, head, DEBUGGER_METHODOLOGY), txHash: input.txHash, ...(await debugTransaction(found, market)) };
  },
});

export const fundFlowTraceSkill = defineSkill({
  id: 'fund-flow-trace',
  title: 'Fund flow trace',
  description: 'Traces where the funds of a transaction went: the native value and token transfers it made, then where each receiving wallet sent those tokens next, hop by hop, valued in USD, with the largest recipients.',
  tags: ['trace', 'funds', 'flow', 'transfers', 'forensics', 'follow-the-money'],
  examples: ['Follow the money from transaction 0x...', 'Where did the tokens moved in tx 0x... end up?'],
  input: z.strictObject({ txHash, chain, hops: z.number().int().min(0).max(3).default(2).describe('Hops to follow after the transaction, 0-3; default 2.') }),
  price: '0.35',
  toolName: 'fund_flow_trace',
  surfaces: ['a2a', 'mcp', 'agent'],
  output: z.object({
    ...provenanceShape,
    chainHead: intString,
    txHash: z.string(),
    from: address,
    block: intString,
    status: txStatus,
    hops: z.number().int(),
    edgeCount: z.number().int(),
    edges: z.array(z.object({
      hop: z.number().int(), token: address, symbol: z.string().nullable(), from: address, to: address,
      amount: z.string(), usd: z.number().nullable(), block: z.number().int(), tx: z.string(),
      toKind: z.enum(['wallet', 'pool', 'zero', 'token']),
    })),
    largestRecipients: z.array(z.object({ address, kind: z.enum(['wallet', 'pool', 'zero', 'token']), receivedUsd: z.number() })),
  }),
  summarize: (r) =>
    `${r.edgeCount} transfers followed over ${r.hops} hops from block ${r.block}; largest recipients: ` +
    `${(r.largestRecipients as { address: string; kind: string; receivedUsd: number }[]).slice(0, 5).map((e) => `${e.address} (${e.kind}, ${usd(e.receivedUsd)})`).join('; ') || 'none'}.`,
  admit: async (input, ctx) => void (input.chain && admitChain(ctx, input.chain)),
  async handler(input, ctx) {
    const { found, head } = await locate(ctx, input.txHash, input.chain);
    const { market, checkpoint } = await loadMarket(ctx, found.chain.name);
    return {
      ...provenance(found.chain, { number: BigInt(checkpoint.block), timestamp: BigInt(checkpoint.timestamp) }, FLOW_METHODOLOGY, { from: found.receipt.blockNumber, to: BigInt(checkpoint.block) }),
      chainHead: head.number.toString(),
      txHash: input.txHash,
      ...(await traceFunds(found, market, input.hops)),
    };
  },
});
