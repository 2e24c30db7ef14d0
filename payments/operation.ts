/**
 * What one validated request buys, whatever surface sells it (HTTP path, A2A skill, MCP tool,
 * the forecast API): its price, what a 402 describes, its catalogue limits, its admission, its
 * work, and what counts as having produced it. The payments core charges it; the surfaces only carry it.
 */
import type { SkillContext } from '../skills/core/context.js';
import { admit } from '../skills/core/admission.js';
import type { ProductDeclaration } from '../skills/core/produced.js';
import { catalogLimits, type PriceList, type Skill } from '../skills/core/registry.js';
import type { SibylError } from '../skills/core/errors.js';
import type { Limits } from './limits.js';
import type { Receipt } from './paywall.js';
import type { PaymentHooks } from './core.js';

export interface PaidOperation {
  /** What is sold, as logs and metrics name it: a registry skill id, or the product (credits-topup). */
  readonly skill?: string;
  readonly amount: bigint;
  readonly description: string;
  /**
   * What was asked, as validated (the skill and its input): with the resource and the signed
   * payment it names the request whose kept answer a resend of the same payment gets back.
   */
  readonly request?: unknown;
  /** The catalogue service it counts against: its rate limit and response-time target apply. */
  readonly limits?: Limits | undefined;
  /** What the request alone decides (chain served, token known...): run before any payment is asked for or taken. */
  admit?(): Promise<void>;
  run(signal?: AbortSignal): Promise<Record<string, unknown>>;
  /**
   * What its product is (the registry skill's `productRows`). The core sells an answer only when
   * skills/core/produced.ts `produced` says so (never `available: false`); otherwise it releases
   * the payment and answers `no_answer` with the answer.
   */
  readonly product?: ProductDeclaration;
  /** The body sent with the receipt (default: the answer as it is); it may finish work that waits on settlement. */
  respond?(answer: Record<string, unknown>, receipt: Receipt): unknown;
  /** The HTTP status of the answer (default 200). */
  status?(receipt: Receipt): number;
  /** For a protocol that carries failures in its own envelope (JSON-RPC): the body answered, with 200. */
  fail?(error: SibylError): unknown;
  /** The path the payment names as its resource (default: the request's). */
  readonly resourcePath?: string;
  /**
   * This operation's own hooks, run after the core's: the credit top-up names its credit before
   * the settlement is sent (so whoever records it settled credits it) and credits after it.
   */
  readonly hooks?: Pick<PaymentHooks<Receipt>, 'onAfterVerify' | 'onAfterSettle'>;
}

/** A registry skill sold on one surface: its price from `list`, its catalogue limits, its admission, its handler, its product. */
export function skillOperation(skill: Skill, input: Record<string, unknown>, context: SkillContext, list: PriceList = 'http'): PaidOperation {
  return {
    skill: skill.id,
    amount: skill.quote(input, list),
    description: skill.description,
    request: { skill: skill.id, input },
    limits: catalogLimits(skill, input),
    admit: () => admit(skill, input, context),
    run: (signal) => skill.handler(input, { ...context, signal }),
    product: { productRows: skill.productRows },
  };
}
