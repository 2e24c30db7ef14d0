/**
 * The tool server's six resources (docs/protocols.md, "Resources"): user-interface cards for the forecast, sentiment
 * and movers tools, each as an MCP App (`text/html;profile=mcp-app`, linked by the tool's
 * `_meta.ui.resourceUri`) and as an OpenAI Apps SDK template (`text/html+skybridge`, linked by
 * `_meta["openai/outputTemplate"]`). Each card is one self-contained page that renders the tool's
 * structured result: no script or style is fetched from anywhere.
 */
export interface UiCard {
  readonly tool: string;
  readonly title: string;
  /** Renders the result into `#card`; `r` is the tool's structuredContent. */
  readonly render: string;
}

const CARDS: readonly UiCard[] = [
  {
    tool: 'get_price_forecast', title: 'Sibyl price forecast',
    render: `r.available ? \`<h2>\${r.asset} · \${r.interval}</h2><p class="big \${r.direction ?? ''}">\${r.direction ? r.direction + ' ' + (r.driftPct > 0 ? '+' : '') + r.driftPct + '%' : 'no direction'}</p><p>Models \${r.consensus === true ? 'agree' : r.consensus === false ? 'disagree' : 'agreement not recorded'}</p>\${(r.models || []).map((m) => \`<p>\${m.model}: \${m.direction} \${m.driftPct > 0 ? '+' : ''}\${m.driftPct}%</p>\`).join('')}<small>\${r.source} · \${new Date(r.fetchedAt).toISOString()}\${r.stale ? ' · stale' : ''}</small>\` : \`<p>Not available: \${r.reason}</p>\``,
  },
  {
    tool: 'get_market_sentiment', title: 'Sibyl market sentiment',
    render: `r.available === false ? \`<p>Not available: \${r.reason}</p>\` : \`<h2>Market sentiment</h2><p class="big">\${r.crypto.available ? r.crypto.index + ' · ' + r.crypto.label : 'n/a'}</p><p>Altcoin season: \${r.altcoinSeason.available ? r.altcoinSeason.index + '/100 (' + r.altcoinSeason.season + ')' : 'n/a'}</p><small>\${r.crypto.source ?? ''}</small>\``,
  },
  {
    tool: 'get_top_movers', title: 'Sibyl top movers',
    render: `r.available ? \`<h2>Top \${r.side} · 24h</h2><table>\${(r.crossAsset[r.side] || []).map((t) => \`<tr><td>\${t.symbol ?? t.token}</td><td>\${t.chain}</td><td class="\${t.changePct >= 0 ? 'bullish' : 'bearish'}">\${t.changePct}%</td></tr>\`).join('')}</table><small>\${r.source}</small>\` : \`<p>Not available: \${r.reason}</p>\``,
  },
];

export const UI_MIME = { app: 'text/html;profile=mcp-app', skybridge: 'text/html+skybridge' } as const;

export function cardUri(tool: string, kind: keyof typeof UI_MIME): string {
  return `ui://sibyl/${tool.replace(/^get_/, '').replace(/_/g, '-')}${kind === 'skybridge' ? '.skybridge' : ''}.html`;
}

/** The page: it renders whatever result reaches it, from either host. */
function page(card: UiCard): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${card.title}</title><style>
body{font:14px system-ui,sans-serif;margin:12px;color:#111}h2{margin:0 0 8px}.big{font-size:28px;margin:4px 0}.bullish{color:#0a7d32}.bearish{color:#b3261e}small{color:#666}table{border-collapse:collapse}td{padding:2px 8px}
</style></head><body><div id="card">Waiting for the result…</div><script>
const show = (r) => { if (r) document.getElementById('card').innerHTML = (${'(r) => ' + card.render})(r); };
// OpenAI Apps SDK (skybridge): the result is on window.openai.
if (window.openai && window.openai.toolOutput) show(window.openai.toolOutput);
window.addEventListener('openai:set_globals', () => show(window.openai && window.openai.toolOutput));
// MCP Apps: the host posts the tool result.
window.addEventListener('message', (e) => { const m = e.data || {}; if (m.method === 'ui/notifications/tool-result') show(m.params && (m.params.structuredContent || m.params)); });
</script></body></html>`;
}

export function uiCards() {
  return CARDS.flatMap((card) => (['app', 'skybridge'] as const).map((kind) => ({
    tool: card.tool,
    name: `${card.tool}-${kind}`,
    uri: cardUri(card.tool, kind),
    title: `${card.title} (${kind === 'app' ? 'MCP App' : 'Apps SDK'})`,
    mimeType: UI_MIME[kind],
    html: page(card),
  })));
}

/** The `_meta` that links a tool to its cards. */
export function uiMeta(tool: string): Record<string, unknown> | undefined {
  if (!CARDS.some((c) => c.tool === tool)) return undefined;
  return { ui: { resourceUri: cardUri(tool, 'app') }, 'openai/outputTemplate': cardUri(tool, 'skybridge') };
}
