/**
 * Typed answers (docs/architecture.md, "The registry"), in process: every skill declares an output schema that converts to
 * JSON Schema; OpenAPI and the A2A skill list publish it; the run-time check refuses an answer
 * its schema does not describe, and costs nothing when it is off.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerSchema, buildOpenApi } from '../../cards/openapi.js';
import { buildA2aSkillList } from '../../cards/a2a-skills.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { assertAnswer, checkedHandler } from '../../skills/core/output-check.js';
import { httpPaths, isWorking } from '../../skills/core/registry.js';
import { provenanceShape, coverage } from '../../skills/core/outputs.js';
import { ROUTES } from '../../cards/routes.js';
import type { PaymentTerms } from '../../payments/terms.js';

const registry = createRegistry();
const terms = { asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', payTo: '0x0000000000000000000000000000000000000001', maxTimeoutSeconds: 60 } as unknown as PaymentTerms;

describe('every skill declares its answer', () => {
  it('has an object output schema that converts to JSON Schema', () => {
    for (const skill of registry.list()) {
      expect(skill.output, skill.id).toBeInstanceOf(z.ZodObject);
      const schema = answerSchema(skill);
      expect(schema.type, skill.id).toBe('object');
      if (isWorking(skill)) expect(Object.keys(schema.properties as object).length, skill.id).toBeGreaterThan(0);
    }
  });

  it('names the provenance of every working skill that reads one chain or several', () => {
    // The report writes its provenance per tool; the forecast API forecasts the caller's own series.
    for (const skill of registry.published().filter((s) => !s.free && !['general-analysis', 'forecast-inference-api'].includes(s.id))) {
      const keys = Object.keys(skill.output.shape);
      for (const k of ['source', 'asOf', 'methodology']) expect(keys, `${skill.id}: ${k}`).toContain(k);
    }
  });

  it('gives every free tool the envelope of spec 2.4', () => {
    const free = registry.list('mcp').filter((s) => s.free);
    expect(free.length).toBe(19);
    for (const skill of free) {
      const keys = Object.keys(skill.output.shape);
      for (const k of ['available', 'reason', 'fetchedAt', 'stale', 'limit']) expect(keys, `${skill.id}: ${k}`).toContain(k);
    }
  });
});

describe('the published documents carry the answer schemas', () => {
  const doc = buildOpenApi(registry, terms, 'http://127.0.0.1:1', 'test') as any;

  it('OpenAPI documents every fixed route of the route table (the metrics scrape aside)', () => {
    const fixed = Object.entries(ROUTES).filter(([name]) => name !== 'metrics').map(([, path]) => path);
    expect(fixed.filter((path) => !doc.paths[path])).toEqual([]);
  });

  it('OpenAPI answers every paid operation with its skill\'s schema, under components', () => {
    for (const skill of registry.list('http')) {
      for (const path of httpPaths(skill)) {
        const ok = doc.paths[path].post.responses['200'].content['application/json'].schema;
        expect(ok.$ref, path).toMatch(/^#\/components\/schemas\//);
        expect(doc.components.schemas[ok.$ref.split('/').pop()], path).toEqual(answerSchema(skill));
        expect(doc.paths[path].post.responses['402'].content['application/json'].schema.$ref).toBe('#/components/schemas/PaymentRequired');
        for (const status of ['400', '404', '500', '503']) expect(doc.paths[path].post.responses[status].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
      }
    }
  });

  it('OpenAPI lists the forecast, discovery, sign-in and top-up routes with response schemas', () => {
    const routes: [string, string][] = [
      ['/api/svc/v1/forecast', 'post'], ['/api/svc/v1/models', 'get'], ['/api/svc/v1/forecast/accuracy', 'get'],
      ['/.well-known/agent-card.json', 'get'], ['/api/a2a/skills', 'get'], ['/api/mcp/tools', 'get'], ['/api/marketplace/catalog', 'get'], ['/openapi.json', 'get'], ['/healthz', 'get'],
      ['/api/auth/nonce', 'get'], ['/api/auth/siwe', 'post'], ['/api/credits/topup', 'post'],
    ];
    for (const [path, method] of routes) {
      const ok = doc.paths[path]?.[method]?.responses['200'].content['application/json'].schema;
      expect(ok?.$ref, path).toBeDefined();
      expect(doc.components.schemas[ok.$ref.split('/').pop()], path).toMatchObject({ type: 'object' });
    }
    for (const [path, method] of routes.filter(([, m]) => m === 'post')) expect(doc.paths[path][method].requestBody.content['application/json'].schema.type, path).toBe('object');
    // Every $ref resolves.
    for (const ref of JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? []) expect(doc.components.schemas[ref.slice(22, -1)], ref).toBeDefined();
  });

  it('the A2A skill list gives each skill its answer schema beside its params', () => {
    const list = buildA2aSkillList(registry, 'http://127.0.0.1:1');
    expect(list.skills.length).toBeGreaterThan(0);
    for (const entry of list.skills) expect(entry.output, entry.id).toEqual(answerSchema(registry.byId(entry.id)!));
  });
});

describe('the run-time check', () => {
  const schema = z.object({ ...provenanceShape, coverage, rows: z.array(z.object({ token: z.string(), usd: z.number().nullable() })) });
  const good = {
    source: 'embedded', chain: 'base', chainId: 8453, asOf: { block: '10', timestamp: '2026-01-01T00:00:00.000Z' }, methodology: 'm/v1',
    coverage: { from: 'a', to: 'b', periodFrom: 'a', complete: true },
    rows: [{ token: '0x1', usd: null }],
  };

  it('accepts an answer its schema describes', () => {
    expect(() => assertAnswer('t', schema, good)).not.toThrow();
  });

  it('refuses a missing field, a wrong type and a field the schema does not name, saying where', () => {
    const quiet = console.error;
    console.error = () => {};
    try {
      const { methodology: _, ...missing } = good;
      expect(() => assertAnswer('t', schema, missing)).toThrow(/"t".*methodology/);
      expect(() => assertAnswer('t', schema, { ...good, rows: [{ token: '0x1', usd: 'x' }] })).toThrow(/rows\.0\.usd/);
      expect(() => assertAnswer('t', schema, { ...good, rows: [{ token: '0x1', usd: 1, extra: true }] })).toThrow(/rows\[0\]\.extra: not declared/);
      expect(() => assertAnswer('t', schema, { ...good, surprise: 1 })).toThrow(/surprise: not declared/);
    } finally {
      console.error = quiet;
    }
  });

  it('leaves the handler untouched when SIBYL_CHECK_OUTPUTS is not 1, and checks it when it is', async () => {
    const handler = async () => ({ wrong: true });
    const before = process.env.SIBYL_CHECK_OUTPUTS;
    try {
      delete process.env.SIBYL_CHECK_OUTPUTS;
      expect(checkedHandler('t', schema, handler)).toBe(handler);
      process.env.SIBYL_CHECK_OUTPUTS = '1';
      const quiet = console.error;
      console.error = () => {};
      await expect(checkedHandler('t', schema, handler)(undefined, undefined)).rejects.toThrow(/does not match its output schema/).finally(() => (console.error = quiet));
    } finally {
      if (before === undefined) delete process.env.SIBYL_CHECK_OUTPUTS;
      else process.env.SIBYL_CHECK_OUTPUTS = before;
    }
  });

  it('is on in this test run (vitest.config.ts), so every skill an end-to-end test calls is checked', () => {
    expect(process.env.SIBYL_CHECK_OUTPUTS).toBe('1');
  });
});
