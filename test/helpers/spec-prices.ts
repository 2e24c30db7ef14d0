/**
 * Prices as `interface-spec.md` writes them, in atomic USDC (6 decimals). Tests compare what was
 * charged with these, never with the registry under test: a wrong price in the registry then
 * fails a test instead of moving its expectation along with it.
 */
const usdc = (usd: string): bigint => BigInt(Math.round(Number(usd) * 1_000_000));

/** §4.6 skill prices (the same figures as §4.5's catalogue where it lists the skill). */
export const SPEC_SKILL_PRICE = {
  'general-analysis': usdc('1.00'),
  'whale-tracking': usdc('0.45'),
  'smart-money': usdc('0.50'),
  'altcoin-season-index': usdc('0.25'),
  'chart-forecast': usdc('0.65'),
  'strategy-backtest': usdc('1.50'),
  'wallet-portfolio': usdc('0.35'),
  'holder-concentration': usdc('0.35'),
  'market-movers': usdc('0.35'),
  'trade-signals': usdc('0.50'),
  'approval-security-scan': usdc('0.50'),
  'forgotten-assets-scan': usdc('0.50'),
  'liquidation-monitor': usdc('0.75'),
  'v4-hook-radar': usdc('0.25'),
  'vaults-list': usdc('0.10'),
  'yield-discover': usdc('0.10'),
  'fixed-yield-analysis': usdc('0.50'),
  'yield-deposit': usdc('0.50'),
  'yield-vault-deposit-plan': usdc('0.50'),
  'yield-rebalance': usdc('0.25'),
  'mempool-watch': usdc('0.45'),
  'claimable-airdrops': usdc('0.25'),
  'bitcoin-mempool-intelligence': usdc('0.25'),
  'brc20-analytics': usdc('0.50'),
  'runes-analytics': usdc('0.75'),
  'bitcoin-bridge-comparison': usdc('0.50'),
  'bitcoin-staking-analysis': usdc('0.75'),
  'bitcoin-onchain-analytics': usdc('0.85'),
  'pqc-wallet-scan': usdc('0.50'),
  'pqc-readiness-assessment': usdc('0.75'),
  'quantum-hardware-qrng': usdc('0.25'),
  'crqc-proximity-benchmark': usdc('1.00'),
  'quantum-wallet-generation': usdc('2.00'),
  'quantum-encryption-key': usdc('1.00'),
  'quantum-signing-key': usdc('1.50'),
  'quantum-portfolio-monitor': usdc('0.50'),
  'pqc-migration-planner': usdc('0.75'),
} as const;

/** §4.2 paid HTTP operations under /x402/data/ (by path suffix); §4.1's free-form report (a typed capability body on that path pays the skill's price). */
export const SPEC_PATH_PRICE = {
  'latest-pairs': usdc('0.40'),
  whaleintel: usdc('1.00'),
  holderconcentration: usdc('0.55'),
  report: usdc('0.50'),
} as const;
