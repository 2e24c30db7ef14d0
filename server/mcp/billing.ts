/**
 * A paid tool call billed from the caller's credits: the kind's skill validated, its price debited
 * atomically, its catalogue rate limit and time target applied, the answer written, and the debit
 * refunded whenever nothing was produced (the payments core's one rule, skills/core/produced.ts:
 * the result is then the unsold answer, `available: false` with its own reason; a kind without an
 * engine is never debited). The result
 * carries the paid-tool fields (docs/protocols.md, "Tool results"): `available`, `reason`, `analysis` (the written answer,
 * also the text block) and `skill`.
 */
import type { CreditLedger } from '../../payments/credits.js';
import { formatAtomic } from '../../payments/credits.js';
import type { Outbox } from '../../payments/outbox.js';
import type { SkillContext } from '../../skills/core/context.js';
import { admit } from '../../skills/core/admission.js';
import { catalogLimits, type Registry, type Skill } from '../../skills/core/registry.js';
import type { X402Payments } from '../../payments/x402-method.js';
import { creditDebit } from '../../payments/credits-method.js';
import { toSibylError } from '../../skills/core/error-mapping.js';
import type { UnsoldBody } from '../../skills/core/errors.js';
import type { PaidOperation } from '../../payments/operation.js';
import { parseBody } from '../../skills/core/validation.js';
import { kindOfCall, kindPrice, kindSkill, type PaidTool } from '../../skills/catalog/paid-tools.js';
import type { ToolResult } from '../../skills/core/free.js';

export interface BillingDeps {
  readonly registry: Registry;
  readonly context: SkillContext;
  readonly credits: CreditLedger;
  /** The charge flow (its limit hooks apply to tool calls too). */
  readonly payments: X402Payments;
  /** Where a refund the store refused is kept and retried (the paywall's outbox). */
  readonly outbox?: Outbox;
}

/** The paid-tool result (docs/protocols.md): `analysis` is also the result's text block. */
export type PaidToolResult = ToolResult & { analysis: string; skill: string };

/** A tool's input that its kind's skill refuses: answered as an error result, nothing debited. */
export class ToolInputError extends Error {}

export async function callPaidTool(tool: PaidTool, input: Record<string, unknown>, account: string, deps: BillingDeps): Promise<PaidToolResult> {
  const kindName = kindOfCall(tool, input);
  const kind = tool.kinds[kindName]!;
  const price = kindPrice(deps.registry, kind);
  const base = { skill: kind.skill, kind: kindName, priceUsd: formatAtomic(price) };
  let skill: Skill;
  try {
    skill = kindSkill(deps.registry, kind);
  } catch (err) {
    // Turned off here: the refusal every surface gives, as a result (the tool server reports gaps, not errors).
    const e = toSibylError(err);
    return { available: false, reason: e.code, analysis: `${tool.title} (${kindName}): ${e.message}`, ...base };
  }
  let params: Record<string, unknown>;
  try {
    params = parseBody(skill.input, kind.params(input, skill));
  } catch (err) {
    throw new ToolInputError(toSibylError(err).message);
  }
  try {
    // What the call alone decides (chain served, token known...) is answered before any debit.
    await admit(skill, params, deps.context);
  } catch (err) {
    const e = toSibylError(err);
    return { available: false, reason: e.code, analysis: e.message, ...base, billing: { debitedUsd: '$0', balanceUsd: formatAtomic(await deps.credits.balance(account)) } };
  }
  const ref = `${tool.name}:${kindName}:${crypto.randomUUID()}`;
  // Charged through the payments core with the credits as its method: the rate limit and time target are its hooks.
  const debit = creditDebit(deps.credits, price, ref, deps.outbox);
  const agent = deps.context.agent;
  const operation: PaidOperation = {
    skill: skill.id,
    amount: price,
    description: tool.title,
    limits: catalogLimits(skill, params),
    // The report agent writes the answer (and refuses one of nothing by the same rule); without it, the core judges the skill's own.
    ...(agent
      ? { run: async (signal?: AbortSignal) => ({ ...(await agent.capability(skill, params, signal)) }) }
      : { run: (signal?: AbortSignal) => skill.handler(params, { ...deps.context, signal }), product: { productRows: skill.productRows } }),
  };
  try {
    const { answer, receipt } = await deps.payments.charge(operation, debit, account, { url: `mcp:${tool.name}`, description: tool.title, mimeType: 'application/json' });
    const result = agent ? (answer.results as { result?: Record<string, unknown> }[])[0]?.result ?? {} : answer;
    return { ...result, available: true, analysis: agent ? String(answer.analysis ?? '') : '', ...base, billing: { debitedUsd: formatAtomic(price), balanceUsd: formatAtomic(receipt.balance) } };
  } catch (err) {
    const e = toSibylError(err);
    // Refused before the debit (insufficient_credit, the store down): nothing to give back.
    if (!debit.taken) return { available: false, reason: e.code, analysis: e.message, ...base };
    // Refunded by the core (through the outbox: owed to the caller whatever the store does).
    const after = debit.balanceAfterRefund;
    const billing = { debitedUsd: '$0', balanceUsd: after === undefined ? null : formatAtomic(after), ...(after === undefined && { refundQueued: true }) };
    const analysis = `${e.message}\nRefunded ${formatAtomic(price)}.`;
    // Nothing produced: the body every surface gives (the unsold answer, its own reason, `charged: false`).
    if (e.code === 'no_answer') return { ...(e.toBody() as UnsoldBody), analysis, ...base, billing };
    return { available: false, reason: e.code, analysis, ...base, billing };
  }
}
