/**
 * Capabilities the spec lists whose engine Sibyl does not have yet (Bitcoin, post-quantum
 * cryptography, prediction markets, lending, tokenized equities, media). They are declared so
 * the report agent recognises such a question and says plainly that this deployment cannot
 * answer it, instead of routing it to a skill that merely shares a word; calling one always
 * fails with `domain_disabled` and charges nothing. They are not published as working skills.
 */
import { z } from 'zod';
import { SibylError } from '../errors.js';
import type { UsdPrice } from '../money.js';
import { defineSkill, type CatalogEntry } from '../registry.js';

export const DISABLED_DOMAINS = {
  bitcoin: 'a Bitcoin node and indexer',
  quantum: 'post-quantum cryptography and quantum hardware',
  'prediction-markets': 'prediction-market venues',
  lending: 'lending-protocol positions',
  equities: 'tokenized-equity venues',
  media: 'media generation',
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
}

function planned(p: Planned) {
  const reason = `${p.title} needs ${DISABLED_DOMAINS[p.domain]}, which this deployment does not have yet; nothing was charged`;
  return defineSkill({
    ...p,
    disabledReason: reason,
    description: `${p.description} Not available on this deployment yet (needs ${DISABLED_DOMAINS[p.domain]}).`,
    input: z.strictObject({}),
    toolName: p.id.replace(/-/g, '_'),
    surfaces: ['agent'],
    async handler() {
      throw new SibylError('domain_disabled', reason, { reason: 'domain_disabled' });
    },
  });
}

export const PLANNED_SKILLS = [
  planned({ id: 'bitcoin-mempool-intelligence', domain: 'bitcoin', price: '0.25', catalog: { id: 'bitcoin-mempool', rateLimitPerMinute: 60, timeTargetSeconds: 15 }, title: 'Bitcoin mempool intelligence', description: 'Bitcoin mempool congestion, fee-rate tiers and the fee to pay for confirmation in the next blocks.', tags: ['bitcoin', 'btc', 'mempool', 'fees', 'sats-per-vbyte', 'confirmation'], examples: ['What fee rate gets a bitcoin transaction confirmed next block?'] }),
  planned({ id: 'brc20-analytics', domain: 'bitcoin', price: '0.50', catalog: { rateLimitPerMinute: 30, timeTargetSeconds: 30 }, title: 'BRC-20 analytics', description: 'BRC-20 token mints, holders and transfers on Bitcoin ordinals.', tags: ['bitcoin', 'brc20', 'ordinals', 'inscriptions'], examples: ['Top BRC-20 tokens by holders'] }),
  planned({ id: 'runes-analytics', domain: 'bitcoin', price: '0.75', title: 'Runes analytics', description: 'Bitcoin Runes etchings, mints and holders.', tags: ['bitcoin', 'runes', 'etching'], examples: ['Most minted runes this week'] }),
  planned({ id: 'bitcoin-onchain-analytics', domain: 'bitcoin', price: '0.85', title: 'Bitcoin on-chain analytics', description: 'Bitcoin UTXO age bands, exchange flows, miner flows and realized price.', tags: ['bitcoin', 'utxo', 'hodl', 'miners', 'realized-price'], examples: ['Are long-term bitcoin holders selling?'] }),
  planned({ id: 'pqc-wallet-scan', domain: 'quantum', price: '0.50', catalog: { rateLimitPerMinute: 10, timeTargetSeconds: 60 }, title: 'Post-quantum wallet exposure scan', description: 'Whether an address has exposed its public key and is vulnerable to a quantum attack (Shor), by address type and spend history.', tags: ['quantum', 'post-quantum', 'pqc', 'exposure', 'shor', 'public-key'], examples: ['Is my address safe from quantum computers?'] }),
  planned({ id: 'quantum-signing-key', domain: 'quantum', price: '1.50', title: 'Post-quantum signing key', description: 'Generate a post-quantum signing key pair (ML-DSA / SLH-DSA).', tags: ['quantum', 'post-quantum', 'signing', 'key', 'generate', 'ml-dsa'], examples: ['Create a quantum-safe signature key'] }),
  planned({ id: 'quantum-encryption-key', domain: 'quantum', price: '1.00', title: 'Post-quantum encryption key', description: 'Generate a post-quantum encryption key pair (ML-KEM).', tags: ['quantum', 'post-quantum', 'encryption', 'key', 'generate', 'ml-kem'], examples: ['Make me a quantum-resistant encryption key'] }),
  planned({ id: 'quantum-wallet-generation', domain: 'quantum', price: '2.00', catalog: { rateLimitPerMinute: 5, timeTargetSeconds: 120 }, title: 'Quantum-safe wallet generation', description: 'Generate a wallet whose keys are drawn from quantum randomness and protected by post-quantum cryptography.', tags: ['quantum', 'wallet', 'generate', 'qrng'], examples: ['Generate a quantum-safe wallet'] }),
  planned({ id: 'insider-scan', domain: 'prediction-markets', price: '1.50', title: 'Prediction-market insider scan', description: 'Prediction markets with unusual, well-timed positioning that suggests insider knowledge.', tags: ['prediction-markets', 'polymarket', 'kalshi', 'insider', 'betting', 'odds'], examples: ['Which prediction markets show insider trading?'] }),
  planned({ id: 'prediction-market-discovery', domain: 'prediction-markets', price: '0.50', title: 'Prediction-market discovery', description: 'Prediction markets by volume, odds and time to resolution.', tags: ['prediction-markets', 'polymarket', 'betting', 'odds', 'election'], examples: ['Hottest prediction markets right now'] }),
  planned({ id: 'liquidation-monitor', domain: 'lending', price: '0.75', catalog: { rateLimitPerMinute: 10, timeTargetSeconds: 60 }, title: 'Liquidation monitor', description: 'Lending positions (Aave, Compound, Morpho) near liquidation by health factor, and the collateral at risk.', tags: ['liquidation', 'lending', 'aave', 'compound', 'health-factor', 'borrow', 'collateral'], examples: ['Borrowers about to be liquidated'] }),
  planned({ id: 'rwa-intel', domain: 'equities', price: '0.25', title: 'Tokenized-equity intelligence', description: 'Tokenized stocks and real-world assets: wrapper trust, stock pairs, early buyers and event risk.', tags: ['rwa', 'tokenized-stocks', 'equities', 'stocks', 'real-world-assets'], examples: ['Which tokenized stocks trade at a premium?'] }),
  planned({ id: 'generate-video', domain: 'media', price: '5.00', title: 'Video generation', description: 'Generate a short video from a prompt.', tags: ['video', 'generate', 'media'], examples: ['Make a video of a rocket launch'] }),
  planned({ id: 'generate-song', domain: 'media', price: '1.25', title: 'Song generation', description: 'Generate a song from a prompt, with lyrics and genre.', tags: ['song', 'music', 'generate', 'lyrics', 'media'], examples: ['Write and produce a song about DeFi'] }),
];
