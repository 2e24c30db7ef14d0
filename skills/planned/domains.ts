/**
 * Capabilities the spec lists whose engine Sibyl does not have yet (Bitcoin, post-quantum
 * cryptography, prediction markets, tokenized equities, media). They are declared so
 * the report agent recognises such a question and says plainly that this deployment cannot
 * answer it, instead of routing it to a skill that merely shares a word; calling one always
 * fails with `domain_disabled` and charges nothing. They are not published as working skills.
 */
import { z } from 'zod';
import { SibylError } from '../errors.js';
import { defineFreeTool, disabledResult, freeOutput } from '../free.js';
import type { UsdPrice } from '../money.js';
import { FREE_ROWS, rowsParam } from '../params.js';
import { neverAnswers } from '../outputs.js';
import { defineSkill, type CatalogEntry } from '../registry.js';

export const DISABLED_DOMAINS = {
  bitcoin: 'a Bitcoin node and indexer',
  quantum: 'post-quantum cryptography and quantum hardware',
  'prediction-markets': 'prediction-market venues',
  equities: 'tokenized-equity venues',
  media: 'media generation',
  signals: 'trade-signal and regime models',
  perps: 'perpetual-futures venues',
  strategies: 'a strategy engine',
  launchpads: 'a multi-launchpad catalogue',
  'agent-memory': 'an agent context store',
  government: 'government disclosure and contract feeds',
  'analyst-calls': 'a graded-calls feed',
} as const;
export type DisabledDomain = keyof typeof DISABLED_DOMAINS;

interface Planned {
  id: string;
  title: string;
  description: string;
  tags: string[];
  examples: string[];
  price: UsdPrice;
  domain: DisabledDomain;
  catalog?: CatalogEntry;
  /** Only a priced kind of a paid MCP tool: not offered to the report agent (its words would pull questions away from working skills). */
  kindOnly?: boolean;
}

function planned(p: Planned) {
  const { kindOnly: _kindOnly, ...declared } = p;
  const reason = `${needs(p.title, p.domain)}; nothing was charged`;
  return defineSkill({
    ...declared,
    disabledReason: reason,
    description: `${p.description} Not available on this deployment yet (needs ${DISABLED_DOMAINS[p.domain]}).`,
    input: z.strictObject({}),
    output: neverAnswers,
    toolName: p.id.replace(/-/g, '_'),
    surfaces: p.kindOnly ? [] : ['agent'],
    async handler() {
      throw new SibylError('domain_disabled', reason, { reason: 'domain_disabled' });
    },
  });
}

const needs = (title: string, domain: DisabledDomain) => `${title} needs ${DISABLED_DOMAINS[domain]}, which this deployment does not have yet`;

/** A free tool of the tool server (spec 4.7) without an engine: listed with its exact input, it answers `available: false, reason: domain_disabled`. */
function plannedTool(p: Pick<Planned, 'id' | 'title' | 'description' | 'tags' | 'domain'> & { toolName: string; input: z.ZodObject }) {
  return defineFreeTool({
    ...p,
    description: `${p.description} Not available on this deployment (needs ${DISABLED_DOMAINS[p.domain]}).`,
    disabledReason: needs(p.title, p.domain),
    output: freeOutput({}),
    read: async (input) => disabledResult((input as { limit?: number }).limit ?? null),
  });
}

const freeRows = z.strictObject({ limit: rowsParam(FREE_ROWS) });

export const PLANNED_SKILLS = [
  planned({ id: 'bitcoin-mempool-intelligence', domain: 'bitcoin', price: '0.25', catalog: { id: 'bitcoin-mempool', rateLimitPerMinute: 60, timeTargetSeconds: 15 }, title: 'Bitcoin mempool intelligence', description: 'Bitcoin mempool congestion, fee-rate tiers and the fee to pay for confirmation in the next blocks.', tags: ['bitcoin', 'btc', 'mempool', 'fees', 'sats-per-vbyte', 'confirmation'], examples: ['What fee rate gets a bitcoin transaction confirmed next block?'] }),
  planned({ id: 'brc20-analytics', domain: 'bitcoin', price: '0.50', catalog: { rateLimitPerMinute: 30, timeTargetSeconds: 30 }, title: 'BRC-20 analytics', description: 'BRC-20 token mints, holders and transfers on Bitcoin ordinals.', tags: ['bitcoin', 'brc20', 'ordinals', 'inscriptions'], examples: ['Top BRC-20 tokens by holders'] }),
  planned({ id: 'runes-analytics', domain: 'bitcoin', price: '0.75', title: 'Runes analytics', description: 'Bitcoin Runes etchings, mints and holders.', tags: ['bitcoin', 'runes', 'etching'], examples: ['Most minted runes this week'] }),
  planned({ id: 'bitcoin-onchain-analytics', domain: 'bitcoin', price: '0.85', title: 'Bitcoin on-chain analytics', description: 'Bitcoin UTXO age bands, exchange flows, miner flows and realized price.', tags: ['bitcoin', 'btc', 'utxo', 'hodl', 'miners', 'realized-price', 'mvrv', 'sopr', 'cycle'], examples: ['Are long-term bitcoin holders selling?', 'Where is bitcoin in its market cycle by MVRV?'] }),
  planned({ id: 'pqc-wallet-scan', domain: 'quantum', price: '0.50', catalog: { rateLimitPerMinute: 10, timeTargetSeconds: 60 }, title: 'Post-quantum wallet exposure scan', description: 'Whether an address has exposed its public key and is vulnerable to a quantum attack (Shor), by address type and spend history.', tags: ['quantum', 'post-quantum', 'pqc', 'exposure', 'shor', 'public-key'], examples: ['Is my address safe from quantum computers?'] }),
  planned({ id: 'quantum-signing-key', domain: 'quantum', price: '1.50', title: 'Post-quantum signing key', description: 'Generate a post-quantum signing key pair (ML-DSA / SLH-DSA).', tags: ['quantum', 'post-quantum', 'signing', 'key', 'generate', 'ml-dsa'], examples: ['Create a quantum-safe signature key'] }),
  planned({ id: 'quantum-encryption-key', domain: 'quantum', price: '1.00', title: 'Post-quantum encryption key', description: 'Generate a post-quantum encryption key pair (ML-KEM).', tags: ['quantum', 'post-quantum', 'encryption', 'key', 'generate', 'ml-kem'], examples: ['Make me a quantum-resistant encryption key'] }),
  planned({ id: 'quantum-wallet-generation', domain: 'quantum', price: '2.00', catalog: { rateLimitPerMinute: 5, timeTargetSeconds: 120 }, title: 'Quantum-safe wallet generation', description: 'Generate a wallet whose keys are drawn from quantum randomness and protected by post-quantum cryptography.', tags: ['quantum', 'wallet', 'generate', 'qrng'], examples: ['Generate a quantum-safe wallet'] }),
  planned({ id: 'insider-scan', domain: 'prediction-markets', price: '1.50', title: 'Prediction-market insider scan', description: 'Prediction markets with unusual, well-timed positioning that suggests insider knowledge.', tags: ['prediction-markets', 'polymarket', 'kalshi', 'insider', 'betting', 'odds'], examples: ['Which prediction markets show insider trading?'] }),
  planned({ id: 'prediction-market-discovery', domain: 'prediction-markets', price: '0.50', title: 'Prediction-market discovery', description: 'Prediction markets by volume, odds and time to resolution.', tags: ['prediction-markets', 'polymarket', 'betting', 'odds', 'election'], examples: ['Hottest prediction markets right now'] }),
  planned({ id: 'rwa-intel', domain: 'equities', price: '0.25', title: 'Tokenized-equity intelligence', description: 'Tokenized stocks and real-world assets: wrapper trust, stock pairs, early buyers and event risk.', tags: ['rwa', 'tokenized-stocks', 'equities', 'stocks', 'real-world-assets'], examples: ['Which tokenized stocks trade at a premium?'] }),
  planned({ id: 'generate-video', domain: 'media', price: '5.00', title: 'Video generation', description: 'Generate a short video from a prompt.', tags: ['video', 'generate', 'media'], examples: ['Make a video of a rocket launch'] }),
  planned({ id: 'generate-song', domain: 'media', price: '1.25', title: 'Song generation', description: 'Generate a song from a prompt, with lyrics and genre.', tags: ['song', 'music', 'generate', 'lyrics', 'media'], examples: ['Write and produce a song about DeFi'] }),
  // Priced kinds of the paid MCP tools (spec 4.6 prices) whose engines are not built yet.
  planned({ id: 'regime-classification', domain: 'signals', price: '0.50', kindOnly: true, title: 'Regime classification', description: 'The market regime (trend, range, stress) per asset, with its inputs.', tags: ['regime', 'trend'], examples: ['Is BTC trending or ranging?'] }),
  planned({ id: 'perp-smart-money', domain: 'perps', price: '0.50', kindOnly: true, title: 'Perp smart money', description: 'Positions of profitable perpetual-futures traders.', tags: ['perps', 'hyperliquid', 'positions'], examples: ['What are smart perp traders long?'] }),
  planned({ id: 'meta-strategy', domain: 'strategies', price: '1.00', kindOnly: true, title: 'Meta-strategy', description: 'Which strategy family fits the current regime.', tags: ['strategy', 'meta'], examples: ['Which strategy fits this market?'] }),
  planned({ id: 'optimize-strategy-params', domain: 'strategies', price: '2.00', kindOnly: true, title: 'Strategy parameter optimisation', description: 'Parameters of a trading strategy optimised on history, out of sample.', tags: ['strategy', 'optimise', 'parameters'], examples: ['Optimise my moving-average strategy'] }),
  planned({ id: 'portfolio-risk-allocation', domain: 'strategies', price: '0.50', kindOnly: true, title: 'Portfolio risk allocation', description: 'Position sizes by risk contribution for a portfolio.', tags: ['portfolio', 'risk', 'allocation'], examples: ['How should I size my positions?'] }),
  planned({ id: 'strategy-allocation-recommendation', domain: 'strategies', price: '1.00', kindOnly: true, title: 'Strategy allocation', description: 'Capital split across strategies from their track records.', tags: ['strategy', 'allocation'], examples: ['Split my capital across strategies'] }),
  planned({ id: 'strategy-gate', domain: 'strategies', price: '0.50', kindOnly: true, title: 'Strategy gate', description: 'Whether a strategy may trade now, from regime and risk checks.', tags: ['strategy', 'gate', 'risk'], examples: ['Should my strategy trade today?'] }),
  planned({ id: 'bitcoin-bridge-comparison', domain: 'bitcoin', price: '0.50', kindOnly: true, title: 'Bitcoin bridge comparison', description: 'Wrapped BTC on EVM chains: supply, custody model, flows and peg deviation.', tags: ['bitcoin', 'wbtc', 'bridge'], examples: ['Which wrapped BTC is safest?'] }),
  planned({ id: 'bitcoin-staking-analysis', domain: 'bitcoin', price: '0.75', kindOnly: true, title: 'Bitcoin staking analysis', description: 'Staked bitcoin, timelocks, unbonding and stakers.', tags: ['bitcoin', 'staking', 'babylon'], examples: ['How much BTC is staked?'] }),
  planned({ id: 'crqc-proximity-benchmark', domain: 'quantum', price: '1.00', kindOnly: true, title: 'CRQC proximity benchmark', description: 'How close quantum hardware is to breaking secp256k1, from public benchmarks.', tags: ['quantum', 'crqc', 'benchmark'], examples: ['How close are quantum computers to breaking bitcoin?'] }),
  planned({ id: 'pqc-migration-planner', domain: 'quantum', price: '0.75', kindOnly: true, title: 'PQC migration planner', description: 'A plan to move funds and keys to post-quantum schemes.', tags: ['quantum', 'migration', 'pqc'], examples: ['Plan my post-quantum migration'] }),
  planned({ id: 'pqc-readiness-assessment', domain: 'quantum', price: '0.75', kindOnly: true, title: 'PQC readiness assessment', description: 'How ready a wallet or protocol is for post-quantum cryptography.', tags: ['quantum', 'readiness', 'pqc'], examples: ['Is my protocol quantum-ready?'] }),
  planned({ id: 'quantum-hardware-qrng', domain: 'quantum', price: '0.25', kindOnly: true, title: 'Quantum random numbers', description: 'Random numbers from quantum hardware.', tags: ['quantum', 'random', 'qrng'], examples: ['Give me quantum random bytes'] }),
  planned({ id: 'quantum-portfolio-monitor', domain: 'quantum', price: '0.50', kindOnly: true, title: 'Quantum portfolio monitor', description: 'Quantum exposure across a portfolio of addresses.', tags: ['quantum', 'portfolio', 'exposure'], examples: ['Monitor my addresses for quantum exposure'] }),
  planned({ id: 'conviction-scanner', domain: 'prediction-markets', price: '1.00', kindOnly: true, title: 'Conviction scanner', description: 'Prediction markets where large, patient positions concentrate.', tags: ['prediction-markets', 'conviction'], examples: ['Where is conviction highest in prediction markets?'] }),
  planned({ id: 'cross-platform-arbitrage', domain: 'prediction-markets', price: '1.00', kindOnly: true, title: 'Cross-platform arbitrage', description: 'The same event priced differently across prediction-market venues.', tags: ['prediction-markets', 'arbitrage'], examples: ['Prediction-market arbitrage across venues'] }),
  planned({ id: 'longshot-fader', domain: 'prediction-markets', price: '0.75', kindOnly: true, title: 'Longshot fader', description: 'Longshot outcomes priced above their historical hit rate.', tags: ['prediction-markets', 'longshot'], examples: ['Which longshots are overpriced?'] }),
  planned({ id: 'spread-analysis', domain: 'prediction-markets', price: '0.75', kindOnly: true, title: 'Spread analysis', description: 'Bid-ask spreads and depth of prediction markets.', tags: ['prediction-markets', 'spread', 'depth'], examples: ['Which prediction markets have tight spreads?'] }),
  planned({ id: 'content-judge', domain: 'media', price: '0.05', kindOnly: true, title: 'Content judge', description: 'A quick judgement of a piece of content against a rubric.', tags: ['content', 'judge'], examples: ['Judge this post'] }),
  planned({ id: 'integrity-deep-scan', domain: 'media', price: '1.00', kindOnly: true, title: 'Integrity deep scan', description: 'A deep check of content for manipulation and provenance.', tags: ['content', 'integrity', 'provenance'], examples: ['Is this image manipulated?'] }),
  planned({ id: 'launchpad-catalog', domain: 'launchpads', price: '0.25', kindOnly: true, title: 'Launchpad catalogue', description: 'Launchpads across chains with their fees, volumes and graduation rules.', tags: ['launchpads', 'catalogue'], examples: ['Compare the launchpads'] }),
  planned({ id: 'agent-context', domain: 'agent-memory', price: '1.00', kindOnly: true, title: 'Agent context', description: 'A compact market context for another agent, refreshed per call.', tags: ['agent', 'context'], examples: ['Give my agent the market context'] }),
  // Free tools of the tool server (spec 4.7) whose feeds this deployment does not have.
  plannedTool({ id: 'perp-whales', toolName: 'get_perp_whales', domain: 'perps', input: freeRows, title: 'Perpetuals whales', description: 'Positions and funding of the largest perpetual-futures traders.', tags: ['perps', 'whales', 'funding'] }),
  plannedTool({ id: 'prediction-whales', toolName: 'get_prediction_whales', domain: 'prediction-markets', input: freeRows, title: 'Prediction-market whales', description: 'Insider-like positioning in prediction markets.', tags: ['prediction-markets', 'whales'] }),
  plannedTool({ id: 'prediction-catalysts', toolName: 'get_prediction_catalysts', domain: 'prediction-markets', input: freeRows, title: 'Prediction-market catalysts', description: 'Upcoming events that move prediction markets.', tags: ['prediction-markets', 'catalysts'] }),
  plannedTool({ id: 'prediction-yields', toolName: 'get_prediction_yields', domain: 'prediction-markets', input: freeRows, title: 'Prediction-market yields', description: 'Near-certain prediction-market positions as yield.', tags: ['prediction-markets', 'yield'] }),
  plannedTool({ id: 'bitcoin-cycle-position', toolName: 'get_bitcoin_cycle_position', domain: 'bitcoin', input: z.strictObject({}), title: 'Bitcoin cycle position', description: 'MVRV, NVT, realized cap and the Bitcoin cycle.', tags: ['bitcoin', 'cycle', 'mvrv'] }),
  plannedTool({ id: 'congress-trades', toolName: 'get_congress_trades', domain: 'government', input: freeRows, title: 'Congress trades', description: 'Stock trades disclosed by members of Congress.', tags: ['congress', 'equities'] }),
  plannedTool({ id: 'government-contracts', toolName: 'get_government_contracts', domain: 'government', input: freeRows, title: 'Government contracts', description: 'Government contract awards and the tickers they move.', tags: ['government', 'contracts', 'equities'] }),
  plannedTool({ id: 'analyst-accuracy', toolName: 'get_analyst_accuracy', domain: 'analyst-calls', input: freeRows, title: 'Analyst accuracy', description: 'Track records of market callers.', tags: ['analysts', 'accuracy'] }),
];
