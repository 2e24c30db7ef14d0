/**
 * Every skill and tool the interface lists is here: working, or declared as not on this deployment
 * with why (refused before payment on every surface that names it). The list is the spec's own
 * (test/helpers/spec-prices.ts), so a skill the registry forgets fails here instead of vanishing.
 */
import { describe, expect, it } from 'vitest';
import { a2aPriceUsd } from '../../cards/a2a-skills.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { PAID_TOOLS } from '../../skills/catalog/paid-tools.js';
import { isWorking } from '../../skills/core/registry.js';
import { SPEC_A2A_SKILLS, SPEC_MCP_TOOLS } from '../helpers/spec-prices.js';

const registry = createRegistry();

describe('the spec\'s catalogue, whole', () => {
  it('declares every A2A skill of the spec on the A2A surface; a working one at the spec\'s price, another with why it is not here', () => {
    const missing: string[] = [];
    for (const [id, price] of Object.entries(SPEC_A2A_SKILLS)) {
      const skill = registry.byId(id);
      if (!skill || !skill.surfaces.includes('a2a')) {
        missing.push(id);
        continue;
      }
      if (isWorking(skill)) expect(skill.free ? '0.00' : a2aPriceUsd(skill).split('-')[0], id).toBe(price);
      else expect(skill.disabledReason, id).toMatch(/\w+ \w+/);
    }
    expect(missing).toEqual([]);
  });

  it('declares every tool of the tool server: the free ones as free MCP skills, the paid ones as paid tools', () => {
    const freeTools = new Set(registry.list('mcp').filter((s) => s.free).map((s) => s.toolName));
    expect(SPEC_MCP_TOOLS.free.filter((name) => !freeTools.has(name))).toEqual([]);
    const paidTools = new Set(PAID_TOOLS.map((t) => t.name));
    expect(SPEC_MCP_TOOLS.paid.filter((name) => !paidTools.has(name))).toEqual([]);
    expect([freeTools.size, paidTools.size]).toEqual([SPEC_MCP_TOOLS.free.length, SPEC_MCP_TOOLS.paid.length]);
  });
});
