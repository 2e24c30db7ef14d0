/**
 * A skill called over A2A (the HTTP skill endpoints and the JSON-RPC agent): its params validated
 * against the skill's schema, charged at its catalogue price, under its catalogue limits and
 * admission. Shared by both A2A transports, so it lives with the agent, not the server.
 */
import type { SkillContext } from '../skills/core/context.js';
import { SibylError } from '../skills/core/errors.js';
import type { Skill } from '../skills/core/registry.js';
import { parseBody } from '../skills/core/validation.js';
import { skillOperation, type PaidOperation } from '../payments/operation.js';

export function a2aSkillOperation(skill: Skill, params: unknown, context: SkillContext): PaidOperation {
  const input = withPrefix('params', () => parseBody(skill.input, params));
  return skillOperation(skill, input, context, 'catalog');
}

/** Field errors of the inner object named from the body's root (`params.tokenAddress`). */
function withPrefix<T>(prefix: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof SibylError && err.extra.fields) {
      const fields = err.extra.fields.map((f) => ({ ...f, field: `${prefix}.${f.field}` }));
      throw new SibylError(err.code, fields.map((f) => `${f.field}: ${f.rule}`).join('; '), { ...err.extra, fields });
    }
    throw err;
  }
}
