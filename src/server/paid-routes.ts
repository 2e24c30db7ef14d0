/**
 * The paid HTTP operations, one POST route per registry skill with an `httpPath`, following
 * DESIGN.md section 3: validate → price → 402 challenge, or verify + reserve → run → settle →
 * answer with the receipt. Failed work releases the reservation and moves no money.
 */
import type { Express, Request, Response } from 'express';
import { PaymentRefused, type Paywall } from '../payments/paywall.js';
import type { SkillContext } from '../skills/context.js';
import { httpPaths, type Registry, type Skill } from '../skills/registry.js';
import { toSibylError } from './errors.js';
import { parseBody } from './validation.js';

export interface PaidRouteDeps {
  registry: Registry;
  paywall: Paywall;
  context: SkillContext;
  publicUrl: (req: Request) => string;
}

export function mountPaidRoutes(app: Express, deps: PaidRouteDeps): void {
  for (const skill of deps.registry.list('http')) {
    for (const path of httpPaths(skill)) app.post(path, (req, res) => servePaid(skill, req, res, deps));
  }
}

async function servePaid(skill: Skill, req: Request, res: Response, deps: PaidRouteDeps): Promise<void> {
  const { paywall } = deps;
  const input = parseBody(skill.input, hasBody(req) ? req.body : undefined);
  const amount = skill.quote(input);
  const resource = { url: `${deps.publicUrl(req)}${req.path}`, description: skill.description, mimeType: 'application/json' };

  const header = req.get('x-payment') ?? req.get('payment-signature');
  if (!header) return sendChallenge(res, paywall.challenge(amount, resource));

  let authorization;
  try {
    authorization = await paywall.authorize(header, amount, resource);
  } catch (err) {
    if (err instanceof PaymentRefused) return sendChallenge(res, paywall.challenge(amount, resource, err));
    throw err;
  }

  let answer: Record<string, unknown>;
  try {
    answer = await skill.handler(input, deps.context);
  } catch (err) {
    await paywall.release(authorization);
    throw toSibylError(err);
  }

  try {
    const receipt = await paywall.settle(authorization);
    res.set(receipt.headers);
    if (receipt.pending) res.set('X-Settlement-Status', 'pending');
    res.status(200).json(answer);
  } catch (err) {
    if (err instanceof PaymentRefused) return sendChallenge(res, paywall.challenge(amount, resource, err));
    throw err;
  }
}

/** The spec requires a body on every operation; an empty POST is not `{}`. */
function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function sendChallenge(res: Response, challenge: ReturnType<Paywall['challenge']>): void {
  res.status(challenge.status).set(challenge.headers).json(challenge.body);
}

