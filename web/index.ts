/**
 * The pages for people (docs/protocols.md, "Pages for people"): `/` (catalogue and try-it panel), `/docs`, `/forecast`,
 * `/llms.txt`, their scripts and stylesheet, and the small free JSON endpoints the pages read
 * (example answers, the forecast chart's data, the devnet's demo account).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Express, Request } from 'express';
import { z } from 'zod';
import { accountRoutePaths } from '../cards/openapi.js';
import type { ChainRuntime } from '../chain/runtime.js';
import { PAYMENT_CHAIN } from '../chain/chains.js';
import type { Paywall } from '../payments/paywall.js';
import { X402_NETWORK } from '../payments/terms.js';
import { forecastApiWays } from '../cards/forecast-ways.js';
import type { SkillContext } from '../skills/core/context.js';
import { SibylError } from '../skills/core/errors.js';
import { forecastInferenceSkill } from '../skills/forecast/inference.js';
import type { Registry } from '../skills/core/registry.js';
import { parseBody } from '../skills/core/validation.js';
import { ASSETS_PATH, ClientBundles, mountAssets } from './assets.js';
import { PAGE_HEADERS } from './html.js';
import { within } from '../lib/time.js';
import { DEVNET_PROBE_WAIT_MS, DevnetProbe, mountDemoAccount } from './demo.js';
import { chainSubjects } from './example-body.js';
import { ExampleRunner } from './examples.js';
import { mountForecast } from './forecast.js';
import { buildLlmsTxt } from './llms.js';
import { buildOffers, type Offer } from './offers.js';
import { renderDocs } from './pages/docs.js';
import { renderHome } from './pages/home.js';
import { atServer, twoCommands } from './readme.js';

export interface WebDeps {
  readonly registry: Registry;
  readonly paywall: Paywall;
  readonly chains: ChainRuntime;
  readonly context: SkillContext;
  readonly publicUrl: (req: Request) => string;
  readonly log: (msg: string, err?: unknown) => void;
}

export const EXAMPLES_PATH = '/api/examples';
/** How long `/` waits for the example bodies read from the chain. */
const EXAMPLE_BODY_WAIT_MS = 3_000;
const SITE_CSS = readFileSync(join(import.meta.dirname, 'site.css'), 'utf8');

/** A skill id as the registry spells them. */
const exampleParams = z.strictObject({ skillId: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be a skill id: lowercase letters, digits and dashes, at most 64') });

export function mountWeb(app: Express, deps: WebDeps): void {
  const bundles = new ClientBundles();
  bundles.warm(deps.log);
  mountAssets(app, bundles);
  app.get(`${ASSETS_PATH}/site.css`, (_req, res) => void res.type('text/css').set('Cache-Control', 'no-cache').send(SITE_CSS));

  const { registry, paywall } = deps;
  const rail = { network: X402_NETWORK, asset: paywall.terms.asset, payTo: paywall.terms.payTo };
  // The registry does not change while the process runs: the offers are projected once.
  const offers: readonly Offer[] = buildOffers(registry, rail, { [forecastInferenceSkill.id]: forecastApiWays });
  const examples = new ExampleRunner(registry, deps.context, chainSubjects(deps.chains));
  const probe = new DevnetProbe(deps.chains);
  const readme = twoCommands();
  // The paid MCP tools' account routes, as OpenAPI lists them (paths do not depend on the server's URL).
  const accounts = accountRoutePaths();

  app.get('/', async (req, res) => {
    const serverUrl = deps.publicUrl(req);
    const [devnet, bodies] = await Promise.all([
      // A node that does not answer in time is not taken for a devnet (no demo account offered).
      within(DEVNET_PROBE_WAIT_MS, probe.isDevnet(), false),
      // Bodies that name things on the chain wait on it: a slow or unreachable node leaves them empty, never the page hanging.
      Promise.all(offers.map(async (o) => [o.skill.id, await within(EXAMPLE_BODY_WAIT_MS, examples.body(o.skill).catch(() => ({})), {})] as const)).then((e) => new Map(e)),
    ]);
    res.type('html').set(PAGE_HEADERS).set('Cache-Control', 'no-cache').send(renderHome({
      registry, offers, bodies, serverUrl, payTo: paywall.terms.payTo, asset: paywall.terms.asset,
      chainId: deps.chains.get(PAYMENT_CHAIN).spec.chainId, devnet, rpcUrl: deps.chains.get(PAYMENT_CHAIN).rpcUrl, accountPaths: accounts, ...(readme && { twoCommands: atServer(readme, serverUrl) }),
    }));
  });

  app.get(`${EXAMPLES_PATH}/:skillId`, async (req, res) => {
    const { skillId } = parseBody(exampleParams, { skillId: req.params.skillId });
    const skill = registry.resolve(null, { id: skillId });
    if (!skill) throw new SibylError('not_found', `no skill ${skillId}; the working skills are listed at /llms.txt and /`, { fields: [{ field: 'skillId', rule: 'must name a skill of the registry' }] });
    res.set('Cache-Control', 'no-cache').json(await examples.example(skill));
  });

  mountDemoAccount(app, probe, deps.chains);
  mountForecast(app, deps);

  app.get('/docs', (_req, res) => void res.type('html').set(PAGE_HEADERS).send(renderDocs()));
  app.get('/llms.txt', (req, res) => {
    const serverUrl = deps.publicUrl(req);
    res.type('text/plain; charset=utf-8').send(buildLlmsTxt(registry, offers, serverUrl, accounts));
  });
}
