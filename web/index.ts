/**
 * The pages for people (issue 18): `/`, `/docs`, `/forecast`, `/llms.txt` and their scripts.
 */
import type { Express, Request } from 'express';
import type { ChainRuntime } from '../chain/runtime.js';
import type { Paywall } from '../payments/paywall.js';
import type { SkillContext } from '../skills/context.js';
import type { Registry } from '../skills/registry.js';
import { ClientBundles, mountAssets } from './assets.js';

export interface WebDeps {
  readonly registry: Registry;
  readonly paywall: Paywall;
  readonly chains: ChainRuntime;
  readonly context: SkillContext;
  readonly publicUrl: (req: Request) => string;
  readonly log: (msg: string, err?: unknown) => void;
}

export function mountWeb(app: Express, deps: WebDeps): void {
  const bundles = new ClientBundles();
  bundles.warm(deps.log);
  mountAssets(app, bundles);
}
