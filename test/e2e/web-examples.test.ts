/**
 * Example answers in process (no server): a skill runs at most once per 10 minutes, callers
 * meanwhile share the run (concurrent ones too), a failure is the example until the next run,
 * `available: false` is labelled, and a secret the skill issues is never in an example.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SibylError } from '../../skills/core/errors.js';
import { NOT_KEPT } from '../../skills/core/issued-secrets.js';
import { Registry, defineSkill } from '../../skills/core/registry.js';
import type { SkillContext } from '../../skills/core/context.js';
import { EXAMPLE_TTL_MS, ExampleRunner } from '../../web/examples.js';
import type { Subjects } from '../../web/example-body.js';

const subjects: Subjects = { recentTx: async () => undefined, vault: async () => undefined };

function counted(answer: (n: number) => Promise<Record<string, unknown>>, extra: { secretFields?: string[] } = {}) {
  let calls = 0;
  const skill = defineSkill({
    id: 'counted', title: 'Counted', description: 'test', tags: [], examples: [], price: '0.10', surfaces: ['http'], httpPath: '/x402/test/counted',
    input: z.strictObject({ limit: z.number().int().min(1).max(50).default(20) }), output: z.looseObject({}),
    handler: async () => answer(++calls), ...extra,
  });
  return { skill, calls: () => calls };
}

describe('example answers', () => {
  it('run once per skill per 10 minutes, shared by concurrent and later callers', async () => {
    let now = 1_000_000;
    const { skill, calls } = counted(async (n) => {
      await new Promise((r) => setTimeout(r, 20));
      return { run: n };
    });
    const runner = new ExampleRunner(new Registry([skill]), {} as SkillContext, subjects, () => now);
    const [a, b] = await Promise.all([runner.example(skill), runner.example(skill)]);
    expect(a).toBe(b);
    expect(a).toMatchObject({ skill: 'counted', outcome: 'answer', answer: { run: 1 }, body: { limit: 5 } });
    now += EXAMPLE_TTL_MS - 1;
    expect((await runner.example(skill)).answer).toEqual({ run: 1 });
    now += 1;
    expect((await runner.example(skill)).answer).toEqual({ run: 2 });
    expect(calls()).toBe(2);
  });

  it('a refusal is the example until the next run; available: false is labelled', async () => {
    let now = 0;
    const { skill, calls } = counted(async (n) => {
      if (n === 1) throw new SibylError('token_not_found', 'no such token; nothing was charged');
      return { available: false, reason: 'no data' };
    });
    const runner = new ExampleRunner(new Registry([skill]), {} as SkillContext, subjects, () => now);
    expect(await runner.example(skill)).toMatchObject({ outcome: 'refused', error: { code: 'token_not_found' } });
    expect((await runner.example(skill)).outcome).toBe('refused');
    expect(calls()).toBe(1);
    now += EXAMPLE_TTL_MS;
    expect(await runner.example(skill)).toMatchObject({ outcome: 'unavailable', answer: { available: false } });
  });

  it('never shows a secret the skill issues', async () => {
    const { skill } = counted(async () => ({ publicKey: 'ab'.repeat(16), keys: [{ secretKey: 'cd'.repeat(16) }] }), { secretFields: ['secretKey'] });
    const runner = new ExampleRunner(new Registry([skill]), {} as SkillContext, subjects);
    expect((await runner.example(skill)).answer).toEqual({ publicKey: 'ab'.repeat(16), keys: [{ secretKey: NOT_KEPT }] });
  });
});
