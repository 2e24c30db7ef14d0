/**
 * Every published document against the others: the agent card, the A2A skill list, the MCP tool
 * list, the marketplace catalogue and OpenAPI name the same skills at the same prices. (Each is
 * also checked against what the server charges in its own test: discovery, a2a, mcp-paid.)
 */
import { describe, expect, it } from 'vitest';
import { PAID_TOOLS } from '../../skills/catalog/paid-tools.js';
import { json, useTestSibyl } from '../helpers/sibyl.js';

describe('published documents agree with each other', () => {
  const sibyl = useTestSibyl();
  const get = async (path: string) => json(await fetch(`${sibyl.url}${path}`, { headers: { 'A2A-Version': '1.0' } }));

  it('card, A2A list, catalogue, OpenAPI and MCP tools give each skill one price', async () => {
    const [card, skills, catalog, openapi, mcp] = await Promise.all([
      get('/.well-known/agent-card.json'), get('/api/a2a/skills'), get('/api/marketplace/catalog'), get('/openapi.json'), get('/api/mcp/tools'),
    ]);
    const a2a = new Map<string, string>(skills.skills.map((s: { id: string; priceUsd: string }) => [s.id, s.priceUsd]));
    // The card lists the same skills at the same prices, also in the x402 extension's table.
    expect(new Map(card.skills.map((s: any) => [s.id, /Price: \$([0-9.-]+) USDC/.exec(s.description)![1]]))).toEqual(a2a);
    const extension = card.capabilities.extensions.find((e: any) => e.uri.includes('a2a-x402'));
    expect(new Map(Object.entries(extension.params.prices))).toEqual(a2a);
    // Every A2A, typed-body and MCP-credit way in the catalogue charges the A2A price of its skill.
    for (const service of catalog.services) {
      for (const way of service.purchase) {
        const skill = way.protocol === 'a2a' ? way.path.split('/').pop() : way.protocol === 'a2a-jsonrpc' ? way.message.skill : way.body?.service;
        if (skill && a2a.has(skill)) expect(way.priceUsd, `${service.id} ${way.protocol}`).toBe(a2a.get(skill));
      }
    }
    // OpenAPI's typed capability bodies are the same prices.
    for (const body of openapi.paths['/x402/svc/report'].post['x-capability-bodies']) {
      if (a2a.has(body.service)) expect(body.prices.join('-'), body.service).toBe(a2a.get(body.service));
    }
    // Each paid MCP tool's range spans its kinds' prices, and a kind served by an A2A skill costs what A2A charges.
    const listed = new Map(mcp.tools.map((t: any) => [t.name, t.priceUsd]));
    for (const tool of PAID_TOOLS) {
      const prices = Object.values(tool.kinds).filter((k) => a2a.has(k.skill)).map((k) => Number(a2a.get(k.skill)));
      const [lo, hi] = String(listed.get(tool.name)).split('-').map(Number);
      for (const p of prices) {
        expect(p, tool.name).toBeGreaterThanOrEqual(lo!);
        expect(p, tool.name).toBeLessThanOrEqual(hi ?? lo!);
      }
    }
  });

  it('OpenAPI lists the sign-in and credit routes with request and response schemas, and the routes answer as listed', async () => {
    const openapi = await get('/openapi.json');
    const body = (op: any) => op.requestBody.content['application/json'].schema;
    // Response schemas sit under components/schemas, referenced by $ref.
    const deref = (schema: any) => (schema.$ref ? openapi.components.schemas[schema.$ref.split('/').pop()] : schema);
    const response = (op: any, status: string) => deref(op.responses[status].content['application/json'].schema);

    const nonce = openapi.paths['/api/auth/nonce'].get;
    expect(response(nonce, '200').required).toEqual(['nonce', 'domain', 'uri', 'chainId', 'expiresInSeconds']);
    const siwe = openapi.paths['/api/auth/siwe'].post;
    expect(body(siwe)).toMatchObject({ type: 'object', required: ['message', 'signature'], additionalProperties: false, properties: { message: { type: 'string' }, signature: { type: 'string' } } });
    expect(response(siwe, '200')).toMatchObject({ required: ['accessToken', 'tokenType', 'expiresAt', 'address'], properties: { tokenType: { const: 'Bearer' } } });
    expect(response(siwe, '401').properties.error.properties.code.enum).toContain('sign_in_invalid');
    const topUp = openapi.paths['/api/credits/topup'].post;
    expect(body(topUp)).toMatchObject({ type: 'object', required: ['amountUsd'], additionalProperties: false, properties: { amountUsd: { type: ['string', 'number'] } } });
    expect(response(topUp, '200').required).toEqual(['account', 'toppedUp', 'balance', 'balanceUsd', 'payment']);
    expect(response(topUp, '202').properties.status).toMatchObject({ const: 'settlement_pending' });
    expect(Object.keys(topUp.responses).sort()).toEqual(['200', '202', '400', '401', '402']);
    expect(topUp.security).toEqual([{ bearer: [] }, { oauth2: ['mcp:tools'] }]);
    expect(openapi.paths['/api/credits'].get.security).toEqual([{ bearer: [] }, { oauth2: ['mcp:tools'] }]);
    expect(openapi.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    // The OAuth scheme names the endpoints and scope the authorization server really publishes.
    const metadata = await get('/.well-known/oauth-authorization-server');
    const flow = openapi.components.securitySchemes.oauth2.flows.authorizationCode;
    expect(flow.authorizationUrl).toBe(metadata.authorization_endpoint);
    expect(flow.tokenUrl).toBe(metadata.token_endpoint);
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(Object.keys(flow.scopes)));
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    // The protected-resource metadata points here for its documentation.
    expect((await get('/.well-known/oauth-protected-resource')).resource_documentation).toBe(`${sibyl.url}/openapi.json`);

    // What the routes answer is what the document says.
    const issued = await get('/api/auth/nonce');
    for (const field of response(nonce, '200').required) expect(issued, field).toHaveProperty(field);
    const post = (path: string, b: unknown) => fetch(`${sibyl.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
    const noToken = await post('/api/credits/topup', { amountUsd: 5 });
    expect(noToken.status).toBe(401);
    expect(response(topUp, '401').properties.error.properties.code.enum).toContain((await json(noToken)).error.code);
    const badSignIn = await post('/api/auth/siwe', { message: 'hello', signature: '0x00' });
    expect(badSignIn.status).toBe(401);
    expect((await json(badSignIn)).error.code).toBe('sign_in_invalid');
  });
});
