/** Turns a zod failure into `invalid_body` naming every field and the rule it broke. */
import type { z } from 'zod';
import { SibylError, type FieldError } from './errors.js';

export function parseBody<S extends z.ZodObject>(schema: S, body: unknown): z.output<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new SibylError('invalid_json', 'the request body must be a JSON object');
  }
  const deep = tooDeep(body as Record<string, unknown>);
  if (deep) {
    const rule = `must nest at most ${MAX_BODY_DEPTH} levels deep`;
    throw new SibylError('invalid_body', `${deep}: ${rule}`, { fields: [{ field: deep, rule }] });
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const allowed = Object.keys(schema.shape);
  const fields: FieldError[] = result.error.issues.flatMap((issue): FieldError[] => {
    const field = issue.path.join('.') || '(body)';
    switch (issue.code) {
      case 'unrecognized_keys':
        return issue.keys.map((key) => ({ field: key, rule: `unknown field; allowed fields: ${allowed.join(', ')}` }));
      case 'invalid_type':
        return [{ field, rule: body && (body as Record<string, unknown>)[field] === undefined ? `required (${typeName(issue.expected)})` : `must be ${article(typeName(issue.expected))}` }];
      case 'too_small':
        if (issue.origin === 'array') return [{ field, rule: `must have at least ${issue.minimum} item${issue.minimum === 1 ? '' : 's'}` }];
        return [{ field, rule: `must be ${issue.inclusive === false ? '>' : '>='} ${issue.minimum}` }];
      case 'too_big':
        if (issue.origin === 'array') return [{ field, rule: `must have at most ${issue.maximum} items` }];
        return [{ field, rule: `must be ${issue.inclusive === false ? '<' : '<='} ${issue.maximum}` }];
      case 'invalid_value':
        return [{ field, rule: `must be one of ${issue.values.join(', ')}` }];
      default:
        return [{ field, rule: issue.message }];
    }
  });
  const summary = fields.map((f) => `${f.field}: ${f.rule}`).join('; ');
  throw new SibylError('invalid_body', summary, { fields });
}

/** Deepest nesting of objects and arrays accepted inside one body field. */
export const MAX_BODY_DEPTH = 32;

/**
 * The first top-level field nesting deeper than MAX_BODY_DEPTH, found without recursion (a body
 * nested thousands of levels would overflow the stack of any recursive walk: zod's, JSON.stringify's).
 */
function tooDeep(body: Record<string, unknown>): string | undefined {
  for (const [field, value] of Object.entries(body)) {
    const stack: [unknown, number][] = [[value, 0]];
    while (stack.length) {
      const [node, depth] = stack.pop()!;
      if (node === null || typeof node !== 'object') continue;
      if (depth >= MAX_BODY_DEPTH) return field;
      for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
    }
  }
  return undefined;
}

/** zod's type names as a caller reads them: a record is an object, an int an integer. */
function typeName(expected: string): string {
  return expected === 'record' ? 'object' : expected === 'int' ? 'integer' : expected;
}

function article(name: string): string {
  return `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`;
}
