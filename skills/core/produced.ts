/**
 * The one rule for settling (docs/architecture.md, "A paid request, in one picture"): an answer is sold only
 * when it produced something. `available: false` is an honest gap, never a product; a skill whose
 * rows are the product (its registry entry names them, `productRows`) produced nothing when none
 * came back. The payments core applies this to every answer on every surface (x402 over HTTP, A2A,
 * MCP per call and on credits, the forecast quota), and the report agent judges its tool results by
 * it, so nothing is settled for nothing, whichever way it was bought.
 */
import { SibylError } from './errors.js';

/** What a skill declares about its product (skills/core/registry.ts `SkillDefinition`). */
export interface ProductDeclaration {
  /** The answer field holding the rows that are the product: none back means nothing was produced. */
  readonly productRows?: string | undefined;
}

/** Whether `answer` is something to sell: not `available: false`, and its product rows (if declared) not empty. */
export function produced(answer: Readonly<Record<string, unknown>> | undefined, product: ProductDeclaration = {}): boolean {
  if (!answer || answer.available === false) return false;
  const rows = product.productRows === undefined ? undefined : answer[product.productRows];
  return !(Array.isArray(rows) && rows.length === 0);
}

/** Why an answer produced nothing, as its payer reads it: its own `reason`, or the empty product. */
export function unproducedReason(answer: Readonly<Record<string, unknown>>, product: ProductDeclaration = {}): string {
  if (typeof answer.reason === 'string' && answer.reason) return answer.reason;
  if (answer.available !== false && product.productRows) return `no ${product.productRows} came back`;
  return 'nothing was produced';
}

/**
 * The refusal to sell an answer that produced nothing: `422 no_answer`, carrying the answer itself
 * (what the payer receives, marked not charged: skills/core/errors.ts `toBody`). The payment is
 * released, never settled.
 */
export function nothingProduced(answer: Readonly<Record<string, unknown>>, product: ProductDeclaration = {}, message?: string): SibylError {
  const reason = unproducedReason(answer, product);
  return new SibylError('no_answer', message ?? `${reason}; nothing was charged`, { answer: { ...answer, available: false, reason } });
}

/** The unsold answer a `no_answer` refusal carries (undefined for any other error). */
export function unsoldAnswer(error: unknown): Record<string, unknown> | undefined {
  return error instanceof SibylError && error.code === 'no_answer' ? error.extra.answer : undefined;
}
