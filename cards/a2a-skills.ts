/** The A2A skill list (`GET /api/a2a/skills`), projected from the registry: each skill on the `a2a` surface with its catalogue price. */
import { z } from 'zod';
import type { Registry, Skill } from '../skills/core/registry.js';
import { answerSchema, priceOptions } from './openapi.js';
import type { a2aSkillListDocument } from './documents.js';
import { PAYMENT_ASSET_SYMBOL, X402_NETWORK } from '../payments/terms.js';

export const A2A_SKILLS_PATH = '/api/a2a/skills';

/** The skills published over A2A: on the surface, and with an engine. */
export function a2aSkills(registry: Registry): Skill[] {
  return registry.published('a2a');
}

/** "0.45", or "0.25-0.65" when the body selects the price. */
export function a2aPriceUsd(skill: Skill): string {
  const prices = priceOptions(skill, 'catalog');
  return prices.length === 1 ? prices[0]! : `${prices[0]}-${prices[prices.length - 1]}`;
}

export function buildA2aSkillList(registry: Registry, serverUrl: string): z.input<typeof a2aSkillListDocument> {
  const skills = a2aSkills(registry).map((skill) => ({
    id: skill.id,
    name: skill.title,
    description: skill.description,
    tags: [...skill.tags],
    examples: [...skill.examples],
    priceUsd: a2aPriceUsd(skill),
    currency: PAYMENT_ASSET_SYMBOL,
    endpoint: `${serverUrl}${A2A_SKILLS_PATH}/${skill.id}`,
    body: 'envelope { "params": { ... } }, params as below',
    params: z.toJSONSchema(skill.input, { io: 'input' }),
    // What the skill answers (its registry output schema).
    output: answerSchema(skill),
    inputModes: ['application/json'],
    outputModes: ['application/json'],
  }));
  return { count: skills.length, payment: { protocol: 'x402' as const, network: X402_NETWORK, asset: PAYMENT_ASSET_SYMBOL }, skills };
}
