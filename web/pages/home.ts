/**
 * `/`: what Sibyl is, how to buy, and the catalogue — every working skill with its price on each
 * surface, an example request, a real example answer fetched when the skill is opened, and the
 * try-it panel. Everything is projected from the registry by offers.ts.
 */
import { A2A_SKILLS_PATH, a2aSkills } from '../../cards/a2a-skills.js';
import { A2A_JSONRPC_PATH, AGENT_CARD_URL_PATH as AGENT_CARD, X402_EXTENSION_URI } from '../../cards/agent-card.js';
import { MCP_PATH, mcpTools } from '../../cards/mcp-tools.js';
import { X402_NETWORK } from '../../payments/terms.js';
import { formatUsd } from '../../skills/core/money.js';
import type { Registry } from '../../skills/core/registry.js';
import { html, jsonIsland, page, raw, type Markup } from '../html.js';
import { priceLabel, type Offer, type Way, type WayKind } from '../offers.js';
import { ROUTES } from '../../cards/routes.js';


export interface HomeView {
  readonly registry: Registry;
  readonly offers: readonly Offer[];
  readonly bodies: ReadonlyMap<string, Record<string, unknown>>;
  readonly serverUrl: string;
  readonly payTo: string;
  readonly asset: string;
  readonly chainId: number;
  /** The payment chain is a devnet (anvil): the demo account is offered. */
  readonly devnet: boolean;
  /** The payment chain's JSON-RPC URL (given to the page only on a devnet). */
  readonly rpcUrl?: string;
  readonly twoCommands?: string;
  /** The account routes of the paid MCP tools, from the OpenAPI document. */
  readonly accountPaths: readonly string[];
}

const WAY_LABEL: Record<WayKind, string> = {
  http: 'HTTP, x402',
  report: 'Report path, typed body, x402',
  a2a: 'A2A skill endpoint, x402',
  'a2a-jsonrpc': 'A2A JSON-RPC message/send, x402 extension',
  'mcp-per-call': 'MCP tool, paid per call (x402)',
  'mcp-credits': 'MCP paid tool, from credits',
  'mcp-free': 'MCP free tool',
  own: 'Own API',
};

/** Short surface badges for the summary line. */
const BADGE: Record<WayKind, string> = { http: 'HTTP', report: 'Report', a2a: 'A2A', 'a2a-jsonrpc': 'A2A', 'mcp-per-call': 'MCP', 'mcp-credits': 'MCP', 'mcp-free': 'MCP', own: 'API' };

export function renderHome(v: HomeView): string {
  const bounds = v.registry.httpPriceBounds();
  const paid = v.offers.filter((o) => !o.skill.free);
  const free = v.offers.filter((o) => o.skill.free);
  const config = {
    serverUrl: v.serverUrl, network: X402_NETWORK, chainId: v.chainId, asset: v.asset, payTo: v.payTo, devnet: v.devnet,
    ...(v.devnet && v.rpcUrl && { devnetRpcUrl: v.rpcUrl }),
    skills: Object.fromEntries(v.offers.filter((o) => o.tryIt).map((o) => [o.skill.id, { title: o.skill.title, ...o.tryIt, body: v.bodies.get(o.skill.id) ?? {} }])),
  };
  return page({ title: 'Sibyl: pay-per-request blockchain intelligence', path: '/', scripts: ['catalogue', 'try-it'] }, html`
<section class="intro">
  <h1>Sibyl</h1>
  <p class="lede">A pay-per-request blockchain-intelligence node. Agents, people and marketplaces buy its answers one call at a time, with no API keys:
  an unpaid request gets an <a href="https://x402.org">x402</a> <code>402 Payment Required</code> challenge, a paid one carries a signed USDC
  authorization (EIP-3009) that Sibyl verifies, answers, and only then settles on chain. Every figure it sells is read from a chain and says where it came from.</p>
  <ul class="facts">
    <li><strong data-testid="skill-count">${v.offers.length}</strong> working skills (${paid.length} paid, ${free.length} free), sold as
      <a href="${A2A_SKILLS_PATH}"><span data-testid="a2a-count">${a2aSkills(v.registry).length}</span> A2A skills</a>,
      <a href="${ROUTES.mcpTools}"><span data-testid="mcp-count">${mcpTools(v.registry).length}</span> MCP tools</a> and
      <a href="${ROUTES.openapi}"><span data-testid="http-count">${v.offers.flatMap((o) => o.ways.filter((w) => w.kind === 'http')).length}</span> paid HTTP paths</a>;
      <a href="#not-here"><span data-testid="unavailable-count">${v.registry.unavailable().length}</span> not on this deployment</a></li>
    ${bounds && html`<li>HTTP prices ${formatUsd(bounds.min)} to ${formatUsd(bounds.max)} in USDC</li>`}
    <li>network <code>${X402_NETWORK}</code>, USDC <code>${v.asset}</code></li>
    <li>paid to <code>${v.payTo}</code></li>
    ${v.devnet && html`<li class="devnet">payment chain: embedded devnet (anvil)</li>`}
  </ul>
  ${v.twoCommands && html`<h2>Two commands</h2><pre class="code">${v.twoCommands}</pre>`}
</section>
${howToBuy(v)}
${tryItPanel(v)}
<section id="catalogue">
  <h2>Catalogue</h2>
  <p>Every skill this deployment serves, with each way to buy it and what that way charges. Open a skill for its example request and a real example answer (computed free, at most once per skill every 10 minutes).</p>
  <input type="search" id="skill-filter" placeholder="Filter by name, id or tag" aria-label="Filter skills">
  <h3>Paid skills</h3>
  <div class="skills">${paid.map((o) => skillCard(o, v))}</div>
  <h3>Free tools</h3>
  <div class="skills">${free.map((o) => skillCard(o, v))}</div>
  ${notHere(v.registry)}
</section>
${jsonIsland('sibyl-config', config)}`);
}

/** The spec's capabilities this deployment lacks: named with why, so nobody pays to find out (they are refused before any 402). */
function notHere(registry: Registry): Markup {
  const off = registry.unavailable();
  if (!off.length) return raw('');
  return html`<h3 id="not-here">Not on this deployment</h3>
  <p>Declared in the interface but refused here before any payment is asked for (nothing is charged):</p>
  <ul class="not-here">${off.map((s) => html`<li data-disabled-skill="${s.id}"><strong>${s.title}</strong> <code>${s.id}</code>: <code>${s.disabledCode ?? 'domain_disabled'}</code>, ${s.disabledReason}</li>`)}</ul>`;
}

function howToBuy(v: HomeView): Markup {
  return html`<section id="how-to-buy"><h2>How to buy</h2>
<div class="ways">
  <article><h3>x402 over HTTP</h3><ol>
    <li><code>POST</code> the skill's path with its JSON body.</li>
    <li>Sibyl answers <code>402</code> with the x402 v2 <code>PaymentRequired</code>, base64 in the <code>PAYMENT-REQUIRED</code> header and as the body: scheme <code>exact</code>, network <code>${X402_NETWORK}</code>, the amount in atomic USDC, <code>payTo</code>.</li>
    <li>Sign an EIP-3009 <code>transferWithAuthorization</code> for that amount (the official <code>@x402/fetch</code> client does it) and send the request again with the payload in <code>PAYMENT-SIGNATURE</code> (or <code>X-PAYMENT</code>).</li>
    <li>Sibyl verifies, runs the skill, settles only a successful answer and returns <code>200</code> with the receipt in <code>PAYMENT-RESPONSE</code>. A failure, or an answer with nothing in it (<code>422</code>, <code>charged: false</code>), moves no money.</li>
  </ol></article>
  <article><h3>A2A</h3><p>The agent card is at <a href="${AGENT_CARD}"><code>${AGENT_CARD}</code></a>, the skill list with prices and schemas at <a href="${A2A_SKILLS_PATH}"><code>${A2A_SKILLS_PATH}</code></a>.
    Call <code>POST ${A2A_SKILLS_PATH}/&lt;id&gt;</code> with <code>{"params": {...}}</code> (x402 as above), or JSON-RPC <code>message/send</code> at <code>${A2A_JSONRPC_PATH}</code> with the a2a-x402 extension (<code>X-A2A-Extensions: ${X402_EXTENSION_URI}</code>).</p></article>
  <article><h3>MCP</h3><p>The tool server is at <code>${MCP_PATH}</code> (streamable HTTP, stateless; list at <a href="${MCP_PATH}/tools"><code>${MCP_PATH}/tools</code></a>). Free tools answer anyone.
    Paid tools are billed from prepaid credits: sign in with Ethereum for a bearer token (or through standard OAuth 2.1, which an MCP client finds from the 401: <a href="/.well-known/oauth-authorization-server"><code>/.well-known/oauth-authorization-server</code></a>), top up with x402, then call (${v.accountPaths.map((p, i) => html`${i ? ', ' : ''}<code>${p}</code>`)}).
    A skill's own tool name is also sold per call with <code>X-PAYMENT</code>.</p></article>
  <article><h3>Documents</h3><p><a href="/docs">OpenAPI (rendered)</a>, <a href="${ROUTES.openapi}"><code>${ROUTES.openapi}</code></a>, the <a href="${ROUTES.marketplaceCatalog}">marketplace catalogue</a>, <a href="/llms.txt"><code>/llms.txt</code></a> for agents, <a href="${ROUTES.health}"><code>${ROUTES.health}</code></a>.</p></article>
</div></section>`;
}

function tryItPanel(v: HomeView): Markup {
  return html`<section id="try-it" class="panel"><h2>Try it</h2>
<p>Pick a skill, edit its body, and pay from your browser wallet (EIP-1193, the official x402 client signs the authorization)${v.devnet && html` or, on this devnet, from the demo account`}. Each step is shown as it happens.</p>
<form id="try-form">
  <label>Skill <select id="try-skill" name="skill"></select></label>
  <label>Body <textarea id="try-body" name="body" rows="6" spellcheck="false"></textarea></label>
  <fieldset><legend>Pay from</legend>
    <label><input type="radio" name="payer" value="wallet" checked> Browser wallet</label>
    <label id="demo-option" ${raw(v.devnet ? '' : 'hidden')}><input type="radio" name="payer" value="demo"> Demo account (devnet only)</label>
  </fieldset>
  <p class="hint" id="try-price"></p>
  <button type="submit" id="try-pay">Pay and ask</button>
</form>
<ol class="steps" id="try-steps">
  <li data-step="challenge"><h4>1. 402 Payment Required</h4><pre class="code" id="step-challenge">—</pre></li>
  <li data-step="signature"><h4>2. Signature sent</h4><pre class="code" id="step-signature">—</pre></li>
  <li data-step="answer"><h4>3. Answer</h4><pre class="code" id="step-answer">—</pre></li>
  <li data-step="settlement"><h4>4. Settlement</h4><pre class="code" id="step-settlement">—</pre><p>Transaction: <code id="step-tx">—</code></p></li>
</ol></section>`;
}

function skillCard(o: Offer, v: HomeView): Markup {
  const { skill } = o;
  const body = v.bodies.get(skill.id) ?? {};
  const cheapest = o.ways.filter((w) => w.payment !== 'credits').map((w) => w.priceUsd.split('-')[0]!).sort((a, b) => Number(a) - Number(b))[0];
  const badges = [...new Set(o.ways.map((w) => BADGE[w.kind]))];
  const http = o.ways.find((w) => w.kind === 'http' || w.kind === 'own');
  const sent = o.tryIt?.envelope === 'params' ? { params: body } : body;
  const curlPath = o.tryIt?.path ?? http?.path;
  return html`<details class="skill" data-skill-id="${skill.id}" data-tags="${skill.tags.join(' ')}">
<summary><span class="title">${skill.title}</span> <code class="id">${skill.id}</code>
  <span class="price" data-testid="price">${skill.free ? 'free' : `from $${cheapest}`}</span>
  ${badges.map((b) => html`<span class="badge">${b}</span>`)}</summary>
<div class="body">
  <p>${skill.description}</p>
  ${skill.tags.length > 0 && html`<p class="tags">${skill.tags.map((t) => html`<span class="tag">${t}</span>`)}</p>`}
  <table class="ways"><thead><tr><th>Surface</th><th>Where</th><th>Price</th></tr></thead><tbody>
  ${o.ways.map((w) => wayRow(w))}
  </tbody></table>
  <h4>Example request</h4>
  <pre class="code">${JSON.stringify(sent, null, 2)}</pre>
  ${curlPath && html`<pre class="code curl">curl -si -X POST ${v.serverUrl}${curlPath} -H 'content-type: application/json' -d '${JSON.stringify(sent)}'</pre>`}
  <h4>Example answer</h4>
  <div class="example" data-example-for="${skill.id}"><p class="muted">Loads when the skill is opened.</p></div>
  ${o.tryIt && html`<button type="button" class="try" data-try="${skill.id}">Try it: pay and ask</button>`}
</div></details>`;
}

function wayRow(w: Way): Markup {
  const where = w.tool ? html`<code>${w.tool}</code>${w.toolArguments && Object.keys(w.toolArguments).length > 0 && html` <code>${JSON.stringify(w.toolArguments)}</code>`} at <code>${w.path}</code>`
    : html`<code>POST ${w.path}</code>${w.body && html` <code>${JSON.stringify(w.body)}</code>`}`;
  return html`<tr data-way="${w.kind}"><td>${WAY_LABEL[w.kind]}${w.payment === 'service-token-quota' && ' (service-token quota)'}</td><td>${where}</td><td class="amount">${priceLabel(w)}</td></tr>`;
}
