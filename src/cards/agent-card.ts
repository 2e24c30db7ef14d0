/**
 * The A2A agent card (`/.well-known/agent-card.json`), projected from the registry: every
 * working A2A skill with id, name, description, tags, examples, input and output modes and its
 * price, the JSON-RPC interface in A2A 1.0 and 0.3, and the a2a-x402 extension that carries the
 * payments (required: every skill is paid).
 */
import type { AgentCard, AgentSkill } from '@a2a-js/sdk';
import { X402_NETWORK, type PaymentTerms } from '../payments/terms.js';
import type { Registry } from '../skills/registry.js';
import { a2aPriceUsd, a2aSkills } from './a2a-skills.js';

/** The a2a-x402 extension (v0.2): payment-required tasks, payment payloads in messages, receipts on completion. */
export const X402_EXTENSION_URI = 'https://github.com/google-agentic-commerce/a2a-x402/blob/main/spec/v0.2';
export const A2A_JSONRPC_PATH = '/a2a';

export type PricedAgentSkill = AgentSkill & { price: { amountUsd: string; currency: 'USDC'; network: string } };

export function buildAgentCard(registry: Registry, terms: PaymentTerms, serverUrl: string, version: string): AgentCard {
  const skills: PricedAgentSkill[] = a2aSkills(registry).map((skill) => ({
    id: skill.id,
    name: skill.title,
    description: `${skill.description} Price: $${a2aPriceUsd(skill)} USDC per request (x402).`,
    tags: [...skill.tags],
    examples: [...skill.examples],
    // A data part { skill, params }; the report agent also takes plain text.
    inputModes: skill.capabilityField ? ['text/plain', 'application/json'] : ['application/json'],
    outputModes: ['application/json', 'text/plain'],
    securityRequirements: [],
    price: { amountUsd: a2aPriceUsd(skill), currency: 'USDC', network: X402_NETWORK },
  }));
  const url = `${serverUrl}${A2A_JSONRPC_PATH}`;
  return {
    name: 'Sibyl',
    description: 'Pay-per-request on-chain and market intelligence. Send a data part { "skill": id, "params": {...} } to run a skill, or text to ask the analysis agent; every call is paid with x402 (USDC on Base) through the a2a-x402 extension.',
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ],
    provider: { organization: 'Sibyl', url: serverUrl },
    version,
    documentationUrl: `${serverUrl}/openapi.json`,
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [{
        uri: X402_EXTENSION_URI,
        description: 'Skills are paid per call: the task asks for payment (x402.payment.required), the client answers with x402.payment.payload, the completed task carries x402.payment.receipts.',
        required: true,
        params: { network: X402_NETWORK, asset: terms.asset, payTo: terms.payTo, prices: Object.fromEntries(skills.map((s) => [s.id, s.price.amountUsd])) },
      }],
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['application/json', 'text/plain'],
    defaultOutputModes: ['application/json', 'text/plain'],
    skills,
    signatures: [],
  };
}
