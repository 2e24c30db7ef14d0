/** Turns a zod failure into `invalid_body` naming every field and the rule it broke. */
import type { z } from 'zod';
import { SibylError, type FieldError } from '../errors.js';

export function parseBody<S extends z.ZodObject>(schema: S, body: unknown): z.output<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new SibylError('invalid_json', 'the request body must be a JSON object');
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

/** zod's type names as a caller reads them: a record is an object, an int an integer. */
function typeName(expected: string): string {
  return expected === 'record' ? 'object' : expected === 'int' ? 'integer' : expected;
}

function article(name: string): string {
  return `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`;
}
