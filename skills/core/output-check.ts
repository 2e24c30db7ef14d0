/**
 * Holding answers to their published schemas at run time (docs/architecture.md, "The registry"). tsc checks handlers against
 * `output`; this catches what types cannot (a null where a number is promised, a field the
 * schema does not name). It runs only when SIBYL_CHECK_OUTPUTS=1 (the test suite sets it), so
 * the request path pays nothing in production.
 */
import { z } from 'zod';

/** The handler as is, or, under SIBYL_CHECK_OUTPUTS=1, one that refuses an answer its schema does not describe. */
export function checkedHandler<I, C, A>(id: string, output: z.ZodType, handler: (input: I, ctx: C) => Promise<A>): (input: I, ctx: C) => Promise<A> {
  if (process.env.SIBYL_CHECK_OUTPUTS !== '1') return handler;
  return async (input, ctx) => {
    const answer = await handler(input, ctx);
    assertAnswer(id, output, answer);
    return answer;
  };
}

/**
 * Throws unless the answer, as a client receives it (JSON), parses with the schema and holds no
 * field the schema leaves undeclared (z.object strips unknown keys; z.looseObject and records keep them).
 */
export function assertAnswer(id: string, output: z.ZodType, answer: unknown): void {
  const wire: unknown = JSON.parse(JSON.stringify(answer));
  const parsed = output.safeParse(wire);
  const problems = parsed.success
    ? undeclared(wire, parsed.data, '').map((p) => `${p}: not declared in the output schema`)
    : parsed.error.issues.slice(0, 10).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  if (problems.length) {
    const message = `answer of skill "${id}" does not match its output schema: ${problems.slice(0, 10).join('; ')}`;
    console.error(message);
    throw new Error(message);
  }
}

/** Paths present in the answer that parsing dropped. */
function undeclared(raw: unknown, parsed: unknown, path: string): string[] {
  if (Array.isArray(raw) && Array.isArray(parsed)) return raw.flatMap((v, i) => undeclared(v, parsed[i], `${path}[${i}]`));
  if (!isObject(raw) || !isObject(parsed)) return [];
  return Object.entries(raw).flatMap(([k, v]) => {
    const at = path ? `${path}.${k}` : k;
    return k in parsed ? undeclared(v, parsed[k], at) : [at];
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
