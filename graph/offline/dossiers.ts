/**
 * Dossiers: the answer to a question about one token or one wallet as a whole ("what's going on
 * with X", "is X safe", "tell me about wallet Y"). A dossier is ranked against a prompt like a
 * skill, from its own words; when it fits best, the planner calls each of its parts, registry
 * skills all, in one round with the same token or wallet and chain. The order of the parts is
 * the order the answer reads them: whether a token can be sold before anything about trading it.
 */
export interface Dossier {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly examples: readonly string[];
  /** Registry skill ids; the first one's arguments (token or wallet, chain) are the dossier's. */
  readonly parts: readonly string[];
}

export const DOSSIERS: readonly Dossier[] = [
  {
    id: 'token-dossier',
    title: 'Token dossier',
    description: 'Everything about one token: whether it can be sold and who controls it (security), price and trend, liquidity and volume, its holders, and what smart money and whales did with it.',
    tags: ['dossier', 'overview', 'rundown', 'safe', 'safety', 'legit', 'scam', 'going-on', 'happening', 'research', 'lowdown'],
    examples: ["What's going on with AERO on base?", 'Is HONEY48 on base safe to buy?', 'Tell me everything about token 0x... on bsc', 'Give me a rundown of DEGEN'],
    parts: ['security-scan', 'tokenchart', 'holder-concentration', 'smart-money', 'whale-tracking'],
  },
  {
    id: 'trade-plan',
    title: 'Trade plan',
    description: 'Whether and where to trade one token, from its technicals: entry at the last close, stop at the nearest support below it, target at the nearest resistance above it, with the trend, RSI and MACD behind them; and first, whether it can be sold at all (security).',
    tags: ['trade-plan', 'entry', 'stop', 'stop-loss', 'target', 'take-profit', 'levels', 'buy'],
    examples: ['Should I buy DEGEN on base: entry, stop and target?', 'Give me a trade plan with a stop loss for AERO'],
    parts: ['technical-analysis', 'security-scan'],
  },
  {
    id: 'wallet-dossier',
    title: 'Wallet dossier',
    description: 'Everything about one wallet: how far to trust it, what it holds, its profit and loss, and how it has traded lately.',
    tags: ['dossier', 'overview', 'rundown', 'profile', 'research', 'lowdown'],
    examples: ['Tell me about wallet 0x... on base', 'Give me a profile of wallet 0x... on arbitrum'],
    parts: ['wallet-trust-score', 'wallet-portfolio', 'wallet-pnl', 'copy-trading-intel'],
  },
];
