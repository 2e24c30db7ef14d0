/**
 * The marketplace catalogue (docs/protocols.md, "Marketplace catalogue and limits") projected from the registry: the services that carry a
 * catalogue entry, each with every way to buy it and the price that way really charges, its
 * rate limit per minute and response-time target (both enforced by the server), and whether
 * this deployment can serve it. Minimum and maximum prices are computed from the ways.
 */
import { atomicToUsdString, usdToAtomic, type UsdPrice } from '../skills/core/money.js';
import { X402_NETWORK, type PaymentTerms } from '../payments/terms.js';
import { A2A_SKILLS_PATH } from './a2a-skills.js';
import { A2A_JSONRPC_PATH, X402_EXTENSION_URI } from './agent-card.js';
import { PAID_TOOLS, kindPrice } from '../skills/catalog/paid-tools.js';
import { MCP_PATH } from './mcp-tools.js';
import { httpPaths, isWorking, priceVariants, type CatalogEntry, type Registry, type Skill } from '../skills/core/registry.js';
import { priceOptions } from './openapi.js';

export const CATALOG_VERSION = '1.4.0';

/** Ways to buy a skill that no registry surface projects (the forecast inference API's own path and quota), described by the route that serves them. */
export type OwnWays = (serverUrl: string, rail: PaymentRail) => readonly Purchase[];

/** Where an x402 way's payment goes. */
export interface PaymentRail {
  readonly network: string;
  readonly asset: string;
  readonly payTo: string;
}

/** One way to buy a service. */
export interface Purchase {
  readonly method: 'x402' | 'service-token-quota' | 'credits';
  readonly priceUsd: string;
  readonly [field: string]: unknown;
}

export function buildCatalog(registry: Registry, terms: PaymentTerms, serverUrl: string, ownWays: Readonly<Record<string, OwnWays>> = {}) {
  const rail: PaymentRail = { network: X402_NETWORK, asset: terms.asset, payTo: terms.payTo };
  const report = registry.list('http').find((s) => s.capabilityField);
  const groups = new Map<string, Skill[]>();
  for (const skill of registry.list().filter((s) => s.catalog)) {
    const id = skill.catalog!.id ?? skill.id;
    groups.set(id, [...(groups.get(id) ?? []), skill]);
  }
  const services = [...groups].map(([id, skills]) => {
    const primary = skills.find((s) => s.id === id) ?? skills[0]!;
    const purchase: Purchase[] = skills.flatMap((skill): Purchase[] => [
      ...(skill.surfaces.includes('http') ? httpPaths(skill).map((path) => ({
        method: 'x402' as const, protocol: 'http', httpMethod: 'POST', url: `${serverUrl}${path}`, path,
        priceUsd: httpPrice(skill), ...(skill.catalog?.when && { body: skill.catalog.when }), ...rail,
      })) : []),
      ...(skill === primary && isWorking(skill) && report && skill.surfaces.includes('agent') ? [{
        method: 'x402' as const, protocol: 'http', httpMethod: 'POST', url: `${serverUrl}${report.httpPath}`, path: report.httpPath,
        priceUsd: priceOptions(skill, 'catalog')[0]!, body: { [report.capabilityField!]: skill.id }, ...rail,
      }] : []),
      ...(skill === primary && isWorking(skill) && skill.surfaces.includes('a2a') ? [{
        method: 'x402' as const, protocol: 'a2a', httpMethod: 'POST', url: `${serverUrl}${A2A_SKILLS_PATH}/${skill.id}`, path: `${A2A_SKILLS_PATH}/${skill.id}`,
        priceUsd: priceOptions(skill, 'catalog')[0]!, body: { params: {} }, ...rail,
      }, {
        method: 'x402' as const, protocol: 'a2a-jsonrpc', url: `${serverUrl}${A2A_JSONRPC_PATH}`, path: A2A_JSONRPC_PATH, extension: X402_EXTENSION_URI,
        message: { skill: skill.id, params: {} }, priceUsd: priceOptions(skill, 'catalog')[0]!, ...rail,
      }] : []),
      ...(skill === primary && isWorking(skill) && skill.surfaces.includes('mcp') && skill.toolName ? [{
        method: 'x402' as const, protocol: 'mcp-tool', url: `${serverUrl}${MCP_PATH}`, path: MCP_PATH, tool: skill.toolName, priceUsd: priceOptions(skill, 'catalog')[0]!, ...rail,
      }] : []),
      ...(skill === primary && isWorking(skill) ? mcpCreditWays(registry, skill, serverUrl) : []),
      ...(ownWays[skill.id]?.(serverUrl, rail) ?? []),
    ]);
    return {
      id,
      title: primary.title,
      description: primary.description,
      tags: [...primary.tags],
      available: isWorking(primary),
      ...(!isWorking(primary) && { reason: primary.disabledCode ?? 'domain_disabled', message: primary.disabledReason }),
      priceUsd: priceOptions(primary, 'catalog')[0]!,
      purchase,
      rateLimitPerMinute: primary.catalog!.rateLimitPerMinute,
      responseTimeTargetSeconds: primary.catalog!.timeTargetSeconds,
    };
  });
  const charged = services.flatMap((s) => s.purchase.filter((p) => p.method === 'x402').map((p) => String(p.priceUsd)))
    .flatMap((p) => p.split('-')).map((p) => usdToAtomic(p as UsdPrice));
  return {
    version: CATALOG_VERSION,
    serviceCount: services.length,
    services,
    ...(charged.length && {
      minPriceUsd: atomicToUsdString(charged.reduce((a, b) => (b < a ? b : a))),
      maxPriceUsd: atomicToUsdString(charged.reduce((a, b) => (b > a ? b : a))),
    }),
  };
}

/** The paid MCP tools (and kinds) a skill answers, billed from credits: the tool, its kind argument, what it debits. */
export function creditTools(registry: Registry, skill: Skill): { tool: string; arguments: Record<string, string>; priceUsd: string }[] {
  return PAID_TOOLS.flatMap((tool) => Object.entries(tool.kinds)
    .filter(([, kind]) => kind.skill === skill.id)
    .map(([kind, paid]) => ({
      tool: tool.name,
      arguments: Object.keys(tool.kinds).length > 1 ? { [tool.kindField ?? 'kind']: kind } : {},
      priceUsd: atomicToUsdString(kindPrice(registry, paid)),
    })));
}

/** The catalogue's credit purchases of a skill. */
function mcpCreditWays(registry: Registry, skill: Skill, serverUrl: string): Purchase[] {
  return creditTools(registry, skill).map((t) => ({ method: 'credits' as const, protocol: 'mcp', url: `${serverUrl}${MCP_PATH}`, path: MCP_PATH, ...t }));
}

/** What the skill's HTTP operation charges in this service: the variant its catalogue entry selects, else every price. */
function httpPrice(skill: Skill): string {
  const when = skill.catalog?.when;
  if (!when) return priceOptions(skill).join('-');
  const variant = [...priceVariants(skill.price)].reverse().find((v) => Object.entries(when).every(([k, w]) => (v.when as Record<string, unknown>)[k] === w));
  return atomicToUsdString(usdToAtomic((variant ?? priceVariants(skill.price)[0]!).price));
}
