/**
 * The pages for people over plain HTTP (docs/protocols.md, "Pages for people"): `/` lists every working skill with its prices
 * on each surface (projected from the registry), `/docs`, `/llms.txt` and the page scripts answer,
 * example answers are computed once per skill per 10 minutes and shared, the JSON endpoints refuse
 * bad input with a 400 naming the field, and the demo account exists only on a devnet.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a2aPriceUsd, a2aSkills } from '../../cards/a2a-skills.js';
import { priceOptions } from '../../cards/openapi.js';
import { demoAccount, demoPrivateKey } from '../../chain/accounts.js';
import { GENESIS_MARKER_ADDRESS } from '../../chain/genesis-marker.js';
import { createRegistry } from '../../skills/catalog/index.js';
import { CLIENT_ENTRIES } from '../../web/assets.js';
import { json, rpcUrl, startTestSibyl, useTestSibyl, TEST_SERVER_PARTS } from '../helpers/sibyl.js';
import { startBlackholeRpc } from '../helpers/blackhole-rpc.js';
import { SPEC_PATH_PRICE, SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';
import { httpPaths } from '../../skills/core/registry.js';
import { DEFAULT_PORT } from '../../server/config.js';

// A test server has no Bitcoin chain and no QRNG: the skills that need them are off.
const registry = createRegistry([], TEST_SERVER_PARTS);
const working = registry.published();

describe('pages', () => {
  const sibyl = useTestSibyl();

  it('/ shows the spec\'s own prices (not the registry\'s) on the paths and A2A skills the spec prices', async () => {
    const page = await (await fetch(`${sibyl.url}/`)).text();
    const usd = (atomic: bigint) => `$${(Number(atomic) / 1e6).toFixed(2)}`;
    const escapeRe = (text: string) => text.replace(/[$.]/g, '\\$&');
    const card = (id: string) => page.slice(page.indexOf(`data-skill-id="${id}"`), page.indexOf('</details>', page.indexOf(`data-skill-id="${id}"`)));
    for (const [suffix, price] of Object.entries(SPEC_PATH_PRICE)) {
      const skill = working.find((s) => httpPaths(s).some((p) => p.endsWith(`/${suffix}`)))!;
      expect(skill, suffix).toBeDefined();
      expect(card(skill.id), suffix).toMatch(new RegExp(`/${suffix}</code></td><td class="amount">${escapeRe(usd(price))}`));
    }
    for (const [id, price] of Object.entries(SPEC_SKILL_PRICE)) {
      if (!working.some((s) => s.id === id)) continue;
      expect(card(id), id).toContain(`/api/a2a/skills/${id}</code></td><td class="amount">${usd(price)}`);
    }
  });

  it('/ names the skills this deployment lacks, with the code and reason they are refused with', async () => {
    const page = await (await fetch(`${sibyl.url}/`)).text();
    const off = registry.unavailable();
    expect(off.length).toBeGreaterThan(0);
    for (const s of off) {
      const item = page.slice(page.indexOf(`data-disabled-skill="${s.id}"`), page.indexOf('</li>', page.indexOf(`data-disabled-skill="${s.id}"`)));
      expect(item, s.id).toContain(`<code>${s.disabledCode ?? 'domain_disabled'}</code>`);
    }
    // The Bitcoin skills are off on a server without a Bitcoin chain.
    expect(page).toContain('data-disabled-skill="bitcoin-mempool-intelligence"');
  });

  it('/ names the address it is served from, never the default one it is not on', async () => {
    expect(new URL(sibyl.url).port).not.toBe(String(DEFAULT_PORT)); // PORT=0: a free port
    const page = await (await fetch(`${sibyl.url}/`)).text();
    expect(page).not.toContain(`:${DEFAULT_PORT}`);
    // The README's two commands name the default address; the page the one it answers on.
    const commands = page.slice(page.indexOf('<h2>Two commands</h2>'), page.indexOf('</pre>', page.indexOf('<h2>Two commands</h2>')));
    expect(commands).toContain('npm start');
    expect(commands).toContain(sibyl.url);
    expect(page).toContain(`curl -si -X POST ${sibyl.url}/x402/`);
  });

  it('pages are served with a content security policy: scripts only from Sibyl, never framed', async () => {
    for (const path of ['/', '/docs', '/forecast']) {
      const res = await fetch(`${sibyl.url}${path}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it('/ lists every working skill with its price on each surface', async () => {
    const res = await fetch(`${sibyl.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const page = await res.text();
    const ids = [...page.matchAll(/<details class="skill" data-skill-id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.sort()).toEqual(working.map((s) => s.id).sort());
    expect(page).toContain(`data-testid="skill-count">${working.length}<`);
    // Each count shown is the length of the list it links to, as that list is served.
    const shown = (id: string) => Number(page.match(new RegExp(`data-testid="${id}">(\\d+)<`))![1]);
    expect(shown('a2a-count')).toBe((await json(await fetch(`${sibyl.url}/api/a2a/skills`))).skills.length);
    expect(shown('mcp-count')).toBe((await json(await fetch(`${sibyl.url}/api/mcp/tools`))).tools.length);
    const openapi = await json(await fetch(`${sibyl.url}/openapi.json`));
    expect(shown('http-count')).toBe(Object.values(openapi.paths as Record<string, { post?: Record<string, unknown> }>).filter((p) => p.post?.['x-payment-requirement']).length);
    expect(shown('unavailable-count')).toBe(registry.unavailable().length);
    // Prices come from the registry: each paid HTTP path and each A2A skill at its catalogue price.
    const card = (id: string) => page.slice(page.indexOf(`data-skill-id="${id}"`), page.indexOf('</details>', page.indexOf(`data-skill-id="${id}"`)));
    for (const skill of working.filter((s) => s.httpPath)) {
      expect(card(skill.id), skill.id).toContain(`POST ${skill.httpPath}`);
      expect(card(skill.id), skill.id).toContain(`$${priceOptions(skill)[0]}`);
    }
    for (const skill of a2aSkills(registry)) expect(card(skill.id), skill.id).toMatch(new RegExp(`/api/a2a/skills/${skill.id}</code></td><td class="amount">\\$${a2aPriceUsd(skill).split('-')[0]!.replace('.', '\\.')}`));
    // The variant price is named with the body field that selects it.
    expect(card('tokenchart')).toMatch(/\$0\.\d\d with forecast: true/);
    // Nothing from a skill's text reaches the page unescaped; the page names no CDN.
    expect(page).not.toMatch(/<script[^>]+src="https?:/);
    expect(page).toContain('npm install &amp;&amp; npm start');
  });

  it('every page script builds; /docs renders Swagger UI from local assets; /llms.txt lists the surfaces and skills', async () => {
    for (const entry of CLIENT_ENTRIES) {
      const res = await fetch(`${sibyl.url}/assets/${entry}.js`);
      expect(res.status, entry).toBe(200);
      expect((await res.text()).length, entry).toBeGreaterThan(100);
    }
    const docs = await (await fetch(`${sibyl.url}/docs`)).text();
    expect(docs).toContain('/assets/swagger-ui/swagger-ui-bundle.js');
    expect((await fetch(`${sibyl.url}/assets/swagger-ui/swagger-ui-bundle.js`)).status).toBe(200);
    expect((await fetch(`${sibyl.url}/assets/site.css`)).status).toBe(200);

    const llms = await fetch(`${sibyl.url}/llms.txt`);
    expect(llms.headers.get('content-type')).toMatch(/text\/plain/);
    const text = await llms.text();
    expect(text).toMatch(/^# Sibyl\n\n> /);
    for (const heading of ['## Surfaces', '## Paid skills', '## Free tools', '## Optional']) expect(text).toContain(heading);
    for (const skill of working) expect(text, skill.id).toContain(`\`${skill.id}\``);
    const latest = text.split('\n').find((l) => l.includes('`latest-pairs`'))!;
    expect(latest).toContain(`HTTP x402 POST /x402/data/latest-pairs $${priceOptions(registry.byId('latest-pairs')!)[0]}`);
    expect(text).toContain(`${sibyl.url}/openapi.json`);
    // Every link an agent is given answers.
    const links = [...new Set([...text.matchAll(/\]\((http[^)#]+)/g)].map((m) => m[1]!))];
    expect(links.length).toBeGreaterThan(8);
    for (const link of links) expect((await fetch(link)).status, link).toBe(200);
  });

  it('an example answer runs once and is shared (concurrent requests included), labelled with when it ran', async () => {
    const [a, b] = await Promise.all([1, 2].map(async () => json(await fetch(`${sibyl.url}/api/examples/latest-pairs`))));
    expect(a).toEqual(b);
    expect(a).toMatchObject({ skill: 'latest-pairs', outcome: 'answer', body: { limit: 5 } });
    expect(a.answer.pairs.length).toBeGreaterThan(0);
    expect(Date.parse(a.computedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(Date.parse(a.nextRunAfter) - Date.parse(a.computedAt)).toBeGreaterThan(9 * 60_000);
    const again = await json(await fetch(`${sibyl.url}/api/examples/latest-pairs`));
    expect(again.computedAt).toBe(a.computedAt);
  });

  it('a refusal is the example, shown as such; an issued secret never is', async () => {
    // A transaction no chain holds: the debugger refuses (nothing is charged), and that is shown.
    const tx = await json(await fetch(`${sibyl.url}/api/examples/transaction-debugger`));
    expect(['answer', 'refused']).toContain(tx.outcome);
    const keys = await json(await fetch(`${sibyl.url}/api/examples/quantum-encryption-key`));
    expect(keys.outcome).toBe('answer');
    expect(JSON.stringify(keys.answer)).toContain('[secret returned once, not kept]');
  });

  it('bad input on the JSON endpoints is a 400 naming the field', async () => {
    const bad = async (path: string) => {
      const res = await fetch(`${sibyl.url}${path}`);
      return { status: res.status, body: await json(res) };
    };
    const id = await bad('/api/examples/Not_A_Skill!');
    expect(id.status).toBe(400);
    expect(id.body.error.fields[0].field).toBe('skillId');
    expect((await bad('/api/examples/no-such-skill')).status).toBe(404);
    const asset = await bad('/api/web/forecast?asset=DOGE');
    expect(asset.status).toBe(400);
    expect(asset.body.error.fields).toEqual([{ field: 'asset', rule: expect.stringContaining('must be one of BTC, ETH, SOL, BNB') }]);
    const interval = await bad('/api/web/forecast?asset=ETH&interval=2h');
    expect(interval.status).toBe(400);
    expect(interval.body.error.fields[0].field).toBe('interval');
    const unknown = await bad('/api/web/forecast?asset=ETH&extra=1');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fields[0].field).toBe('extra');
  });

  it('on the devnet the demo account is offered', async () => {
    const res = await fetch(`${sibyl.url}/api/web/demo-account`);
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ address: demoAccount(1).address, chainId: 8453 });
    expect(await (await fetch(`${sibyl.url}/`)).text()).toMatch(/<label id="demo-option" >/);
  });
});

/** The test devnet behind a proxy that answers some calls itself (as another node would). */
async function rpcProxy(answer: (call: { method: string; params?: unknown[] }) => unknown): Promise<{ url: string; close: () => Promise<void> }> {
  const target = rpcUrl();
  const proxy = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const body = JSON.parse(raw) as { id: number; method: string; params?: unknown[] } | { id: number; method: string; params?: unknown[] }[];
      const calls = Array.isArray(body) ? body : [body];
      const own = calls.map((c) => answer(c));
      // The calls it does not answer go to the node (viem batches several calls in one request).
      const rest = calls.filter((_, i) => own[i] === undefined);
      const upstream = rest.length
        ? ((await (await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rest) })).json()) as { id: number }[])
        : [];
      const answers = calls.map((c, i) => (own[i] !== undefined ? { jsonrpc: '2.0', id: c.id, result: own[i] } : upstream.find((u) => u.id === c.id)));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.isArray(body) ? answers : answers[0]));
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, close: () => new Promise((r) => proxy.close(() => r())) };
}

describe('on a chain that is not a Sibyl devnet', () => {
  it.each([
    // A production client's version string.
    ['a node that is not anvil (Geth)', (c: { method: string }) => (c.method === 'web3_clientVersion' ? 'Geth/v1.14.12-stable/linux-amd64/go1.23' : undefined)],
    // Another project's anvil: no Sibyl genesis marker.
    ['an anvil Sibyl did not build (no genesis marker)', (c: { method: string; params?: unknown[] }) => (c.method === 'eth_getCode' && String(c.params?.[0]).toLowerCase() === GENESIS_MARKER_ADDRESS.toLowerCase() ? '0x' : undefined)],
  ])('%s: no demo key is served and the page does not offer one', async (_name, answer) => {
    const proxy = await rpcProxy(answer);
    const server = await startTestSibyl({ rpcUrls: { base: proxy.url } });
    try {
      const res = await fetch(`${server.url}/api/web/demo-account`);
      expect(res.status).toBe(404);
      expect((await json(res)).error.code).toBe('not_found');
      const page = await (await fetch(`${server.url}/`)).text();
      expect(page).toMatch(/<label id="demo-option" hidden>/);
      expect(page).not.toContain(demoPrivateKey(1).slice(2));
      expect(page).toContain('"devnet":false');
    } finally {
      await server.close();
      await proxy.close();
    }
  });
});

describe('when the payment chain stops answering', () => {
  it('/ still answers within seconds (example bodies that need the chain are left empty), and /docs and /llms.txt at once', async () => {
    const hole = await startBlackholeRpc(rpcUrl());
    const server = await startTestSibyl({ rpcUrls: { base: hole.url } });
    try {
      hole.set(true);
      const started = Date.now();
      const res = await fetch(`${server.url}/`, { signal: AbortSignal.timeout(20_000) });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('data-skill-id="latest-pairs"');
      // Bounded by the page's 3 s wait for the chain, not by the RPC client's retries (a liveness bound, generous for a loaded machine).
      expect(Date.now() - started).toBeLessThan(10_000);
      expect((await fetch(`${server.url}/llms.txt`, { signal: AbortSignal.timeout(5_000) })).status).toBe(200);
      expect((await fetch(`${server.url}/docs`, { signal: AbortSignal.timeout(5_000) })).status).toBe(200);
    } finally {
      hole.set(false);
      await server.close();
      await hole.close();
    }
  });
});
