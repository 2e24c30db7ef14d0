/**
 * A2A skills over plain HTTP (spec 4.6): `GET /api/a2a/skills` lists them, and
 * `POST /api/a2a/skills/<id>` with `{ "params": { ... } }` runs one, paid with x402 at its
 * catalogue price. The answer is `{ status, skill, response, payment }`.
 */
import type { Express, Request } from 'express';
import { z } from 'zod';
import { A2A_SKILLS_PATH, a2aSkills, buildA2aSkillList } from '../cards/a2a-skills.js';
import { SibylError } from '../skills/errors.js';
import type { Receipt } from '../payments/paywall.js';
import type { Skill } from '../skills/registry.js';
import { hasBody, servePaid, skillOperation, type PaidOperation, type PaidRouteDeps } from './paid-routes.js';
import { parseBody } from '../skills/validation.js';

const envelope = z.strictObject({ params: z.record(z.string(), z.unknown()).default({}).describe('The skill\'s parameters.') });

export function mountA2aRoutes(app: Express, deps: PaidRouteDeps): void {
  app.get(A2A_SKILLS_PATH, (req, res) => {
    res.json(buildA2aSkillList(deps.registry, deps.publicUrl(req)));
  });
  app.post(`${A2A_SKILLS_PATH}/:id`, (req, res) => {
    const skill = a2aSkills(deps.registry).find((s) => s.id === req.params.id);
    if (!skill) throw new SibylError('not_found', `no A2A skill "${req.params.id}"; GET ${A2A_SKILLS_PATH} lists them`);
    return servePaid(a2aOperation(skill, hasBody(req) ? req.body : undefined, deps, req), req, res, deps);
  });
}

/** A skill called over A2A (HTTP or JSON-RPC): its params validated, at its catalogue price, under its catalogue limits and admission. */
export function a2aSkillOperation(skill: Skill, params: unknown, deps: Pick<PaidRouteDeps, 'context'>): PaidOperation {
  const input = withPrefix('params', () => parseBody(skill.input, params));
  return skillOperation(skill, input, deps.context, 'catalog');
}

function a2aOperation(skill: Skill, body: unknown, deps: PaidRouteDeps, req: Request): PaidOperation {
  const { params } = parseBody(envelope, body);
  const operation = a2aSkillOperation(skill, params, deps);
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

/** Field errors of the inner object named from the body's root (`params.tokenAddress`). */
function withPrefix<T>(prefix: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof SibylError && err.extra.fields) {
      const fields = err.extra.fields.map((f) => ({ ...f, field: `${prefix}.${f.field}` }));
      throw new SibylError(err.code, fields.map((f) => `${f.field}: ${f.rule}`).join('; '), { ...err.extra, fields });
    }
    throw err;
  }
}
