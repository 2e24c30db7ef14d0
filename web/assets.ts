/**
 * The pages' browser code: each entry in web/client/ is bundled by esbuild (no CDN, no build step
 * to forget) on first use and kept in memory; `/assets/<entry>.js` serves it. Vendored files that
 * are already browser bundles (Swagger UI) are served from their package.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import express, { type Express } from 'express';
import { SibylError } from '../skills/core/errors.js';

const CLIENT_DIR = join(import.meta.dirname, 'client');
/** The entries: web/client/<name>.ts files that are pages' scripts (modules under lib/ are not). */
export const CLIENT_ENTRIES: readonly string[] = readdirSync(CLIENT_DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).map((f) => f.slice(0, -3));

export const ASSETS_PATH = '/assets';

export class ClientBundles {
  private readonly built = new Map<string, Promise<string>>();

  /** The bundled script of one entry (built once per process). */
  script(entry: string): Promise<string> {
    if (!CLIENT_ENTRIES.includes(entry)) return Promise.reject(new SibylError('not_found', `no script ${entry}`));
    let js = this.built.get(entry);
    if (!js) {
      js = build({
        entryPoints: [join(CLIENT_DIR, `${entry}.ts`)],
        bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', minify: true, legalComments: 'none',
        define: { 'process.env.NODE_ENV': '"production"' },
        logLevel: 'silent',
      }).then((r) => r.outputFiles[0]!.text);
      // A failed build is tried again on the next request, not remembered.
      js.catch(() => this.built.delete(entry));
      this.built.set(entry, js);
    }
    return js;
  }

  /** Builds every entry in the background (the first page load then waits for nothing). */
  warm(log: (msg: string, err?: unknown) => void): void {
    for (const entry of CLIENT_ENTRIES) this.script(entry).catch((err) => log(`page script ${entry} did not build`, err));
  }
}

export function mountAssets(app: Express, bundles: ClientBundles): void {
  app.get(`${ASSETS_PATH}/:entry.js`, async (req, res) => {
    const js = await bundles.script(String(req.params.entry));
    res.type('text/javascript').set('Cache-Control', 'no-cache').send(js);
  });
  const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  app.use(`${ASSETS_PATH}/swagger-ui`, express.static(swaggerDir, { index: false, fallthrough: false }));
}
