/**
 * Every published document against the others: the agent card, the A2A skill list, the MCP tool
 * list, the marketplace catalogue and OpenAPI name the same skills at the same prices. (Each is
 * also checked against what the server charges in its own test: discovery, a2a, mcp-paid.)
 */
import { describe, expect, it } from 'vitest';
import { PAID_TOOLS } from '../../src/mcp/paid-tools.js';
import { json, useTestSibyl } from '../helpers/sibyl.js';

describe('published documents agree with each other', () => {
  const sibyl = useTestSibyl();
  const get = async (path: string) => json(await fetch(`${sibyl.url}${path}`, { headers: { 'A2A-Version': '1.0' } }));

  it('card, A2A list, catalogue, OpenAPI and MCP tools give each skill one price', async () => {
    const [card, skills, catalog, openapi, mcp] = await Promise.all([
      get('/.well-known/agent-card.json'), get('/api/a2a/skills'), get('/api/marketplace/catalog'), get('/openapi.json'), get('/api/mcp/tools'),
    ]);
    const a2a = new Map<string, string>(skills.skills.map((s: { id: string; priceUsd: string }) => [s.id, s.priceUsd]));
    // The card lists the same skills at the same prices, also in the x402 extension's table.
    expect(new Map(card.skills.map((s: any) => [s.id, /Price: \$([0-9.-]+) USDC/.exec(s.description)![1]]))).toEqual(a2a);
    const extension = card.capabilities.extensions.find((e: any) => e.uri.includes('a2a-x402'));
    expect(new Map(Object.entries(extension.params.prices))).toEqual(a2a);
    // Every A2A, typed-body and MCP-credit way in the catalogue charges the A2A price of its skill.
    for (const service of catalog.services) {
      for (const way of service.purchase) {
        const skill = way.protocol === 'a2a' ? way.path.split('/').pop() : way.protocol === 'a2a-jsonrpc' ? way.message.skill : way.body?.service;
        if (skill && a2a.has(skill)) expect(way.priceUsd, `${service.id} ${way.protocol}`).toBe(a2a.get(skill));
      }
    }
    // OpenAPI's typed capability bodies are the same prices.
    for (const body of openapi.paths['/x402/svc/report'].post['x-capability-bodies']) {
      if (a2a.has(body.service)) expect(body.prices.join('-'), body.service).toBe(a2a.get(body.service));
    }
    // Each paid MCP tool's range spans its kinds' prices, and a kind served by an A2A skill costs what A2A charges.
    const listed = new Map(mcp.tools.map((t: any) => [t.name, t.priceUsd]));
    for (const tool of PAID_TOOLS) {
      const prices = Object.values(tool.kinds).filter((k) => a2a.has(k.skill)).map((k) => Number(a2a.get(k.skill)));
      const [lo, hi] = String(listed.get(tool.name)).split('-').map(Number);
      for (const p of prices) {
        expect(p, tool.name).toBeGreaterThanOrEqual(lo!);
        expect(p, tool.name).toBeLessThanOrEqual(hi ?? lo!);
      }
    }
  });
});
