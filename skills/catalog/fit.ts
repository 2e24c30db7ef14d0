/**
 * A paid tool's inputs carry the spec's bounds (rows 1-100, seven chains); the skill a kind names
 * may accept less. These read the skill's own input schema, so a tool never restates a skill's
 * limit or enum: a row count is clamped to the skill's maximum, and a value the skill does not
 * accept is left out so the skill's own default applies.
 */
import { z } from 'zod';
import type { Skill } from '../core/registry.js';

/** The schema of one field of a skill's input. */
export function inputField(skill: Pick<Skill, 'id' | 'input'>, field: string): z.ZodType {
  const schema = skill.input.shape[field];
  if (!schema) throw new Error(`skill ${skill.id} has no input field "${field}"`);
  return schema as z.ZodType;
}

/** The field without its default and optional wrappers. */
function bare(schema: z.ZodType): z.ZodType {
  return schema instanceof z.ZodDefault || schema instanceof z.ZodOptional ? bare(schema.unwrap() as z.ZodType) : schema;
}

/** `n` within the skill's own maximum for `field`. */
export function clampTo(skill: Pick<Skill, 'id' | 'input'>, field: string, n: number): number {
  const schema = bare(inputField(skill, field));
  const max = schema instanceof z.ZodNumber ? schema.maxValue : null;
  return max === null || !Number.isFinite(max) ? n : Math.min(n, max);
}

/** `value` when the skill's `field` accepts it, else undefined (the skill's default applies). */
export function fitTo(skill: Pick<Skill, 'id' | 'input'>, field: string, value: unknown): unknown {
  return inputField(skill, field).safeParse(value).success ? value : undefined;
}
