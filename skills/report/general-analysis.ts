/**
 * The report operation (docs/skills.md, "Report agent"): a free-form prompt answered by the report agent, which
 * chooses its own tools among the agent skills; tool calls are covered by this price. A body
 * `{ "service": "<skill id>", ...fields }` on the same path runs that skill directly at its own
 * catalogue price instead; see `capabilityField`.
 */
import { z } from 'zod';
import { SibylError } from '../core/errors.js';
import type { ReportRunner, SkillContext } from '../core/context.js';
import { isoTime } from '../core/outputs.js';
import { defineSkill } from '../core/registry.js';

/** Longest prompt accepted, in characters, and the largest `metadata` object, in bytes of JSON. */
export const REPORT_LIMITS = { promptChars: 4_000, idChars: 128, metadataBytes: 4_096 } as const;

/** Questions the agent answers, as the skill card and the prompt field's schema show them. */
const REPORT_EXAMPLES = ['Is 0x... on base a honeypot, and who holds it?', 'What are smart money wallets buying on base this week?'] as const;

const args = z.record(z.string(), z.unknown());
/** The report agent's answer (graph/report.ts `ReportAnswer`). */
const reportAnswer = z.object({
  analysis: z.string().describe('The answer in plain language, with figures and sources.'),
  toolsUsed: z.array(z.object({ skill: z.string(), args })),
  planner: z.string().describe('Which planner chose the tools (LLM or offline).'),
  roomId: z.string().nullable().describe('Reuse for follow-up questions.'),
  userId: z.string().optional(),
  results: z.array(z.object({
    skill: z.string(),
    tool: z.string(),
    args,
    ok: z.boolean(),
    result: z.record(z.string(), z.unknown()).optional().describe('The skill\'s own answer (its schema is that skill\'s output).'),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    note: z.string().optional().describe('How an argument the question left out was chosen (the chain a symbol is most liquid on).'),
  })),
  provenance: z.array(z.record(z.string(), z.unknown())).describe('Each result\'s provenance.'),
  generatedAt: isoTime,
});

export const generalAnalysisSkill = defineSkill({
  id: 'general-analysis',
  title: 'General analysis (report agent)',
  description:
    'Ask anything about on-chain activity and markets in plain language: the agent picks the skills that answer it, runs them, and writes the answer with the figures and their sources. Reuse roomId for follow-up questions.',
  tags: ['report', 'agent', 'analysis', 'question'],
  examples: [...REPORT_EXAMPLES],
  input: z.strictObject({
    prompt: z.string().trim().min(1).max(REPORT_LIMITS.promptChars).describe(`The question, 1-${REPORT_LIMITS.promptChars} characters.`)
      .meta({ examples: [...REPORT_EXAMPLES].reverse() }),
    roomId: z
      .string()
      .regex(new RegExp(`^[A-Za-z0-9_.:-]{1,${REPORT_LIMITS.idChars}}$`), `must be 1-${REPORT_LIMITS.idChars} letters, digits or _ . : -`)
      .optional()
      .describe('Conversation thread: answers in the same room can refer to earlier ones. A new room is opened when absent and returned.'),
    userId: z.string().min(1).max(REPORT_LIMITS.idChars).optional().describe('Caller reference, echoed back.'),
    metadata: z
      .record(z.string(), z.unknown())
      .refine((m) => Buffer.byteLength(JSON.stringify(m)) <= REPORT_LIMITS.metadataBytes, `must be at most ${REPORT_LIMITS.metadataBytes} bytes of JSON`)
      .optional()
      .describe('Free-form, not read by the agent.'),
  }),
  price: '0.50',
  catalogPrice: '1.00',
  httpPath: '/x402/svc/report',
  capabilityField: 'service',
  output: reportAnswer,
  // A2A sells it at its catalogue price ($1.00); the HTTP report path at $0.50 (docs/skills.md, "Report agent").
  surfaces: ['http', 'a2a'],
  catalog: { rateLimitPerMinute: 60, timeTargetSeconds: 60 },
  // Whether any skill fits is decided by the prompt (and its room) alone: refused before the 402.
  admit: (input, ctx) => reportAgent(ctx).screen(input),
  async handler(input, ctx) {
    // The graph's ReportAnswer (readonly, owned by graph/); held to the schema at run time in tests.
    return { ...(await reportAgent(ctx).ask(input, ctx.signal)) } as z.input<typeof reportAnswer>;
  },
});

/** The report agent, or the refusal when this deployment runs none. */
function reportAgent(ctx: SkillContext): ReportRunner {
  if (!ctx.agent) throw new SibylError('upstream_unavailable', 'the report agent is not running on this deployment; nothing was charged');
  return ctx.agent;
}
