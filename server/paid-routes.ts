/**
 * The paid HTTP operations, one POST route per registry skill with an `httpPath`, following
 * DESIGN.md section 3: validate → admit (what the request alone decides, section 6) → price →
 * 402 challenge, or verify + reserve → run → settle → answer with the receipt. Failed work
 * releases the reservation and moves no money.
 */
import type { Express, Request, Response } from 'express';
import { PaymentRefused, type Paywall, type Receipt } from '../payments/paywall.js';
import type { Resource } from '../payments/terms.js';
import type { SkillContext } from '../skills/context.js';
import { admit } from '../skills/admission.js';
import { catalogLimits, httpPaths, type PriceList, type Registry, type Skill } from '../skills/registry.js';
import { withinTarget, type Limits, type RateLimiter } from '../payments/limits.js';
import { SibylError } from '../skills/errors.js';
import { toSibylError } from '../skills/error-mapping.js';
import { parseBody } from '../skills/validation.js';

export interface PaidRouteDeps {
  registry: Registry;
  paywall: Paywall;
  context: SkillContext;
  limiter: RateLimiter;
  publicUrl: (req: Request) => string;
}

/** What one validated request buys: its price, what the 402 describes, and the work. */
export interface PaidOperation {
  readonly amount: bigint;
  readonly description: string;
  /** The catalogue service it counts against: its rate limit and response-time target apply. */
  readonly limits?: Limits | undefined;
  /** What the request alone decides (chain served, token known...): run before any payment is asked for or taken. */
  admit?(): Promise<void>;
  run(signal?: AbortSignal): Promise<Record<string, unknown>>;
  /** The body sent with the receipt (default: the answer as it is); it may finish work that waits on settlement. */
  respond?(answer: Record<string, unknown>, receipt: Receipt): unknown;
  /** The HTTP status of the answer (default 200). */
  status?(receipt: Receipt): number;
  /** For a protocol that carries failures in its own envelope (JSON-RPC): the body answered, with 200. */
  fail?(error: SibylError): unknown;
  /** The path the payment names as its resource (default: the request's). */
  readonly resourcePath?: string;
}

/** Each paid operation's exact path and what a body buys there; the express routes and the challenge lane share it. */
export function paidRouteTable(deps: PaidRouteDeps): Map<string, (body: unknown) => PaidOperation> {
  const table = new Map<string, (body: unknown) => PaidOperation>();
  for (const skill of deps.registry.list('http')) {
    for (const path of httpPaths(skill)) table.set(path, (body) => operationFor(skill, body, deps));
  }
  return table;
}

export function mountPaidRoutes(app: Express, deps: PaidRouteDeps, table = paidRouteTable(deps)): void {
  for (const [path, buy] of table) app.post(path, (req, res) => servePaid(buy(hasBody(req) ? req.body : undefined), req, res, deps));
}

/** A registry skill sold on one surface: its price from `list`, its catalogue limits, its admission, its handler. */
export function skillOperation(skill: Skill, input: Record<string, unknown>, context: SkillContext, list: PriceList = 'http'): PaidOperation {
  return {
    amount: skill.quote(input, list),
    description: skill.description,
    limits: catalogLimits(skill, input),
    admit: () => admit(skill, input, context),
    run: (signal) => skill.handler(input, { ...context, signal }),
  };
}

/** Charges for one operation over HTTP: 402 challenge, or the paid work answered with its receipt. */
export async function servePaid(operation: PaidOperation, req: Request, res: Response, deps: Pick<PaidRouteDeps, 'paywall' | 'publicUrl' | 'limiter'>): Promise<void> {
  const resource = { url: `${deps.publicUrl(req)}${operation.resourcePath ?? req.path}`, description: operation.description, mimeType: 'application/json' };
  try {
    await operation.admit?.();
  } catch (err) {
    if (operation.fail) return void res.status(200).json(operation.fail(toSibylError(err)));
    throw err;
  }
  const header = req.get('x-payment') ?? req.get('payment-signature');
  if (!header) return sendChallenge(res, deps.paywall.challenge(operation.amount, resource));
  try {
    const { answer, receipt } = await charge(operation, header, resource, deps);
    const body = operation.respond ? await operation.respond(answer, receipt) : answer;
    res.set(receipt.headers);
    if (receipt.pending) res.set('X-Settlement-Status', 'pending');
    res.status(operation.status?.(receipt) ?? 200).json(body);
  } catch (err) {
    if (err instanceof PaymentRefused) return sendChallenge(res, deps.paywall.challenge(operation.amount, resource, err));
    if (operation.fail) return void res.status(200).json(operation.fail(toSibylError(err)));
    throw err;
  }
}

/**
 * The paid work itself, whatever carries the payment (an HTTP header, an A2A message): verify and
 * reserve the payment, take the service's rate limit, run within its time target, settle. Failed
 * work releases the reservation and moves no money. Throws PaymentRefused for a refused payment.
 */
export async function charge(operation: PaidOperation, paymentHeader: string, resource: Resource, deps: Pick<PaidRouteDeps, 'paywall' | 'limiter'>): Promise<{ answer: Record<string, unknown>; receipt: Receipt }> {
  const { paywall } = deps;
  const authorization = await paywall.authorize(paymentHeader, operation.amount, resource);
  let answer: Record<string, unknown>;
  try {
    if (operation.limits) await deps.limiter.take(operation.limits, authorization.payer);
    answer = await withinTarget(operation.limits, (signal) => operation.run(signal));
  } catch (err) {
    // The authorization was not used: given back through the outbox, so a store that is down
    // delays the release, never the error answer (or replaces its reason).
    await paywall.outbox.submit('reservation-release', { key: authorization.reservationKey }, () => paywall.release(authorization));
    throw toSibylError(err);
  }
  return { answer, receipt: await paywall.settle(authorization) };
}

/**
 * What one body buys: the skill itself, or, when the skill has a `capabilityField` and the body
 * names another agent skill in it, that skill with the remaining fields at that skill's price.
 */
function operationFor(skill: Skill, body: unknown, deps: PaidRouteDeps): PaidOperation {
  const field = skill.capabilityField;
  if (field && body && typeof body === 'object' && !Array.isArray(body) && field in body) {
    const { [field]: id, ...fields } = body as Record<string, unknown>;
    const capabilities = deps.registry.capabilitiesOf(skill);
    const target = capabilities.find((s) => s.id === id);
    const declared = deps.registry.byId(String(id));
    if (!target && declared?.disabledReason) throw new SibylError('domain_disabled', declared.disabledReason, { reason: 'domain_disabled' });
    if (!target) {
      const rule = `must be one of ${capabilities.map((s) => s.id).join(', ')}`;
      throw new SibylError('invalid_body', `${field}: ${rule}`, { fields: [{ field, rule }] });
    }
    const input = parseBody(target.input, fields);
    const { agent } = deps.context;
    const operation = skillOperation(target, input, deps.context, 'catalog');
    return agent ? { ...operation, run: async (signal) => ({ ...(await agent.capability(target, input, signal)) }) } : operation;
  }
  return skillOperation(skill, parseBody(skill.input, body), deps.context);
}

/** The spec requires a body on every operation; an empty POST is not `{}`. */
export function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function sendChallenge(res: Response, challenge: ReturnType<Paywall['challenge']>): void {
  res.status(challenge.status).set(challenge.headers).json(challenge.body);
}

