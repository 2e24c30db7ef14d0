/**
 * The stock chain appears exactly where the spec names it (section 4.7): MCP find_yield's `chain`
 * ("as above plus stockchain") and scan_hook_layer's chain id 4663. Every other chain enum of every
 * published document (MCP tools, the A2A skill list, OpenAPI's request bodies) is the spec's, typed
 * here from its text rather than read from the registry, and none offers stockchain.
 */
import { describe, expect, it } from 'vitest';
import { buildMcpToolList } from '../../cards/mcp-tools.js';
import { buildA2aSkillList } from '../../cards/a2a-skills.js';
import { buildOpenApi } from '../../cards/openapi.js';
import { CHAINS, RUNNABLE_EVM_CHAIN_NAMES, STOCK_CHAIN, V4_POOL_MANAGERS } from '../../chain/chains.js';
import { createRegistry } from '../../skills/catalog/index.js';
import type { PaymentTerms } from '../../payments/terms.js';

const registry = createRegistry();
const terms = { asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', payTo: '0x0000000000000000000000000000000000000001', maxTimeoutSeconds: 60 } as unknown as PaymentTerms;

const SIX = ['base', 'ethereum', 'bsc', 'arbitrum', 'polygon', 'optimism'];
const CHAIN7 = [...SIX, 'solana'];

/** Every place in a JSON document where an `enum` or `const` offers `value`, as a path. */
function offered(doc: unknown, value: string | number, path = ''): string[] {
  if (Array.isArray(doc)) return doc.flatMap((v, i) => offered(v, value, `${path}[${i}]`));
  if (!doc || typeof doc !== 'object') return [];
  const node = doc as Record<string, unknown>;
  const here = (Array.isArray(node.enum) && node.enum.includes(value)) || node.const === value ? [path] : [];
  return [...here, ...Object.entries(node).flatMap(([k, v]) => offered(v, value, `${path}.${k}`))];
}

describe('chain enums against the spec', () => {
  const tools = buildMcpToolList(registry).tools;
  const input = (name: string) => (tools.find((t) => t.name === name)!.inputSchema as { properties: Record<string, any> }).properties;

  it('find_yield takes the seven chains plus stockchain; scan_hook_layer the chain ids 4663 and 8453', () => {
    expect(input('find_yield').chain).toMatchObject({ enum: [...CHAIN7, 'stockchain'], default: 'base' });
    const ids = input('scan_hook_layer').chainId;
    expect((ids.anyOf ?? []).map((o: { const: number }) => o.const)).toEqual([4663, 8453]);
  });

  it('those values are the catalogue\'s: stockchain is Robinhood Chain (4663), and each hook chain id has a pool manager', () => {
    expect(CHAINS[STOCK_CHAIN]).toMatchObject({ kind: 'evm', chainId: 4663, nativeSymbol: 'ETH' });
    for (const id of [4663, 8453]) {
      const name = RUNNABLE_EVM_CHAIN_NAMES.find((c) => CHAINS[c].chainId === id);
      expect(name && V4_POOL_MANAGERS[name], `chain id ${id}`).toBeDefined();
    }
  });

  it('every other MCP chain enum is the spec\'s', () => {
    expect(input('check_token_safety').chain).toMatchObject({ enum: SIX, default: 'base' });
    for (const name of ['forecast_chart', 'analyze_token_security', 'inspect_onchain', 'analyze_wallet', 'track_whales', 'scan_market', 'detect_mev', 'find_arbitrage']) {
      expect(input(name).chain, name).toMatchObject({ enum: CHAIN7, default: 'base' });
    }
  });

  it('offers stockchain only in find_yield\'s chain, in every published document', () => {
    expect(offered(tools, 'stockchain')).toEqual([`[${tools.findIndex((t) => t.name === 'find_yield')}].inputSchema.properties.chain`]);
    expect(offered(buildA2aSkillList(registry, 'http://127.0.0.1:1'), 'stockchain')).toEqual([]);
    const openApi = buildOpenApi(registry, terms, 'http://127.0.0.1:1', 'test') as { paths: Record<string, { post?: { requestBody?: unknown } }> };
    expect(Object.entries(openApi.paths).flatMap(([path, op]) => offered(op.post?.requestBody, 'stockchain').map((p) => `${path}${p}`))).toEqual([]);
  });

  it('offers chain id 4663 only where the spec names it: scan_hook_layer, and the hook radar skill it sells', () => {
    const toolPaths = offered(tools, 4663).map((p) => tools[Number(/^\[(\d+)\]/.exec(p)![1])]!.name);
    expect([...new Set(toolPaths)]).toEqual(['scan_hook_layer']);
    const skills = buildA2aSkillList(registry, 'http://127.0.0.1:1').skills as { id: string }[];
    expect([...new Set(offered(skills, 4663).map((p) => skills[Number(/^\[(\d+)\]/.exec(p)![1])]!.id))]).toEqual(['v4-hook-radar']);
  });
});
