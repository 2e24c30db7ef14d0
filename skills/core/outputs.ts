/**
 * The pieces skills' answer schemas share (docs/architecture.md, "The registry"): provenance, coverage, the
 * screen, token references and ranking rows. Each skill's `output` is composed from these, so
 * a shape common to many answers is declared once.
 */
import { z } from 'zod';
import { PERIOD_NAMES } from '../data/periods.js';

/** A decimal integer as a string (block numbers, atomic amounts). */
export const intString = z.string().regex(/^-?\d+$/).describe('Integer as a decimal string.');
export const isoTime = z.string().describe('ISO 8601 time.');
export const address = z.string().describe('0x address.');
/** A USD figure that may be unknown (no price). */
export const usdOrNull = z.number().nullable();

/** data/provenance.ts `Provenance`: where an answer's figures come from. */
export const provenanceShape = {
  source: z.enum(['embedded', 'rpc']).describe('embedded: the devnet world; rpc: a configured real chain.'),
  chain: z.string().describe('Chain name.'),
  chainId: z.number().int(),
  asOf: z.object({ block: intString, timestamp: isoTime }).describe('The block (and its time) the figures are read at.'),
  blockRange: z.object({ from: intString, to: intString }).optional().describe('Blocks read.'),
  methodology: z.string().describe('Engine and version that computed the figures.'),
};

/** Provenance of an answer over several chains (no single chain id). */
export const multiChainProvenanceShape = {
  source: z.string().describe('Where the figures come from (embedded, rpc, index, or several joined by commas).'),
  asOf: z.object({ timestamp: isoTime }),
  methodology: z.string(),
};

/** data/coverage.ts `describeCoverage`: how much of the asked period the history covers. */
export function coverageSchema<T extends z.ZodType>(time: T) {
  return z
    .object({
      from: time.describe('Earliest moment the figures hold history for.'),
      to: time.describe('End: the index head.'),
      candles: z.number().int().optional().describe('Charts: candles holding history.'),
      periodCandles: z.number().int().optional().describe('Charts: candles the whole period has.'),
      periodFrom: time.describe('Where the period asked to begin.'),
      complete: z.boolean(),
      reason: z.enum(['index_history', 'token_history']).optional().describe('Why it is incomplete.'),
      note: z.string().optional(),
    })
    .describe('The span of history the figures cover.');
}
export const coverage = coverageSchema(isoTime);
export const epochCoverage = coverageSchema(z.number());

/** An answer over a `timeperiod` on one chain: provenance, the period, and what of it the history covers. */
export const periodAnswerShape = { ...provenanceShape, timeperiod: z.enum(PERIOD_NAMES), coverage };

/** data/screening.ts `ScreenSummary`: what the screen did to the listed tokens. */
export const screenSummary = z
  .object({
    methodology: z.string(),
    blocks: z.record(z.string(), z.number().int()).describe('Checkpoint block of each chain screened.'),
    policy: z.enum(['excluded', 'flagged']).describe('What this list does with a failing token.'),
    tokensChecked: z.number().int(),
    unscreened: z.number().int(),
    failed: z.number().int(),
    excluded: z.number().int(),
  })
  .describe('screen/v2 summary.');

/** data/screening.ts `RowScreen`: what a listed row carries from the screen. */
export const rowScreenShape = {
  screened: z.boolean().describe('Every factor of the security/v2 verdict was determined (risks name any that was not).'),
  flagged: z.boolean().describe('It fails the screen: its security/v2 verdict is high or critical.'),
  risks: z.array(z.string()),
};

/** A token as answers name it. */
export const tokenRef = z.object({ address, symbol: z.string().nullable(), name: z.string().nullable() });
export const tokenRefWithDecimals = tokenRef.extend({ decimals: z.number().int().nullable() });

/** data/rankings.ts `TokenRow`: a token ranked on one chain. */
export const tokenRowShape = {
  token: address,
  symbol: z.string().nullable(),
  name: z.string().nullable(),
  priceUsd: z.number(),
  changePct: z.number().nullable().describe('Price change since changeSince, in percent.'),
  changeSince: isoTime.nullable().describe('When changePct is measured from.'),
  liquidityUsd: z.number(),
  volumeUsd: z.number(),
  trades: z.number().int(),
  pricedBy: z.string().nullable().describe('The pool that prices it.'),
};
export const screenedTokenRow = z.object({ ...tokenRowShape, ...rowScreenShape });

/** A data gap: the answer says so instead of guessing. */
export const unavailable = z.object({ available: z.literal(false), reason: z.string() });

/** A chain an answer over several chains could not read. */
export const chainGap = z.object({ chain: z.string(), reason: z.string() });

/** Skills declared but not served here: they always refuse with domain_disabled, never answer. */
export const neverAnswers = z.object({}).describe('Never answered on this deployment: calls are refused with domain_disabled.');

/** security/verdict.ts FACTOR_NAMES and SEVERITIES (tsc holds the handler's values to these). */
const FACTOR_NAMES = ['sell-simulation', 'owner-powers', 'liquidity-pulled', 'lp-lock', 'holder-concentration', 'liquidity-depth', 'trading-activity', 'deployer-history'] as const;
const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;

/** One finding of a risk engine, with its weight. */
export const finding = z.object({ factor: z.enum(FACTOR_NAMES).describe('The security/v2 factor it comes from.'), severity: z.enum(SEVERITIES), points: z.number(), finding: z.string() });

/** security/verdict.ts `Factor`: one factor of the security/v2 verdict, with its value, threshold and source. */
export const securityFactor = z.object({
  factor: z.enum(FACTOR_NAMES),
  available: z.boolean().describe('false: the evidence could not be read (reason); the factor weighs nothing.'),
  severity: z.enum([...SEVERITIES, 'none']).describe('none: measured and within its threshold, or not applied (finding says which).'),
  points: z.number(),
  value: z.union([z.number(), z.string(), z.array(z.string())]).nullable(),
  unit: z.string().optional(),
  threshold: z.string(),
  source: z.string().describe('Where the value came from.'),
  finding: z.string(),
  reason: z.string().optional(),
  evidence: z.record(z.string(), z.unknown()).optional(),
});

/** security/powers.ts: what an owner can do, read from the bytecode's selectors. */
export const ownerPowers = z.union([
  z.object({
    available: z.literal(true),
    powers: z.array(z.string()).describe('mint, blacklist, pause, fees, limits.'),
    functions: z.array(z.string()),
    owner: address.nullable(),
    renounced: z.boolean().nullable(),
  }),
  unavailable,
]);

/** security/simulate.ts `Simulation`: the eth_call buy-then-sell. */
export const tradeSimulation = z.union([
  unavailable,
  z.object({
    available: z.literal(true),
    caller: address.describe('Random address the probe ran from.'),
    path: z.array(address),
    spentNative: z.string(),
    buyReverted: z.boolean(),
    buyTaxPct: z.number().nullable(),
    sellReverted: z.boolean(),
    sellTaxPct: z.number().nullable(),
    roundTripLossPct: z.number().nullable(),
    honeypot: z.boolean(),
    paused: z.boolean().describe("The token's own paused() was true where the trade reverted: its owner halted transfers (not a honeypot)."),
    reason: z.string().optional(),
  }),
]);

/** security/liquidity.ts `PoolLiquidity`: a pool's liquidity history and LP holders. */
export const poolLiquidity = z.object({
  pool: address, dex: z.string(), quote: z.string(),
  provider: address.nullable().describe('First liquidity provider.'),
  providerMintedLp: z.string().nullable(),
  providerHoldsPct: z.number().nullable(),
  addedQuote: z.number(), removedQuote: z.number(), removedPct: z.number().nullable(),
  addedUsd: z.number().nullable(), removedUsd: z.number().nullable(),
  lpRedeemedPct: z.number().nullable(),
  lastRemovalBlock: z.number().int().nullable(),
  lp: z.object({
    burnedPct: z.number(), contractHeldPct: z.number(), walletHeldPct: z.number(), largestHolder: address.nullable(), largestHolderPct: z.number(),
    largestWallet: address.nullable().describe('Largest LP holder that is no contract (entities/v1: an EIP-7702 delegated account is a wallet).'), largestWalletPct: z.number(), supply: z.string(),
  }),
  liquidityUsdNow: z.number().nullable(),
  pulled: z.boolean().describe('The first provider took their liquidity back.'),
});

/** security/scan.ts `scanToken`: the security/v2 verdict (rug-pull-scanner; the audit's tokenScan). */
export const securityScanShape = {
  riskScore: z.number().describe('0-100: the points of the factors that fired, capped (methodology states the rule).'),
  verdict: z.enum(SEVERITIES).describe('The level the factors give by the rule methodology states.'),
  honeypot: z.boolean().nullable().describe('null when the sell could not be simulated.'),
  rugged: z.boolean().describe('The deployer provided the liquidity and took it back.'),
  findings: z.array(finding).describe('The factors that fired, worst first.'),
  factors: z.array(securityFactor).describe('Every factor weighed, fired or not, with its value, threshold and source.'),
  undetermined: z.array(z.object({ factor: z.enum(FACTOR_NAMES), reason: z.string() })).describe('Factors whose evidence could not be read.'),
  simulation: tradeSimulation,
  ownerPowers,
  proxy: z.object({ implementation: address.nullable(), admin: address.nullable() }).describe('EIP-1967 slots: an implementation means the code can be replaced.'),
  liquidity: z.array(poolLiquidity),
  deployer: z.union([
    z.object({
      address, via: z.enum(['first-mint', 'launchpad']), block: z.number().int(), tx: z.string(),
      otherTokens: z.number().int(),
      checked: z.array(z.object({ token: address, symbol: z.string().nullable(), block: z.number().int(), honeypot: z.boolean().nullable(), rugged: z.boolean() })),
    }),
    unavailable,
  ]),
};

/** wallet-analysis/pnl.ts `walletPnl`: a wallet's trading profit and loss, average cost. */
export const walletPnlShape = {
  swapsIndexed: z.number().int().describe('Every swap of the wallet the index holds.'),
  tradesInPeriod: z.number().int(),
  realizedUsd: z.number(),
  unrealizedUsd: z.number(),
  totalPnlUsd: z.number(),
  volumeUsd: z.number(),
  winRate: z.number().nullable().describe('0-1 over closed trades.'),
  firstTradeAt: isoTime.nullable(),
  lastTradeAt: isoTime.nullable(),
  tokens: z.array(z.object({
    token: z.string(), symbol: z.string().nullable(),
    tradesInPeriod: z.number().int(), boughtUsd: z.number(), soldUsd: z.number(), realizedUsd: z.number(),
    positionTokens: z.number(), averageCostUsd: z.number().nullable(), priceNowUsd: z.number().nullable(), unrealizedUsd: z.number().nullable(),
    unrealizedReason: z.string().optional(),
  })),
};

/** wallet-analysis/trust.ts `walletTrust`: a 0-100 score and the evidence behind each factor. */
export const walletTrustShape = {
  available: z.boolean().describe('false when the index holds no activity of the wallet.'),
  reason: z.string().optional(),
  score: z.number().int().optional().describe('0-100.'),
  grade: z.enum(['trusted', 'neutral', 'risky']).optional(),
  factors: z.array(z.object({ factor: z.string(), points: z.number(), evidence: z.string() })),
};

/** A token a wallet bought or sold over the period, net, with the screen's verdict. */
export const walletPeriodRow = z.object({ token: z.string(), symbol: z.string().nullable(), netUsd: z.number(), ...rowScreenShape });
