/**
 * The authorization server's pages, rendered on the server: the sign-in page an MCP client sends
 * a person to (its script is web/client/authorize.ts) and the page for an authorization request
 * that cannot go on (a redirect URI that is not registered, an unknown client).
 */
import { html, jsonIsland, raw } from '../../web/html.js';
import { SCOPE_MEANINGS } from './scopes.js';

/** What the page's script needs to sign in (read from #sign-in). */
export interface SignInPageData {
  /** POST {message, signature} here. */
  readonly loginUrl: string;
  /** GET a fresh nonce, domain, uri and chain id here. */
  readonly nonceUrl: string;
  /** The statement the message must carry: it names the client, so signing is consenting to it. */
  readonly statement: string;
  /** Resources the message lists (the MCP endpoint). */
  readonly resources: readonly string[];
}

export interface SignInPage {
  readonly clientName: string;
  readonly clientId: string;
  readonly clientUri?: string;
  readonly redirectHost: string;
  readonly scopes: readonly string[];
  readonly resource: string;
  readonly data: SignInPageData;
}

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f4f5f7;color:#1d2230}
main{max-width:34rem;margin:3rem auto;background:#fff;border-radius:10px;box-shadow:0 1px 4px rgba(0,0,0,.12);padding:2rem}
h1{font-size:1.4rem;margin:0 0 1rem}
ul{padding-left:1.2rem}li{margin:.3rem 0}
code{background:#eef0f4;padding:.1rem .3rem;border-radius:4px;font-size:.9em;word-break:break-all}
button{font:inherit;font-weight:600;background:#2f5bea;color:#fff;border:0;border-radius:6px;padding:.7rem 1.2rem;cursor:pointer}
button:disabled{opacity:.6;cursor:wait}
.small{color:#5b6275;font-size:.9rem}
#status{margin-top:1rem;min-height:1.4rem}
#status.error{color:#b3261e;background:#fdecea;border-radius:6px;padding:.6rem .8rem}
`;

/** The page frame: its own small stylesheet (it stands apart from the site's pages), every value escaped by `html`. */
function frame(title: string, body: ReturnType<typeof html>): string {
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${title}</title><style>${raw(STYLE)}</style></head>
<body><main>${body}</main></body></html>`}`;
}

export function renderSignInPage(page: SignInPage): string {
  const scopes = page.scopes.length
    ? page.scopes.map((s) => html`<li><code>${s}</code>: ${SCOPE_MEANINGS[s] ?? s}</li>`)
    : html`<li>no scope: it asks only to know that you signed in</li>`;
  const client = page.clientUri && /^https?:\/\//.test(page.clientUri)
    ? html`<a href="${page.clientUri}" rel="noopener noreferrer">${page.clientName}</a>`
    : page.clientName;
  return frame(`Sign in to Sibyl · ${page.clientName}`, html`<h1>Sign in to Sibyl</h1>
<p><strong id="client-name">${client}</strong> asks to act for your wallet on Sibyl's tool server <code>${page.resource}</code>. It would be able to:</p>
<ul id="scopes">${scopes}</ul>
<p class="small">Client id <code>${page.clientId}</code>. After you sign, you are sent back to <code>${page.redirectHost}</code>.</p>
<p class="small">Your wallet signs a sign-in message (EIP-4361); it moves no funds. Signing it is your consent.</p>
<button id="sign-in-button" type="button">Sign in with Ethereum</button>
<div id="status" role="alert" aria-live="polite"></div>
${jsonIsland('sign-in', page.data)}
<script type="module" src="/assets/authorize.js"></script>`);
}

/** oidc-provider's error page, in words a person can act on (the fields are the OAuth error's). */
export function renderErrorPage(out: object): string {
  return frame('Sign-in cannot continue · Sibyl', html`<h1>Sign-in cannot continue</h1><p>The application that sent you here made a request Sibyl cannot accept:</p>
<ul id="error">${Object.entries(out).map(([k, v]) => html`<li><strong>${k}</strong>: ${String(v)}</li>`)}</ul>
<p class="small">Go back to the application and start again; if it keeps happening, its OAuth settings are wrong.</p>`);
}
