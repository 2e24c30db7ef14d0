/**
 * An example request for every skill, built from its input schema (never a second copy of it):
 * required fields only, so each optional one keeps its registry default, sampled from what the
 * schema publishes (its enum, its default, its example) and, for the fields that name something
 * on chain, from real subjects of the payment chain — a recent transaction and its sender, a
 * vault of the vault factory, the chain's USDC contract, the documented demo account.
 */
import { z } from 'zod';
import type { Address, Hex } from 'viem';
import { demoAccount } from '../chain/accounts.js';
import { PAYMENT_CHAIN, CHAINS } from '../chain/chains.js';
import type { ChainRuntime } from '../chain/runtime.js';
import { factoryVaults } from '../skills/vaults/engine.js';
import { FORECAST_API_EXAMPLE_BODY, forecastInferenceSkill } from '../skills/forecast/inference.js';
import type { Skill } from '../skills/core/registry.js';
import { TimedMemo } from './memo.js';

/** Rows an example asks for where the skill takes a row count: enough to read, short enough to show. */
const EXAMPLE_ROWS = 5;
/** Blocks walked back from the head to find a transaction to point at. */
const TX_SEARCH_BLOCKS = 256;
/** The documented demo accounts (#0-#9), never the example of a market's wallet. */
const DEMO_ADDRESSES = new Set(Array.from({ length: 10 }, (_, i) => demoAccount(i).address.toLowerCase()));
const SUBJECTS_TTL_MS = 10 * 60_000;

/** Real things on the payment chain for the fields that name them. */
export interface Subjects {
  /** A recent transaction and its sender (an active wallet). */
  recentTx(): Promise<{ hash: Hex; from: Address } | undefined>;
  vault(): Promise<Address | undefined>;
}

/** Subjects read from the payment chain, each looked up once per SUBJECTS_TTL_MS. */
export function chainSubjects(chains: ChainRuntime): Subjects {
  const chain = () => chains.get(PAYMENT_CHAIN);
  const memo = new TimedMemo<string, unknown>(SUBJECTS_TTL_MS);
  return {
    recentTx: () => memo.get('tx', () => findRecentTx()) as ReturnType<Subjects['recentTx']>,
    vault: () => memo.get('vault', async () => {
      const c = chain();
      return (await factoryVaults(c, await c.client.getBlockNumber()))[0];
    }) as ReturnType<Subjects['vault']>,
  };

  async function findRecentTx() {
    const client = chain().client;
    const head = await client.getBlockNumber();
    let fallback: { hash: Hex; from: Address } | undefined;
    for (let n = head; n >= 0n && n > head - BigInt(TX_SEARCH_BLOCKS); n--) {
      const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
      // A wallet of the market, not a demo account (the devnet's deployer and settler, or the payer of the panel).
      const tx = block.transactions.find((t) => t.to && !DEMO_ADDRESSES.has(t.from.toLowerCase()));
      if (tx) return { hash: tx.hash, from: tx.from };
      const any = block.transactions.find((t) => t.to);
      fallback ??= any && { hash: any.hash, from: any.from };
    }
    return fallback;
  }
}

type Schema = { type?: string; enum?: unknown[]; default?: unknown; examples?: unknown[]; pattern?: string; description?: string; items?: Schema; minimum?: number; maximum?: number; minLength?: number };

/** The skill's example body (the forecast API's is declared beside it). */
export async function exampleBody(skill: Skill, subjects: Subjects): Promise<Record<string, unknown>> {
  if (skill.id === forecastInferenceSkill.id) return structuredClone(FORECAST_API_EXAMPLE_BODY);
  const schema = z.toJSONSchema(skill.input, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, Schema>; required?: string[] };
  const props = schema.properties ?? {};
  let tx: Awaited<ReturnType<Subjects['recentTx']>> | null = null;
  const recentTx = async () => (tx ??= (await subjects.recentTx().catch(() => undefined)) ?? undefined);
  const usdc = CHAINS[PAYMENT_CHAIN].usdc;
  const demo = demoAccount(1).address;

  const sample = async (prop: Schema, name: string): Promise<unknown> => {
    if (prop.type === 'array' && prop.items) return [await sample(prop.items, name)];
    if (prop.enum?.length) return prop.default ?? prop.enum[0];
    if (prop.type === 'string' && prop.examples?.length) return prop.examples[0];
    if (prop.type === 'number' || prop.type === 'integer') return prop.default ?? prop.minimum ?? 1;
    if (prop.type === 'boolean') return prop.default ?? false;
    const text = `${name} ${prop.description ?? ''}`;
    if (prop.pattern?.includes('{64}') || /txHash/i.test(name)) return (await recentTx())?.hash ?? `0x${'0'.repeat(64)}`;
    if (/^amount$/i.test(name)) return '1';
    if (/^asset$/i.test(name)) return 'USDC';
    if (/vault/i.test(name)) return (await subjects.vault().catch(() => undefined)) ?? usdc;
    // A field that takes a symbol: the chain's wrapped ether, which every world market trades.
    if (prop.pattern?.includes('[A-Za-z0-9]')) return 'WETH';
    if (/contract/i.test(text)) return usdc;
    // The wallet that would sign a plan: the demo account, which holds USDC on the devnet.
    if (/^wallet$/i.test(name)) return demo;
    if (/address|wallet/i.test(text)) return (await recentTx())?.from ?? demo;
    if (prop.type === 'string' && prop.minLength) return 'x'.repeat(prop.minLength);
    return demo;
  };

  const body: Record<string, unknown> = {};
  for (const field of schema.required ?? []) body[field] = await sample(props[field] ?? {}, field);
  const rows = props.limit;
  if (rows && !('limit' in body) && (rows.maximum ?? Infinity) >= EXAMPLE_ROWS && (rows.minimum ?? 0) <= EXAMPLE_ROWS) body.limit = EXAMPLE_ROWS;
  return body;
}
