/**
 * Screenshots of the pages for the README and docs/protocols.md: starts a Sibyl the way the tests do (its own Base
 * devnet with three days of world history, the forecast ledger backfilled as a fresh node's first
 * round does), opens `/`, `/docs`, `/forecast` and the try-it panel (a paid call from the demo
 * account) and the OAuth sign-in page in Debian's Chromium, and writes
 * docs/screenshots/{home,docs,forecast,try-it,oauth-sign-in}.png.
 * Every process it starts is stopped before it exits.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Browser, Page } from 'playwright-core';
import { startDevnet } from '../chain/devnet.js';
import { loadConfig } from '../server/config.js';
import { startSibyl, type Sibyl } from '../server/service.js';
import { backfillLedger } from '../skills/forecast/backfill.js';
import { precomputeMajors } from '../skills/forecast/jobs.js';
import { startWorld, worldGenesisTimestamp } from '../world/index.js';
import { launchBrowser } from '../test/helpers/browser.js';

const OUT = join(import.meta.dirname, '..', 'docs', 'screenshots');
const WORLD = { seed: 'sec-b', days: 3 } as const;
const VIEWPORT = { width: 1280, height: 900 };

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await res.json()) as { result?: unknown }).result;
}

/** Chains read by URL are indexed in the background: wait until health shows them at head. */
async function untilIndexed(url: string, timeoutMs = 120_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 250))) {
    const health = (await (await fetch(`${url}/healthz`)).json()) as { chains: { headBlock: string | null; indexedBlock: string | null }[] };
    if (health.chains.every((c) => c.indexedBlock !== null && Number(c.indexedBlock) >= Number(c.headBlock))) return;
    if (Date.now() > deadline) throw new Error('the chain was not indexed in time');
  }
}

async function shoot(page: Page, name: string, options: { fullPage?: boolean; element?: string } = {}): Promise<void> {
  const path = join(OUT, `${name}.png`);
  if (options.element) await page.locator(options.element).screenshot({ path });
  else await page.screenshot({ path, fullPage: options.fullPage ?? false });
  console.log(`wrote ${path}`);
}

/** An authorization request as an MCP client sends it: a client registered for a loopback callback, PKCE S256, the MCP resource. */
async function authorizationUrl(base: string): Promise<string> {
  const redirect = 'http://127.0.0.1:33418/callback';
  const reg = await fetch(`${base}/oauth/register`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Example MCP client', redirect_uris: [redirect], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }),
  });
  const { client_id: clientId } = (await reg.json()) as { client_id: string };
  const url = new URL(`${base}/oauth/authorize`);
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  for (const [k, v] of Object.entries({ response_type: 'code', client_id: clientId, redirect_uri: redirect, scope: 'mcp:tools', resource: `${base}/api/mcp`, state: 'screenshot', code_challenge: challenge, code_challenge_method: 'S256' })) url.searchParams.set(k, v);
  return url.href;
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  console.log(`building a ${WORLD.days}-day world on a Base devnet…`);
  const devnet = await startDevnet({ chains: ['base'], basePort: 0, genesisTimestamp: worldGenesisTimestamp(WORLD.days), fifo: true });
  let sibyl: Sibyl | undefined;
  let browser: Browser | undefined;
  try {
    const world = await startWorld(devnet.chains, { seed: WORLD.seed, days: WORLD.days, meanBlockSeconds: 1_200, liveBlockMs: 0, labelsPath: join(tmpdir(), `sibyl-screenshots-${process.pid}.json`) });
    world.stop();
    const rpcUrl = devnet.chains[0]!.rpcUrl;
    const settlerKey = generatePrivateKey();
    await rpc(rpcUrl, 'anvil_setBalance', [privateKeyToAccount(settlerKey).address, `0x${parseEther('100').toString(16)}`]);
    sibyl = await startSibyl(loadConfig({
      HOST: '127.0.0.1', PORT: '0', EMBEDDED_CHAINS: '', CHAIN_RPC_URL_BASE: rpcUrl,
      X402_SETTLER_PRIVATE_KEY: settlerKey, X402_PAY_TO: privateKeyToAccount(generatePrivateKey()).address,
      FORECAST_JOBS: 'off', SNAPSHOT_JOBS: 'off', LOG_LEVEL: 'warn',
    }), { log: () => {} });
    await untilIndexed(sibyl.url);
    console.log('forecasting the majors and backfilling the accuracy ledger…');
    const { service, ledger } = sibyl.context.forecast!;
    await precomputeMajors(sibyl.context, service, ledger);
    await backfillLedger(sibyl.context, service, ledger);

    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: VIEWPORT });

    await page.goto(`${sibyl.url}/`);
    await shoot(page, 'home');

    // The try-it panel: a paid call from the demo account (the devnet offers it).
    await page.locator('#try-skill').selectOption('latest-pairs');
    await page.locator('#demo-option input').check();
    await page.locator('#try-body').fill('{"limit": 2}');
    await page.locator('#try-pay').click();
    await page.waitForSelector('#try-form[data-state="done"]', { timeout: 60_000 });
    await shoot(page, 'try-it', { element: '#try-it' });

    await page.goto(`${sibyl.url}/docs`);
    await page.waitForSelector('.swagger-ui .opblock', { timeout: 60_000 });
    await shoot(page, 'docs');

    await page.goto(`${sibyl.url}/forecast`);
    await page.waitForSelector('body[data-forecast="ready"]', { timeout: 120_000 });
    await shoot(page, 'forecast', { fullPage: true });

    // The OAuth sign-in page an MCP client sends its user to (a registered client, PKCE, the MCP resource).
    const signIn = await browser.newPage({ viewport: { width: 900, height: 700 } });
    await signIn.goto(await authorizationUrl(sibyl.url));
    await signIn.waitForSelector('#sign-in-button');
    await shoot(signIn, 'oauth-sign-in');
  } finally {
    await browser?.close();
    await sibyl?.close();
    await devnet.stop();
  }
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
