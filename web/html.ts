/**
 * Server-rendered HTML without a template engine: `html` escapes every interpolated value unless
 * it is already markup (a `Markup` from another `html` call or `raw`), so a skill's text can never
 * become a tag.
 */
export class Markup {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Trusted markup (only for strings this module's callers build themselves). */
export function raw(value: string): Markup {
  return new Markup(value);
}

type Value = Markup | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Markup) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Markup {
  return new Markup(strings.reduce((out, s, i) => out + s + (i < values.length ? render(values[i]!) : ''), ''));
}

/** JSON for a `<script type="application/json">` island: `<` escaped so no `</script>` can close it early. */
export function jsonIsland(id: string, data: unknown): Markup {
  return raw(`<script type="application/json" id="${escapeHtml(id)}">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`);
}

export interface PageOptions {
  readonly title: string;
  readonly path: string;
  /** Page scripts: entries of web/client, served at /assets/<entry>.js. */
  readonly scripts?: readonly string[];
  readonly head?: Markup;
}

const NAV = [['/', 'Catalogue'], ['/forecast', 'Forecast'], ['/docs', 'API docs'], ['/llms.txt', 'llms.txt']] as const;

/** The page frame every page shares: title, stylesheet, navigation, its scripts (all served by Sibyl, no CDN). */
export function page(options: PageOptions, body: Markup): string {
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title}</title><link rel="stylesheet" href="/assets/site.css">${options.head}</head>
<body><header class="top"><a class="brand" href="/">Sibyl</a><nav>${NAV.map(([href, label]) => html`<a href="${href}"${raw(href === options.path ? ' aria-current="page"' : '')}>${label}</a>`)}</nav></header>
<main>${body}</main>
${(options.scripts ?? []).map((s) => html`<script type="module" src="/assets/${s}.js"></script>`)}
</body></html>`}`;
}

/**
 * Every page's security headers: scripts, styles, images and requests only from Sibyl itself (so
 * no CDN can creep in and no injected markup can load a script), never framed (the sign-in page
 * cannot be clickjacked). JSON islands are data, not scripts; inline `style` attributes are allowed.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': [
    "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data:", "font-src 'self' data:",
    "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
};
