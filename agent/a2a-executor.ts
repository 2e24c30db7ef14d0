/**
 * The A2A agent executor: a data part `{ "skill": id, "params": {...} }` runs that skill, text goes
 * to the report agent (general-analysis), and every call is paid through the a2a-x402 extension
 * (v0.2): the task first waits in `input-required` with `x402.payment.required`; the client's
 * next message on the task carries `x402.payment.payload` (x402 v2, or v1 from clients that only
 * speak v1); the task completes with `x402.payment.receipts`, or fails with `x402.payment.error`
 * and a failed receipt. An answer that produced nothing (`available: false`: the payments core's
 * one rule, skills/core/produced.ts) is never settled either: the task fails with `payment-failed`,
 * error `no_answer`, and the unsold answer as its artifact (`charged: false`), the body the HTTP
 * surfaces answer 422 with. As a2a-x402 v0.2 says, the payment status, requirements, receipts and
 * errors are in the task's status message metadata, where clients built on the reference library
 * look; the task's own metadata repeats them. A client may decline with
 * `x402.payment.status: "payment-rejected"`: the task is canceled. The extension need not be
 * declared: a client that does not know it still gets the requirements in the input-required task.
 * Payment, limits and settlement are the payments core's charge, as on the HTTP routes: the
 * message's payload is charged as it is (never re-encoded as a header), and nothing is charged for
 * failed work.
 */
import { randomUUID } from 'node:crypto';
import type { PaymentPayload } from '@x402/core/types';
import { Role, TaskState, type Message, type Part, type Task } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { z } from 'zod';
import { SibylError } from '../skills/core/errors.js';
import { parseBody } from '../skills/core/validation.js';
import { PaymentRefused, readPaymentPayload } from '../payments/paywall.js';
import type { X402Payments } from '../payments/x402-method.js';
import type { Paywall } from '../payments/paywall.js';
import type { SkillContext } from '../skills/core/context.js';
import type { Registry } from '../skills/core/registry.js';
import { a2aSkillOperation } from './a2a-operation.js';
import { toSibylError } from '../skills/core/error-mapping.js';
import type { SkillId } from '../skills/catalog/index.js';

export const X402_META = {
  status: 'x402.payment.status',
  required: 'x402.payment.required',
  payload: 'x402.payment.payload',
  receipts: 'x402.payment.receipts',
  error: 'x402.payment.error',
} as const;
/** Where a task waiting for payment keeps what it will run. */
const REQUEST_META = 'sibyl.request';
/** A data part that calls a skill. */
const dataPartBody = z.strictObject({ skill: z.string().min(1).describe('A2A skill id.'), params: z.record(z.string(), z.unknown()).default({}).describe('Its params.') });
/** The skill that answers text. */
const TEXT_SKILL: SkillId = 'general-analysis';

interface SkillRequest {
  readonly skill: string;
  readonly params: Record<string, unknown>;
}

export interface ExecutorDeps {
  readonly registry: Registry;
  /** Its 402 requirements (the input-required task's). */
  readonly paywall: Paywall;
  /** The charge flow the HTTP routes use too, limits hooked in: the payload from the message metadata is charged as is. */
  readonly payments: X402Payments;
  readonly context: SkillContext;
  /** The JSON-RPC endpoint's URL, the payment's resource. */
  readonly endpoint: () => string;
}

export class SibylA2AExecutor implements AgentExecutor {
  constructor(private readonly deps: ExecutorDeps) {}

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    try {
      const task = ctx.task;
      if (task && task.metadata?.[X402_META.status] === 'payment-required') await this.pay(ctx, task, bus);
      else await this.ask(ctx, bus);
    } finally {
      bus.finished();
    }
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId: '', status: status(TaskState.TASK_STATE_CANCELED, 'canceled before payment; nothing was charged'), metadata: undefined }));
    bus.finished();
  }

  /** A new request: validate it, price it, and ask for payment. */
  private async ask(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    let request: SkillRequest;
    let amount: bigint;
    try {
      request = this.readRequest(ctx.userMessage, ctx.contextId);
      const operation = this.operation(request);
      // What the request alone decides is refused here, before the task asks for payment.
      await operation.admit?.();
      amount = operation.amount;
    } catch (err) {
      const e = toSibylError(err);
      // A question no skill answers (or one missing what its skill needs) asks the user for
      // another, with the closest skills and an example each; nothing is priced. A malformed
      // request is rejected.
      const state = e.code === 'no_skill_fits' ? TaskState.TASK_STATE_INPUT_REQUIRED : TaskState.TASK_STATE_REJECTED;
      bus.publish(AgentEvent.task(this.task(ctx, state, e.message, { error: e.toBody().error })));
      return;
    }
    const required = this.deps.paywall.challenge(amount, this.resource(request)).body;
    const metadata = { [X402_META.status]: 'payment-required', [X402_META.required]: required, [REQUEST_META]: request };
    bus.publish(AgentEvent.task(this.task(ctx, TaskState.TASK_STATE_INPUT_REQUIRED, `Payment required: ${request.skill} costs ${Number(amount) / 1e6} USDC; reply on this task with x402.payment.payload.`, paymentMetadata(metadata), metadata)));
  }

  /** The client's payment for a waiting task: verify, run, settle, answer. */
  private async pay(ctx: RequestContext, task: Task, bus: ExecutionEventBus): Promise<void> {
    const payload = ctx.userMessage.metadata?.[X402_META.payload] as PaymentPayload | undefined;
    if (!payload && ctx.userMessage.metadata?.[X402_META.status] === 'payment-rejected') {
      const metadata = { [X402_META.status]: 'payment-rejected' };
      bus.publish(AgentEvent.task({ ...task, status: status(TaskState.TASK_STATE_CANCELED, 'payment rejected by the client; nothing was run or charged', metadata, ctx), metadata: { ...strip(task.metadata), ...metadata } }));
      return;
    }
    if (!payload) {
      // Still waiting: the same requirement again.
      bus.publish(AgentEvent.task({ ...task, status: status(TaskState.TASK_STATE_INPUT_REQUIRED, 'this task waits for x402.payment.payload in the message metadata', paymentMetadata(task.metadata), ctx) }));
      return;
    }
    const request = task.metadata![REQUEST_META] as SkillRequest;
    const operation = this.operation(request);
    try {
      const { payments } = this.deps;
      const { answer, receipt } = await payments.charge(operation, payments.x402, readPaymentPayload(payload), this.resource(request));
      const parts: Part[] = [dataPart(answer)];
      if (typeof answer.analysis === 'string') parts.unshift(textPart(answer.analysis));
      const metadata = { [X402_META.status]: 'payment-completed', [X402_META.receipts]: [receipt.settlement] };
      bus.publish(AgentEvent.task({
        ...task,
        status: status(TaskState.TASK_STATE_COMPLETED, `${request.skill} answered; payment settled`, metadata, ctx),
        artifacts: [{ artifactId: randomUUID(), name: request.skill, description: `Result of ${request.skill}`, parts, metadata: undefined, extensions: [] }],
        metadata: { ...strip(task.metadata), ...metadata },
      }));
    } catch (err) {
      const refused = err instanceof PaymentRefused;
      const failure = refused ? undefined : toSibylError(err);
      const code = refused ? err.code : failure!.code;
      const message = refused ? `${err.message} (${err.reason})` : failure!.message;
      const metadata = {
        [X402_META.status]: 'payment-failed',
        [X402_META.error]: code,
        ...(refused && { 'x402.payment.reason': err.reason }),
        // The x402 SettleResponse of a payment that did not settle (a2a-x402 v0.2 §9.2).
        [X402_META.receipts]: [{ success: false, errorReason: refused ? err.reason : code, transaction: '', network: paymentNetwork(payload) }],
      };
      // Work that produced nothing: what it answered is shown, marked not charged (the body HTTP answers 422 with).
      const unsold = failure?.code === 'no_answer' ? failure.toBody() : undefined;
      bus.publish(AgentEvent.task({
        ...task,
        status: status(TaskState.TASK_STATE_FAILED, /nothing was charged/i.test(message) ? message : `${message}; nothing was charged`, metadata, ctx),
        ...(unsold && { artifacts: [{ artifactId: randomUUID(), name: request.skill, description: `${request.skill} produced nothing; not charged`, parts: [dataPart(unsold)], metadata: undefined, extensions: [] }] }),
        metadata: { ...strip(task.metadata), ...metadata },
      }));
    }
  }

  /** `{ skill, params }` from the first data part, else the message's text for the report agent. */
  private readRequest(message: Message, contextId: string): SkillRequest {
    const data = message.parts.find((p) => p.content?.$case === 'data')?.content?.value as Record<string, unknown> | undefined;
    if (data && typeof data === 'object' && 'skill' in data) return parseBody(dataPartBody, data);
    const text = message.parts.flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])).join('\n').trim();
    if (!text) throw new SibylError('invalid_body', 'the message needs a data part { skill, params } or text', { fields: [{ field: 'parts', rule: 'a data part with skill and params, or a text part' }] });
    // The conversation is the A2A context: follow-ups in it continue the same report room.
    return { skill: TEXT_SKILL, params: { prompt: text, roomId: `a2a-${contextId}` } };
  }

  private operation(request: SkillRequest) {
    // The same rule as every surface: a skill turned off here is refused with its own code.
    const skill = this.deps.registry.resolve('a2a', { id: request.skill });
    if (!skill) {
      throw new SibylError('invalid_body', `skill: no A2A skill "${request.skill}"`, { fields: [{ field: 'skill', rule: `must be one of ${this.deps.registry.published('a2a').map((s) => s.id).join(', ')}` }] });
    }
    return a2aSkillOperation(skill, request.params, this.deps.context);
  }

  private resource(request: SkillRequest) {
    return { url: `${this.deps.endpoint()}#${request.skill}`, description: `A2A skill ${request.skill}`, mimeType: 'application/json' };
  }

  private task(ctx: RequestContext, state: TaskState, text: string, statusMetadata?: Record<string, unknown>, metadata?: Record<string, unknown>): Task {
    return {
      id: ctx.taskId,
      contextId: ctx.contextId,
      status: status(state, text, statusMetadata, ctx),
      artifacts: [],
      history: [ctx.userMessage],
      metadata,
    };
  }
}

function status(state: TaskState, text: string, metadata?: Record<string, unknown>, ctx?: RequestContext) {
  const message: Message = {
    messageId: randomUUID(),
    contextId: ctx?.contextId ?? '',
    taskId: ctx?.taskId ?? '',
    role: Role.ROLE_AGENT,
    parts: [textPart(text), ...(metadata?.error ? [dataPart({ error: metadata.error })] : [])],
    metadata: metadata && !metadata.error ? metadata : undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return { state, message, timestamp: new Date().toISOString() };
}

function textPart(value: string): Part {
  return { content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

function dataPart(value: unknown): Part {
  return { content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' };
}

/** What a status message shows of a waiting task's metadata: the payment status and requirements. */
function paymentMetadata(metadata: Task['metadata']): Record<string, unknown> {
  const { [REQUEST_META]: _request, ...rest } = metadata ?? {};
  return rest;
}

function paymentNetwork(payload: PaymentPayload): string {
  const v1 = payload as unknown as { network?: unknown };
  return typeof payload.accepted?.network === 'string' ? payload.accepted.network : typeof v1.network === 'string' ? v1.network : '';
}

/** Task metadata without the pending request (answered now). */
function strip(metadata: Task['metadata']): Record<string, unknown> {
  const { [REQUEST_META]: _request, [X402_META.required]: _required, ...rest } = metadata ?? {};
  return rest;
}
