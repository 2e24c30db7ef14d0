import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SibylError } from './errors.js';
import { defineSkill, disabledRefusal, Registry, type Surface } from './registry.js';

const output = z.object({ ok: z.boolean() });
function skill(id: string, surfaces: Surface[], extra: { disabledReason?: string; toolName?: string; httpPath?: string; disabledCode?: 'provider_unavailable' } = {}) {
  return defineSkill({
    id, title: id, description: id, tags: [], examples: [], input: z.strictObject({}), output, price: '0.25', surfaces, ...extra,
    handler: async () => ({ ok: true }),
  });
}

describe('the registry\'s one resolution rule', () => {
  const working = skill('working', ['a2a', 'agent'], { toolName: 'working_tool', httpPath: '/x402/data/working' });
  const off = skill('off', ['a2a', 'agent'], { disabledReason: 'off needs a venue; nothing was charged' });
  const noProvider = skill('no-provider', ['a2a'], { disabledReason: 'needs a provider', disabledCode: 'provider_unavailable' });
  const registry = new Registry([working, off, noProvider]);

  it('publishes the working skills of a surface and lists the rest as unavailable', () => {
    expect(registry.published('a2a')).toEqual([working]);
    expect(registry.published('http')).toEqual([]);
    expect(registry.unavailable().map((s) => s.id)).toEqual(['off', 'no-provider']);
  });

  it('resolves a working skill by id, tool name or path, on its surfaces only', () => {
    expect(registry.resolve('a2a', { id: 'working' })).toBe(working);
    expect(registry.resolve('agent', { tool: 'working_tool' })).toBe(working);
    expect(registry.resolve(null, { path: '/x402/data/working' })).toBe(working);
    expect(registry.resolve('mcp', { id: 'working' })).toBeUndefined();
    expect(registry.resolve('a2a', { id: 'nothing' })).toBeUndefined();
  });

  it('refuses a declared skill that is off with its own code, whatever the surface asks', () => {
    for (const surface of ['a2a', 'agent', null] as const) {
      const err = (() => {
        try {
          registry.resolve(surface, { id: 'off' });
        } catch (e) {
          return e;
        }
      })() as SibylError;
      expect(err, String(surface)).toBeInstanceOf(SibylError);
      expect([err.code, err.status, err.message]).toEqual(['domain_disabled', 503, 'off needs a venue; nothing was charged']);
    }
    expect(() => registry.resolve('a2a', { id: 'no-provider' })).toThrow(disabledRefusal(noProvider));
    expect(disabledRefusal(noProvider).code).toBe('provider_unavailable');
  });

  it('drops a planned entry whose id or tool name a real skill takes, and keeps the others', () => {
    const plannedSame = skill('working', ['a2a'], { disabledReason: 'planned' });
    const plannedTool = skill('other-id', ['agent'], { disabledReason: 'planned', toolName: 'working_tool' });
    const plannedStill = skill('still-planned', ['a2a'], { disabledReason: 'planned' });
    const withPlans = new Registry([working], [plannedSame, plannedTool, plannedStill]);
    expect(withPlans.byId('working')).toBe(working);
    expect(withPlans.byId('other-id')).toBeUndefined();
    expect(withPlans.list().map((s) => s.id)).toEqual(['working', 'still-planned']);
  });

  it('refuses two real skills with one id, path or tool name', () => {
    expect(() => new Registry([working, skill('working', ['a2a'])])).toThrow(/duplicate skill id "working"/);
    expect(() => new Registry([working, skill('b', ['a2a'], { httpPath: '/x402/data/working' })])).toThrow(/duplicate skill path/);
  });
});
