/**
 * `/llms.txt` (llmstxt.org): what Sibyl is and how an agent uses each surface, then every working
 * skill with its price on each way to buy it — projected from the registry through offers.ts.
 */
import { A2A_SKILLS_PATH } from '../cards/a2a-skills.js';
import { A2A_JSONRPC_PATH, AGENT_CARD_URL_PATH as AGENT_CARD, X402_EXTENSION_URI } from '../cards/agent-card.js';
import { MCP_PATH } from '../cards/mcp-tools.js';
import { X402_NETWORK } from '../payments/terms.js';
import { formatUsd } from '../skills/core/money.js';
import type { Registry } from '../skills/core/registry.js';
import { priceLabel, type Offer, type Way } from './offers.js';
import { ROUTES } from '../cards/routes.js';


const WAY: Record<Way['kind'], string> = {
  http: 'HTTP x402', report: 'report path x402', a2a: 'A2A x402', 'a2a-jsonrpc': 'A2A JSON-RPC', 'mcp-per-call': 'MCP per call x402',
  'mcp-credits': 'MCP credits', 'mcp-free': 'MCP free', own: 'own API',
};

/** One line per markdown list item: no newlines from a description. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

export function buildLlmsTxt(registry: Registry, offers: readonly Offer[], serverUrl: string, accountPaths: readonly string[]): string {
  const bounds = registry.httpPriceBounds();
  const way = (w: Way) => `${WAY[w.kind]} ${w.tool ? `${w.tool}${w.toolArguments && Object.keys(w.toolArguments).length ? ` ${JSON.stringify(w.toolArguments)}` : ''}` : `POST ${w.path}${w.body ? ` ${JSON.stringify(w.body)}` : ''}`} ${priceLabel(w)}`;
  const skill = (o: Offer) => {
    const link = o.ways.find((w) => w.kind === 'http') ? `${serverUrl}/docs#/${encodeURIComponent(o.skill.tags[0] ?? 'default')}/${o.skill.id}` : `${serverUrl}${A2A_SKILLS_PATH}`;
    return `- [${o.skill.title}](${link}): \`${o.skill.id}\`. ${oneLine(o.skill.description)} Ways: ${o.ways.map(way).join('; ')}.`;
  };
  const paid = offers.filter((o) => !o.skill.free);
  const free = offers.filter((o) => o.skill.free);
  return `# Sibyl

> Sibyl is a pay-per-request blockchain-intelligence node: ${offers.length} skills (market data, security, wallets, DeFi, forecasts, and more) sold one call at a time in USDC with x402, no API keys. Every answer says where its figures come from (chain, block range or fetchedAt, methodology); a failed or unavailable answer is never charged.

Payments: x402 v2, scheme \`exact\`, network \`${X402_NETWORK}\`, USDC (EIP-3009 transferWithAuthorization)${bounds ? `, ${formatUsd(bounds.min)} to ${formatUsd(bounds.max)} per HTTP call` : ''}. Send the request; on \`402\` read the PaymentRequired (base64 in the \`PAYMENT-REQUIRED\` header, and the JSON body), sign, and send the same request again with the payment payload in \`PAYMENT-SIGNATURE\` (or \`X-PAYMENT\`). The settlement receipt comes back in \`PAYMENT-RESPONSE\`. Bad input is a 400 naming the field and rule, before any 402. The official clients \`@x402/fetch\` with \`@x402/evm\` do the whole flow; raise their \`spendControls.maxAmountPerPayment\` above $1 for the dearer calls.

## Surfaces

- [OpenAPI](${serverUrl}${ROUTES.openapi}): every paid HTTP operation with its request and response schemas and price; rendered at [${serverUrl}/docs](${serverUrl}/docs).
- [Marketplace catalogue](${serverUrl}${ROUTES.marketplaceCatalog}): the catalogue services, each way to buy them, rate limits and response-time targets.
- [A2A agent card](${serverUrl}${AGENT_CARD}): the A2A agent; JSON-RPC \`message/send\` at \`${A2A_JSONRPC_PATH}\` with the a2a-x402 extension (\`X-A2A-Extensions: ${X402_EXTENSION_URI}\`).
- [A2A skills](${serverUrl}${A2A_SKILLS_PATH}): every A2A skill with price, params and output schemas; \`POST ${A2A_SKILLS_PATH}/<id>\` with \`{"params": {...}}\`, paid with x402.
- [MCP tools](${serverUrl}${MCP_PATH}/tools): the MCP tool server at \`${MCP_PATH}\` (streamable HTTP, stateless, JSON-RPC over POST). Free tools answer anyone; paid tools are billed from credits (sign in with Ethereum, or through OAuth 2.1 as the MCP authorization spec describes: the 401 names the protected-resource metadata, the authorization server is at \`/.well-known/oauth-authorization-server\`; top up with x402: ${accountPaths.map((p) => `\`${p}\``).join(', ')}); a skill's own tool name is also sold per call with \`X-PAYMENT\`.
- [Health](${serverUrl}${ROUTES.health}) (also \`${ROUTES.readiness}\`; \`${ROUTES.liveness}\` for liveness): each part (store, chains, Bitcoin) up, slow or down, chains' RPC URLs, head and indexed blocks, the payment terms; 503 only while a part is down.
- [Example answers](${serverUrl}/api/examples/${paid[0]?.skill.id ?? offers[0]?.skill.id ?? ""}): \`GET /api/examples/<skill id>\` gives a real answer of a skill on its example body, free, recomputed at most every 10 minutes.

## Paid skills

${paid.map(skill).join('\n')}

## Free tools

${free.map(skill).join('\n')}

## Optional

- [Pages for people](${serverUrl}/): the catalogue with example requests and answers, and a panel that pays from a browser wallet.
- [Forecast chart](${serverUrl}/forecast): a major's candles with the forecast's q10/q50/q90 band, the consensus verdict and the accuracy leaderboard.
`;
}
