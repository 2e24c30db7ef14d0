/**
 * A paid tool call billed from the caller's credits: the kind's skill validated, its price debited
 * atomically, its catalogue rate limit and time target applied, the answer written, and the debit
 * refunded whenever nothing was produced (a kind without an engine is never debited). The result
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
import { SibylError } from '../../skills/core/errors.js';
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
  const limits = catalogLimits(skill, params);
  const agent = deps.context.agent;
  const operation = {
    skill: skill.id,
    amount: price,
    description: tool.title,
    limits,
    run: async (signal?: AbortSignal) => (agent ? { ...(await agent.capability(skill, params, signal)) } : { results: [{ result: answered(await skill.handler(params, { ...deps.context, signal })) }], analysis: '' }),
  };
  try {
    const { answer, receipt } = await deps.payments.charge(operation, debit, account, { url: `mcp:${tool.name}`, description: tool.title, mimeType: 'application/json' });
    const result = (answer.results as { result?: Record<string, unknown> }[])[0]?.result ?? {};
    return { ...result, available: true, analysis: String(answer.analysis ?? ''), ...base, billing: { debitedUsd: formatAtomic(price), balanceUsd: formatAtomic(receipt.balance) } };
  } catch (err) {
    const e = toSibylError(err);
    // Refused before the debit (insufficient_credit, the store down): nothing to give back.
    if (!debit.taken) return { available: false, reason: e.code, analysis: e.message, ...base };
    // Refunded by the core (through the outbox: owed to the caller whatever the store does).
    const after = debit.balanceAfterRefund;
    const balanceUsd = after === undefined ? null : formatAtomic(after);
    const reason = e.code === 'no_answer' ? 'nothing_produced' : e.code;
    return { available: false, reason, analysis: `${e.message}\nRefunded ${formatAtomic(price)}.`, ...base, billing: { debitedUsd: '$0', balanceUsd, ...(after === undefined && { refundQueued: true }) } };
  }
}

/** Without the report agent (which does the same), an answer that is `available: false` is nothing produced: refunded, never sold. */
function answered(result: Record<string, unknown>): Record<string, unknown> {
  if (result.available === false) throw new SibylError('no_answer', `${String(result.reason ?? 'nothing was produced')}; nothing was charged`);
  return result;
}
