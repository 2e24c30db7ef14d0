/**
 * The A2A agent card (`/.well-known/agent-card.json`), projected from the registry: every
 * working A2A skill with id, name, description, tags, examples, input and output modes and its
 * price in its description, the JSON-RPC interface in A2A 1.0 and 0.3, and the a2a-x402 extension
 * that carries the payments, with every skill's price in its params (the 1.0 schema allows no
 * field of our own on a skill).
 *
 * The extension is not `required`: a client that does not declare it still discovers the skills,
 * and its request gets an `input-required` task whose status message carries the x402 payment
 * requirements (a2a-x402 v0.2 §5.3), so it learns how to pay; nothing runs or is charged until a
 * payment is verified. A required extension would refuse every generic A2A client (-32008)
 * before it could learn any of that.
 */
import { AGENT_CARD_PATH, type AgentCard, type AgentSkill } from '@a2a-js/sdk';
import { PAYMENT_ASSET_SYMBOL, X402_NETWORK, type PaymentTerms } from '../payments/terms.js';
import type { Registry } from '../skills/core/registry.js';
import { a2aPriceUsd, a2aSkills } from './a2a-skills.js';

/** The a2a-x402 extension (v0.2): payment-required tasks, payment payloads in messages, receipts on completion. */
export const X402_EXTENSION_URI = 'https://github.com/google-agentic-commerce/a2a-x402/blob/main/spec/v0.2';
export const A2A_JSONRPC_PATH = '/a2a';
/** Where the agent card is served (the SDK's well-known path, which it names without the leading slash). */
export const AGENT_CARD_URL_PATH = `/${AGENT_CARD_PATH}`;

export function buildAgentCard(registry: Registry, terms: PaymentTerms, serverUrl: string, version: string): AgentCard {
  const skills: AgentSkill[] = a2aSkills(registry).map((skill) => ({
    id: skill.id,
    name: skill.title,
    description: `${skill.description} Price: $${a2aPriceUsd(skill)} USDC per request (x402).`,
    tags: [...skill.tags],
    examples: [...skill.examples],
    // A data part { skill, params }; the report agent also takes plain text.
    inputModes: skill.capabilityField ? ['text/plain', 'application/json'] : ['application/json'],
    outputModes: ['application/json', 'text/plain'],
    securityRequirements: [],
  }));
  const prices = Object.fromEntries(a2aSkills(registry).map((skill) => [skill.id, a2aPriceUsd(skill)]));
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
        description: 'Skills are paid per call: the task stops in input-required with x402.payment.required in its status message metadata, the client answers on the task with x402.payment.payload, the completed task carries x402.payment.receipts. Prices in USDC per request, by skill id.',
        required: false,
        params: { network: X402_NETWORK, asset: terms.asset, payTo: terms.payTo, currency: PAYMENT_ASSET_SYMBOL, prices },
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
