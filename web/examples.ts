/**
 * `GET /api/examples/:skillId`: a real answer of a skill on its example body, free, so a person can
 * see what a skill sells before paying. Each skill runs at most once per EXAMPLE_TTL_MS in this
 * process; requests meanwhile (concurrent ones included) share that run. A refusal or an
 * `available: false` answer is the example, labelled as such. Secrets a skill issues (keys) are
 * never shown: an example is served to everyone, and such a value is returned once, to its buyer.
 */
import { toolDirectory } from '../cards/mcp-tools.js';
import { toSibylError } from '../skills/core/error-mapping.js';
import { NOT_KEPT } from '../skills/core/issued-secrets.js';
import type { SkillContext } from '../skills/core/context.js';
import type { Registry, Skill } from '../skills/core/registry.js';
import { exampleBody, type Subjects } from './example-body.js';
import { TimedMemo } from './memo.js';

export const EXAMPLE_TTL_MS = 10 * 60_000;
/** A skill without a catalogue time target gets this long to answer. */
const DEFAULT_EXAMPLE_TIMEOUT_MS = 60_000;

export interface Example {
  readonly skill: string;
  readonly body: Record<string, unknown>;
  readonly computedAt: string;
  readonly durationMs: number;
  /** answer: it ran; unavailable: it ran and answered `available: false`; refused: it answered an error. */
  readonly outcome: 'answer' | 'unavailable' | 'refused';
  readonly answer?: unknown;
  readonly error?: { readonly code: string; readonly message: string };
  readonly nextRunAfter: string;
}

export class ExampleRunner {
  private readonly runs: TimedMemo<string, Example>;
  private readonly bodies: TimedMemo<string, Record<string, unknown>>;

  constructor(private readonly registry: Registry, private readonly context: SkillContext, private readonly subjects: Subjects, private readonly now = () => Date.now()) {
    this.runs = new TimedMemo(EXAMPLE_TTL_MS, now, true);
    this.bodies = new TimedMemo(EXAMPLE_TTL_MS, now);
  }

  /** The skill's example: the cached one while fresh (or running), else a new run. */
  example(skill: Skill): Promise<Example> {
    return this.runs.get(skill.id, (startedAt) => this.run(skill, startedAt));
  }

  /** The skill's example body (the page shows it; the run uses the same one while both are fresh). */
  body(skill: Skill): Promise<Record<string, unknown>> {
    return this.bodies.get(skill.id, () => exampleBody(skill, this.subjects));
  }

  private async run(skill: Skill, startedAt: number): Promise<Example> {
    const ctx: SkillContext = {
      ...this.context,
      tools: toolDirectory(this.registry),
      signal: AbortSignal.timeout((skill.catalog?.timeTargetSeconds ?? DEFAULT_EXAMPLE_TIMEOUT_MS / 1000) * 1000),
    };
    let body: Record<string, unknown> = {};
    const done = (rest: Pick<Example, 'outcome' | 'answer' | 'error'>): Example => ({
      skill: skill.id, body, computedAt: new Date(this.now()).toISOString(), durationMs: this.now() - startedAt,
      ...rest, nextRunAfter: new Date(startedAt + EXAMPLE_TTL_MS).toISOString(),
    });
    try {
      body = await this.body(skill);
      // As every surface does: the body validated, then admission, then the work.
      const input = skill.input.parse(body);
      await skill.admit?.(input, ctx);
      const answer = withoutSecrets(await skill.handler(input, ctx), skill.secretFields ?? []);
      const unavailable = (answer as { available?: unknown }).available === false;
      return done({ outcome: unavailable ? 'unavailable' : 'answer', answer });
    } catch (err) {
      const e = toSibylError(err);
      return done({ outcome: 'refused', error: { code: e.code, message: e.message } });
    }
  }
}

/** The answer with every value under a secret field replaced (at any depth). */
export function withoutSecrets(answer: unknown, fields: readonly string[]): unknown {
  if (!fields.length) return answer;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fields.includes(k) && typeof x === 'string' ? NOT_KEPT : walk(x)]));
  };
  return walk(answer);
}
