/**
 * DNS-rebinding protection of the MCP endpoint (MCP 2025-11-25 Streamable HTTP transport: a
 * server MUST validate `Origin` and answer 403 to an invalid one), with raw HTTP so the headers
 * go out exactly as written: a foreign Origin (or, on a loopback server, a foreign Host) gets 403
 * `forbidden_origin` in the JSON error shape before anything else runs; no Origin, the configured
 * origin, its loopback names and MCP_ALLOWED_ORIGINS pass. The official SDK client (no Origin)
 * works as before.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ConfigError, loadConfig } from '../../server/config.js';
import { originPolicy, refusal } from '../../server/mcp/origin.js';
import { useTestSibyl, type TestSibyl } from '../helpers/sibyl.js';

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'origin-test', version: '1.0.0' } } });
const paidCall = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask_service', arguments: { prompt: 'hi' } } });
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** One request with exactly these headers (fetch would not send `Host` as given). */
function raw(sibyl: TestSibyl, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; contentType: string; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(`${sibyl.url}${path}`, { method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        resolve({ status: res.statusCode!, contentType: String(res.headers['content-type'] ?? ''), body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

function expectForbidden(res: { status: number; contentType: string; body: any }, what: RegExp) {
  expect(res.status).toBe(403);
  expect(res.contentType).toMatch(/^application\/json/);
  expect(res.body.error.code).toBe('forbidden_origin');
  expect(res.body.error.message).toMatch(what);
}

describe('MCP endpoint on a loopback server without PUBLIC_URL (the default)', () => {
  const sibyl = useTestSibyl();
  const own = () => new URL(sibyl.url);

  it('refuses the DNS-rebinding request (foreign Host and Origin) with 403 in the JSON error shape, as the conformance scenario sends it', async () => {
    const res = await raw(sibyl, 'POST', '/api/mcp', { ...MCP_HEADERS, host: 'evil.example.com', origin: 'http://evil.example.com' }, initialize);
    expectForbidden(res, /Origin http:\/\/evil\.example\.com/);
    // The valid twin of that scenario: Host and Origin naming this server.
    const ok = await raw(sibyl, 'POST', '/api/mcp', { ...MCP_HEADERS, host: own().host, origin: own().origin }, initialize);
    expect(ok.status).toBe(200);
    expect(ok.body.result.serverInfo).toMatchObject({ name: 'sibyl', version: '3.0.0' });
  });

  it('refuses a foreign Origin with the right Host, and a foreign Host without Origin', async () => {
    for (const origin of ['http://evil.example.com', `http://evil.example.com:${own().port}`, 'null', 'https://127.0.0.1', `http://localhost:${Number(own().port) + 1}`, `https://${own().host}`]) {
      expectForbidden(await raw(sibyl, 'POST', '/api/mcp', { ...MCP_HEADERS, origin }, initialize), /Origin/);
    }
    expectForbidden(await raw(sibyl, 'POST', '/api/mcp', { ...MCP_HEADERS, host: `evil.example.com:${own().port}` }, initialize), /Host evil\.example\.com/);
  });

  it('allows no Origin, the configured origin and its loopback names (any loopback Host)', async () => {
    const port = own().port;
    const cases: Record<string, string>[] = [{}, { origin: own().origin }, { origin: `http://localhost:${port}` }, { origin: `http://[::1]:${port}` }, { host: `localhost:${port}` }, { host: `[::1]:${port}`, origin: `http://127.0.0.1:${port}` }];
    for (const headers of cases) {
      const res = await raw(sibyl, 'POST', '/api/mcp', { ...MCP_HEADERS, ...headers }, initialize);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.body.result.protocolVersion).toBe('2025-11-25');
    }
  });

  it('checks before anything else: a paid call gets 403 rather than 401, GET and DELETE 403 rather than 405; the JSON tool list is not the endpoint', async () => {
    const foreign = { origin: 'http://evil.example.com' };
    expectForbidden(await raw(sibyl, 'POST', '/api/mcp', { ...MCP_HEADERS, ...foreign }, paidCall), /Origin/);
    expect((await raw(sibyl, 'POST', '/api/mcp', MCP_HEADERS, paidCall)).status).toBe(401);
    expectForbidden(await raw(sibyl, 'GET', '/api/mcp', { accept: 'text/event-stream', ...foreign }), /Origin/);
    expectForbidden(await raw(sibyl, 'DELETE', '/api/mcp', foreign), /Origin/);
    expect((await raw(sibyl, 'GET', '/api/mcp', { accept: 'text/event-stream' })).status).toBe(405);
    expect((await raw(sibyl, 'GET', '/api/mcp/tools', foreign)).status).toBe(200);
  });

  it('fetch with a foreign Origin is refused too; the official SDK client (no Origin) connects', async () => {
    const res = await fetch(`${sibyl.url}/api/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, origin: 'https://attacker.example' }, body: initialize });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('forbidden_origin');
    const client = new Client({ name: 'origin-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${sibyl.url}/api/mcp`)));
    expect(client.getServerVersion()).toMatchObject({ name: 'sibyl', version: '3.0.0' });
    await client.close();
    // The same client sending a foreign Origin cannot even initialize.
    const foreign = new Client({ name: 'origin-test', version: '1.0.0' });
    await expect(foreign.connect(new StreamableHTTPClientTransport(new URL(`${sibyl.url}/api/mcp`), { requestInit: { headers: { origin: 'https://attacker.example' } } }))).rejects.toThrow(/forbidden_origin/);
  });
});

describe('MCP endpoint with PUBLIC_URL and MCP_ALLOWED_ORIGINS', () => {
  const sibyl = useTestSibyl({ env: { PUBLIC_URL: 'https://sibyl.example.org', MCP_ALLOWED_ORIGINS: 'https://app.example.net, http://localhost:5173' } });

  it('allows the public origin and the listed ones whatever Host a proxy forwards; refuses any other Origin, loopback ones included', async () => {
    for (const origin of ['https://sibyl.example.org', 'https://app.example.net', 'http://localhost:5173']) {
      for (const host of [new URL(sibyl.url).host, 'sibyl.example.org', 'sibyl-backend.internal:4021']) {
        expect((await raw(sibyl, 'POST', '/api/mcp', { ...MCP_HEADERS, host, origin }, initialize)).status, `${origin} via ${host}`).toBe(200);
      }
    }
    // Behind a public URL the Host is the proxy's business: without Origin any Host passes.
    expect((await raw(sibyl, 'POST', '/api/mcp', { ...MCP_HEADERS, host: 'evil.example.com' }, initialize)).status).toBe(200);
    for (const origin of ['http://sibyl.example.org', 'https://evil.example.com', new URL(sibyl.url).origin, 'http://localhost:5174', 'https://app.example.net.evil.example']) {
      expectForbidden(await raw(sibyl, 'POST', '/api/mcp', { ...MCP_HEADERS, origin }, initialize), /Origin/);
    }
  });
});

describe('origin policy and its configuration', () => {
  it('MCP_ALLOWED_ORIGINS takes comma-separated http(s) origins and refuses anything else', () => {
    expect(loadConfig({ EMBEDDED_CHAINS: '', MCP_ALLOWED_ORIGINS: 'https://A.example.com/, http://localhost:5173' }).mcpAllowedOrigins).toEqual(['https://a.example.com', 'http://localhost:5173']);
    expect(loadConfig({ EMBEDDED_CHAINS: '' }).mcpAllowedOrigins).toEqual([]);
    for (const bad of ['a.example.com', 'https://a.example.com/path', 'ftp://a.example.com', 'https://a.example.com?x=1', '*']) {
      expect(() => loadConfig({ EMBEDDED_CHAINS: '', MCP_ALLOWED_ORIGINS: bad }), bad).toThrow(ConfigError);
    }
  });

  it('a server listening on every interface allows its loopback names as origins but checks no Host', () => {
    const policy = originPolicy('http://0.0.0.0:4021');
    expect(refusal(policy, 'http://localhost:4021', 'lan-box:4021')).toBeNull();
    expect(refusal(policy, undefined, '192.168.1.20:4021')).toBeNull();
    expect(refusal(policy, 'http://192.168.1.20:4021', '192.168.1.20:4021')).toMatch(/Origin/);
  });
});
