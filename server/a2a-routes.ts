/**
 * A2A skills over plain HTTP (docs/protocols.md, "A2A skills over HTTP"): `GET /api/a2a/skills` lists them, and
 * `POST /api/a2a/skills/<id>` with `{ "params": { ... } }` runs one, paid with x402 at its
 * catalogue price. The answer is `{ status, skill, response, payment }`.
 */
import type { Express, Request } from 'express';
import { z } from 'zod';
import { A2A_SKILLS_PATH, buildA2aSkillList } from '../cards/a2a-skills.js';
import { SibylError } from '../skills/core/errors.js';
import type { Receipt } from '../payments/paywall.js';
import type { PaidOperation } from '../payments/operation.js';
import type { Skill } from '../skills/core/registry.js';
import { a2aSkillOperation } from '../agent/a2a-operation.js';
import { hasBody, servePaid, type PaidRouteDeps } from './paid-routes.js';
import { parseBody } from '../skills/core/validation.js';
import { boundedMemo, ORIGINS_KEPT } from '../lib/memo.js';

const envelope = z.strictObject({ params: z.record(z.string(), z.unknown()).default({}).describe('The skill\'s parameters.') });

export function mountA2aRoutes(app: Express, deps: PaidRouteDeps): void {
  // Serialised once per origin (a JSON schema from zod for each skill's params and answer).
  const list = boundedMemo(ORIGINS_KEPT, (url: string) => Buffer.from(JSON.stringify(buildA2aSkillList(deps.registry, url))));
  app.get(A2A_SKILLS_PATH, (req, res) => {
    res.type('json').send(list(deps.publicUrl(req)));
  });
  app.post(`${A2A_SKILLS_PATH}/:id`, (req, res) => {
    // A skill of the spec this deployment has turned off says why, before any payment.
    const skill = deps.registry.resolve('a2a', { id: req.params.id });
    if (!skill) throw new SibylError('not_found', `no A2A skill "${req.params.id}"; GET ${A2A_SKILLS_PATH} lists them`);
    return servePaid(a2aOperation(skill, hasBody(req) ? req.body : undefined, deps, req), req, res, deps);
  });
}

function a2aOperation(skill: Skill, body: unknown, deps: PaidRouteDeps, req: Request): PaidOperation {
  const { params } = parseBody(envelope, body);
  const operation = a2aSkillOperation(skill, params, deps.context);
  return {
    ...operation,
    respond: (answer: Record<string, unknown>, receipt: Receipt) => ({
      status: receipt.pending ? 'completed-settlement-pending' : 'completed',
      skill: skill.id,
      response: answer,
      payment: { network: receipt.settlement.network, transaction: receipt.settlement.transaction || null, payer: receipt.settlement.payer ?? null, amount: String(operation.amount), endpoint: `${deps.publicUrl(req)}${req.path}` },
    }),
  };
}
