/**
 * A paid tool call billed from the caller's credits: the kind's skill validated, its price debited
 * atomically, its catalogue rate limit and time target applied, the answer written, and the debit
 * refunded whenever nothing was produced (a kind without an engine is never debited). The result
 * carries spec 2.4's paid-tool fields: `available`, `reason`, `analysis` (the written answer,
 * also the text block) and `skill`.
 */
import { SibylError } from '../../skills/errors.js';
import type { CreditLedger } from '../../payments/credits.js';
import { formatAtomic } from '../../payments/credits.js';
import type { Outbox } from '../../payments/outbox.js';
import type { SkillContext } from '../../skills/context.js';
import { admit } from '../../skills/admission.js';
import { catalogLimits, type Registry } from '../../skills/registry.js';
import { withinTarget, type RateLimiter } from '../../payments/limits.js';
import { toSibylError } from '../../skills/error-mapping.js';
import { parseBody } from '../../skills/validation.js';
import { kindOfCall, kindPrice, kindSkill, type PaidTool } from './paid-tools.js';
import type { ToolResult } from './free-tools.js';

export interface BillingDeps {
  readonly registry: Registry;
  readonly context: SkillContext;
  readonly credits: CreditLedger;
  readonly limiter: RateLimiter;
  /** Where a refund the store refused is kept and retried (the paywall's outbox). */
  readonly outbox?: Outbox;
}

/** Spec 2.4's paid-tool result: `analysis` is also the result's text block. */
export type PaidToolResult = ToolResult & { analysis: string; skill: string };

/** A tool's input that its kind's skill refuses: answered as an error result, nothing debited. */
export class ToolInputError extends Error {}

export async function callPaidTool(tool: PaidTool, input: Record<string, unknown>, account: string, deps: BillingDeps): Promise<PaidToolResult> {
  const kindName = kindOfCall(tool, input);
  const kind = tool.kinds[kindName]!;
  const price = kindPrice(deps.registry, kind);
  const skill = kindSkill(deps.registry, kind);
  const base = { skill: kind.skill, kind: kindName, priceUsd: formatAtomic(price) };
  if (!skill) {
    const analysis = `${tool.title} (${kindName}) needs an engine this deployment does not have; nothing was debited.`;
    return { available: false, reason: 'domain_disabled', analysis, ...base };
  }
  let params: Record<string, unknown>;
  try {
    params = parseBody(skill.input, kind.params(input));
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
  let balance: bigint;
  try {
    balance = await deps.credits.debit(account, price, ref);
  } catch (err) {
    const e = toSibylError(err);
    return { available: false, reason: e.code, analysis: e.message, ...base };
  }
  const refund = async (reason: string, analysis: string) => {
    // Owed to the caller whatever the store does: kept and retried until it is written.
    let after: bigint | undefined;
    const give = async () => {
      after = await deps.credits.refund(account, price, `${ref}:${reason}`);
    };
    if (deps.outbox) await deps.outbox.submit('credit-refund', { account, amount: price.toString(), ref: `${ref}:${reason}` }, give);
    else await give();
    const balanceUsd = after === undefined ? null : formatAtomic(after);
    return { available: false, reason, analysis: `${analysis}\nRefunded ${formatAtomic(price)}.`, ...base, billing: { debitedUsd: '$0', balanceUsd, ...(after === undefined && { refundQueued: true }) } };
  };
  try {
    const limits = catalogLimits(skill, params);
    if (limits) await deps.limiter.take(limits, account);
    const agent = deps.context.agent;
    const answer = await withinTarget(limits, async (signal) => (agent ? { ...(await agent.capability(skill, params, signal)) } : { results: [{ result: await skill.handler(params, { ...deps.context, signal }) }], analysis: '' }));
    const result = (answer.results as { result?: Record<string, unknown> }[])[0]?.result ?? {};
    return { ...result, available: true, analysis: String(answer.analysis ?? ''), ...base, billing: { debitedUsd: formatAtomic(price), balanceUsd: formatAtomic(balance) } };
  } catch (err) {
    const e = err instanceof SibylError ? err : toSibylError(err);
    return refund(e.code === 'no_answer' ? 'nothing_produced' : e.code, e.message);
  }
}
