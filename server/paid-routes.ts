/**
 * The paid HTTP operations, one POST route per registry skill with an `httpPath`, following
 * the request flow of docs/architecture.md: validate → admit (what the request alone decides) → price →
 * 402 challenge, or the payments core's charge (verify + reserve → run → settle) answered with
 * the receipt. Failed work releases the reservation and moves no money; so does an answer of
 * nothing (`available: false`), answered `422 no_answer` with that answer and `charged: false`,
 * without PAYMENT-RESPONSE (as x402's own middleware settles nothing on a status of 400 or more).
 */
import type { Express, Request, Response } from 'express';
import { decodePaymentHeader, PaymentRefused, type Paywall } from '../payments/paywall.js';
import type { SkillContext } from '../skills/core/context.js';
import { httpPaths, type Registry, type Skill } from '../skills/core/registry.js';
import { skillOperation, type PaidOperation } from '../payments/operation.js';
import type { X402Payments } from '../payments/x402-method.js';
import { SibylError } from '../skills/core/errors.js';
import { toSibylError } from '../skills/core/error-mapping.js';
import { parseBody } from '../skills/core/validation.js';
import { annotate, limitFacts } from './observability/request-scope.js';

export interface PaidRouteDeps {
  registry: Registry;
  paywall: Paywall;
  context: SkillContext;
  /** The charge flow, with the rate limits and time targets hooked in. */
  payments: X402Payments;
  publicUrl: (req: Request) => string;
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

/** Charges for one operation over HTTP: 402 challenge, or the paid work answered with its receipt. */
export async function servePaid(operation: PaidOperation, req: Request, res: Response, deps: Pick<PaidRouteDeps, 'paywall' | 'publicUrl' | 'payments'>): Promise<void> {
  const resource = { url: `${deps.publicUrl(req)}${operation.resourcePath ?? req.path}`, description: operation.description, mimeType: 'application/json' };
  annotate({ ...limitFacts(operation) }, req);
  try {
    await operation.admit?.();
  } catch (err) {
    if (operation.fail) return void res.status(200).json(operation.fail(toSibylError(err)));
    throw err;
  }
  const header = req.get('x-payment') ?? req.get('payment-signature');
  if (!header) return sendChallenge(res, deps.paywall.challenge(operation.amount, resource));
  try {
    const { payments } = deps;
    const { answer, receipt } = await payments.charge(operation, payments.x402, decodePaymentHeader(header), resource);
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
 * What one body buys: the skill itself, or, when the skill has a `capabilityField` and the body
 * names another agent skill in it, that skill with the remaining fields at that skill's price.
 */
function operationFor(skill: Skill, body: unknown, deps: PaidRouteDeps): PaidOperation {
  const field = skill.capabilityField;
  if (field && body && typeof body === 'object' && !Array.isArray(body) && field in body) {
    const { [field]: id, ...fields } = body as Record<string, unknown>;
    const capabilities = deps.registry.capabilitiesOf(skill);
    // A capability this deployment has turned off is refused as on every surface, before any payment.
    const named = deps.registry.resolve(null, { id: String(id) });
    const target = capabilities.find((s) => s === named);
    if (!target) {
      const rule = `must be one of ${capabilities.map((s) => s.id).join(', ')}`;
      throw new SibylError('invalid_body', `${field}: ${rule}`, { fields: [{ field, rule }] });
    }
    const input = parseBody(target.input, fields);
    const { agent } = deps.context;
    const operation = skillOperation(target, input, deps.context, 'catalog');
    // Through the agent the answer is its written report, which refuses one of nothing by the same rule (graph/report.ts).
    return agent ? { ...operation, run: async (signal) => ({ ...(await agent.capability(target, input, signal)) }), product: undefined } : operation;
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

