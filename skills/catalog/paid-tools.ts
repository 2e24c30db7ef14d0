/**
 * The tool server's paid tools (docs/skills.md, "Paid tools"), billed from the prepaid credit balance. Each tool has
 * its spec input schema (exact) and a `kind` per capability; a kind names the registry skill that
 * answers it and how the tool's inputs become that skill's params, so its price is the skill's
 * catalogue price. A kind whose engine this deployment does not have names a skill the registry
 * declares as planned (skills/planned, with the spec's price): the price is published, and
 * calling it answers `available: false, reason: domain_disabled` and is never debited.
 */
import { z } from 'zod';
import { DEX_CHAIN_NAMES, STOCK_CHAIN } from '../../chain/chains.js';
import { atomicToUsdString } from '../core/money.js';
import type { Registry, Skill } from '../core/registry.js';
import type { SkillId } from './index.js';
import { evmAddressParam, rowsParam, tokenParam, TOOL_ROWS, TOOL_TIMEFRAMES } from '../core/params.js';
import { contractReviewSkill } from '../security/contract-review.js';
import { transactionDebuggerSkill } from '../transactions/transactions.js';
import { copyTradingIntelSkill } from '../copy-trading/copy-trading.js';
import { HOOK_CHAIN_IDS, hookRadarSkill } from '../hooks/hook-radar.js';
import { clampTo, fitTo, inputField } from './fit.js';
import { predictionQueryParam } from '../prediction/markets.js';
import { rwaIntelSkill } from '../stocks/rwa-intel-skill.js';

type Input = Record<string, unknown>;

export interface PaidKind {
  /** The registry skill that answers this kind. */
  readonly skill: SkillId;
  /** The tool's input as that skill's params (the skill given, to read its own bounds). */
  readonly params: (input: Input, skill: Skill) => Input;
  /**
   * Values a field of the skill takes on this tool beyond its own enum: find_yield's `chain` is the
   * spec's chains plus the stock chain, the yield skills' own the spec's EVM chains. The call is
   * checked against the skill's input with these added (its admission then answers what it cannot
   * serve: `available: false`); the skill's own schema, what its HTTP and A2A surfaces publish and
   * accept, is left as it is.
   */
  readonly widen?: Readonly<Record<string, readonly [string, ...string[]]>>;
}

export interface PaidTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: z.ZodObject;
  readonly kinds: Readonly<Record<string, PaidKind>>;
  readonly defaultKind: string;
  /** The input field that picks the kind (`kind` by default; `venue` for whales and launchpads). */
  readonly kindField?: string;
  /** Not read-only and not idempotent (generate_quantum_key); the rest read and repeat. */
  readonly mutating?: boolean;
}

/** Only the fields that were given (skills refuse unknown fields, and undefined is not a value). */
const defined = (o: Input): Input => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
/** The published inputs shared by the paid tools, written once: the seven chains, the periods, the rows. */
const CHAIN7 = [...DEX_CHAIN_NAMES, 'solana'] as const;
const chain7 = z.enum(CHAIN7).default('base').describe(`One of ${CHAIN7.join(', ')}; default base.`);
/** find_yield's chains: the seven, and the stock chain (the one tool whose chain the spec widens with it). */
const YIELD_CHAINS = [...CHAIN7, STOCK_CHAIN] as const;
/** Its kinds' skills take them all on this tool (solana and chains without a market are refused by their admission). */
const YIELD_CHAIN = { chain: YIELD_CHAINS };
const rows = rowsParam(TOOL_ROWS);
const timeframe = (allowed: readonly (typeof TOOL_TIMEFRAMES)[number][] = TOOL_TIMEFRAMES, note = '') =>
  z.enum(allowed as [string, ...string[]]).default('24h').describe(`${allowed.join(', ')}; default 24h${note}.`);
/** A field the tool takes as its kind's skill does (same rule), but optional: other kinds do not need it. */
const asIn = (skill: Pick<Skill, 'id' | 'input'>, field: string, what: string) => inputField(skill, field).optional().describe(what);
/** The token (or wallet) and chain, as the token-analysis and wallet skills take them. */
const tokenOnChain = (i: Input): Input => ({ tokenAddress: i.tokenAddress, chain: i.chain });
const walletOnChain = (i: Input): Input => ({ walletAddress: i.walletAddress, chain: i.chain });
/** A row count within what the kind's skill allows. */
const rowsFor = (skill: Skill, i: Input) => clampTo(skill, 'limit', i.limit as number);
/** Only the fields the kind's skill takes (a skill still planned takes none). */
const taken = (skill: Skill, o: Input): Input => Object.fromEntries(Object.entries(defined(o)).filter(([k]) => k in skill.input.shape));
/** A Bitcoin kind: the tool's rows, within what the skill allows. */
const bitcoinKind = (skill: string): PaidKind => ({ skill, params: (i, s) => ('limit' in s.input.shape ? { limit: rowsFor(s, i) } : {}) });
/** A quantum-risk kind: the wallet as the skill takes it (one address, or a watch list of one). */
const quantumKind = (skill: string): PaidKind => ({ skill, params: (i, s) => taken(s, { address: i.walletAddress, addresses: i.walletAddress ? [i.walletAddress] : undefined }) });
/** A kind whose skill takes nothing from the tool's input (its own defaults apply). */
const withDefaults = (skill: string): PaidKind => ({ skill, params: () => ({}) });
/** A kind with no engine here: the registry declares its skill (skills/planned), price included. */
const none = (skill: SkillId): PaidKind => ({ skill, params: () => ({}) });
/** A prediction-market kind: the query and the rows, as its skill takes them. */
const predictionKind = (skill: SkillId): PaidKind => ({ skill, params: (i, s) => taken(s, { query: i.query, limit: 'limit' in s.input.shape ? rowsFor(s, i) : undefined }) });
/** The chart period whose candles match a timeframe. */
const PERIOD_OF_TIMEFRAME: Record<string, string> = { '1h': '24h', '4h': '7d', '24h': '30d', '1d': '30d', '1w': '30d', '7d': '30d', '30d': '30d' };
const CANDLE_OF_TIMEFRAME: Record<string, string> = { '1h': '1h', '4h': '4h', '24h': '1d', '1d': '1d', '7d': '1d', '30d': '1d' };

/**
 * A tool with several kinds takes the kind field (`kind`, or its `kindField`) as an enum of its
 * kinds' names with its default kind: the kinds are the list, never written again.
 */
function tool(t: PaidTool): PaidTool {
  const names = Object.keys(t.kinds) as [string, ...string[]];
  if (names.length < 2) return t;
  const field = z.enum(names).default(t.defaultKind).describe(`One of ${names.join(', ')}; default ${t.defaultKind}.`);
  return { ...t, input: t.input.extend({ [t.kindField ?? 'kind']: field }) };
}

export const PAID_TOOLS: readonly PaidTool[] = [
  tool({
    name: 'ask_service', title: 'Ask Sibyl', description: 'Ask anything about on-chain activity and markets in plain language; the analysis agent picks the skills, runs them and answers with sources.',
    input: z.strictObject({ prompt: z.string().min(1).max(4_000).describe('The question, 1-4,000 characters.') }),
    kinds: { ask: { skill: 'general-analysis', params: (i) => ({ prompt: i.prompt }) } }, defaultKind: 'ask',
  }),
  tool({
    name: 'scan_hook_layer', title: 'Uniswap v4 hook radar', description: 'New Uniswap v4 hooks and their pools.',
    input: z.strictObject({ chainId: asIn(hookRadarSkill, 'chainId', `${HOOK_CHAIN_IDS.join(' or ')}; omit for both.`) }),
    kinds: { radar: { skill: 'v4-hook-radar', params: (i) => defined({ chainId: i.chainId }) } }, defaultKind: 'radar',
  }),
  tool({
    name: 'forecast_chart', title: 'Chart forecast', description: 'A two-model forecast of a token with quantile bands, verdict and commentary over its chart.',
    input: z.strictObject({ token: tokenParam('Token symbol or contract address.'), chain: chain7, timeframe: z.enum(['1h', '4h', '1d', '1w']).default('1d').describe('Candle size: 1h, 4h, 1d or 1w; default 1d.') }),
    kinds: { forecast: { skill: 'chart-forecast', params: (i) => ({ token: i.token, chain: i.chain, timeperiod: PERIOD_OF_TIMEFRAME[i.timeframe as string] }) } }, defaultKind: 'forecast',
  }),
  tool({
    name: 'analyze_token_security', title: 'Token security', description: 'A token\'s rug-pull and honeypot scan, holder concentration, snipers, approvals or a bytecode audit.',
    input: z.strictObject({ tokenAddress: tokenParam('Token contract address (or symbol).'), chain: chain7 }),
    kinds: {
      rug_pull: { skill: 'security-scan', params: tokenOnChain },
      holders: { skill: 'holder-concentration', params: tokenOnChain },
      sniping: { skill: 'token-sniping', params: tokenOnChain },
      // The address whose approvals are scanned comes in the tool's tokenAddress field (the tool's one address field).
      approvals: { skill: 'approval-security-scan', params: (i) => ({ address: i.tokenAddress, chain: i.chain }) },
      contract_audit: { skill: 'smart-contract-audit', params: (i) => ({ address: i.tokenAddress, chain: i.chain }) },
    },
    defaultKind: 'rug_pull',
  }),
  tool({
    name: 'inspect_onchain', title: 'On-chain inspector', description: 'Review a contract\'s owner powers (contract, needs address), debug a transaction (transaction, needs txHash) or trace its funds (flow, needs txHash).',
    input: z.strictObject({
      address: asIn(contractReviewSkill, 'address', 'Contract address (0x + 40 hex), for contract.'),
      txHash: asIn(transactionDebuggerSkill, 'txHash', 'Transaction hash (0x + 64 hex), for transaction and flow.'),
      chain: chain7,
    }),
    kinds: {
      contract: { skill: 'contract-review', params: (i) => defined({ address: i.address, chain: i.chain }) },
      transaction: { skill: 'transaction-debugger', params: (i) => defined({ txHash: i.txHash, chain: i.chain }) },
      flow: { skill: 'fund-flow-trace', params: (i) => defined({ txHash: i.txHash, chain: i.chain }) },
    },
    defaultKind: 'contract',
  }),
  tool({
    name: 'analyze_wallet', title: 'Wallet analysis', description: 'A wallet\'s portfolio, PnL, trust score, forgotten assets, claimable airdrops or quantum exposure.',
    input: z.strictObject({ walletAddress: evmAddressParam('The wallet (0x + 40 hex).'), chain: chain7 }),
    kinds: {
      portfolio: { skill: 'wallet-portfolio', params: walletOnChain },
      pnl: { skill: 'wallet-pnl', params: walletOnChain },
      trust: { skill: 'wallet-trust-score', params: walletOnChain },
      forgotten: { skill: 'forgotten-assets-scan', params: (i) => defined({ address: i.walletAddress, chain: i.chain }) },
      airdrops: { skill: 'claimable-airdrops', params: (i) => defined({ address: i.walletAddress, chain: i.chain }) },
      quantum: quantumKind('pqc-wallet-scan'),
    },
    defaultKind: 'portfolio',
  }),
  tool({
    name: 'analyze_tokenized_stocks', title: 'Tokenized stocks', description: 'Tokenized-equity boards: float corner, wrapper trust, stock pairs (all venues or the stock chain\'s own), early buyers, trader record, event risk, portfolio.',
    input: z.strictObject({
      board: inputField(rwaIntelSkill, 'board').describe('The board; default float-corner.'),
      token: asIn(rwaIntelSkill, 'token', 'Token contract (required for early-buyers).'),
      intent: asIn(rwaIntelSkill, 'intent', 'Objective, for portfolio; no transaction is executed.'),
    }),
    kinds: { board: { skill: 'rwa-intel', params: (i) => defined({ board: i.board, token: i.token, intent: i.intent }) } }, defaultKind: 'board',
  }),
  tool({
    name: 'track_whales', title: 'Whale tracking', description: 'Whale moves on chain, perpetuals whales, or what smart money is doing.',
    input: z.strictObject({ chain: chain7, timeframe: timeframe(), limit: rows }),
    kinds: {
      onchain: { skill: 'whale-tracking', params: (i, s) => ({ chain: i.chain, timeperiod: i.timeframe, limit: rowsFor(s, i) }) },
      hyperliquid: { skill: 'perp-smart-money', params: (i, s) => ({ timeperiod: fitTo(s, 'timeperiod', i.timeframe), limit: rowsFor(s, i) }) },
      smart_money: { skill: 'smart-money', params: (i, s) => ({ chain: i.chain, timeperiod: i.timeframe, limit: rowsFor(s, i) }) },
    },
    defaultKind: 'onchain', kindField: 'venue',
  }),
  tool({
    name: 'scan_market', title: 'Market scan', description: 'Top gainers, movers, alpha-ranked gainers, the altcoin season index, technicals of a token, or the market regime.',
    input: z.strictObject({
      token: tokenParam('Token symbol or address, for technicals.').optional(),
      chain: chain7,
      timeframe: timeframe(TOOL_TIMEFRAMES, ' (a period; the candle size for technicals)'),
      limit: rows,
    }),
    kinds: {
      top_gainers: { skill: 'top-gainers', params: (i, s) => ({ chain: i.chain, timeperiod: i.timeframe, limit: rowsFor(s, i) }) },
      movers: { skill: 'market-movers', params: (i, s) => ({ chain: i.chain, timeperiod: i.timeframe, limit: rowsFor(s, i) }) },
      alpha_ranked: { skill: 'top-gainers-comprehensive', params: (i, s) => defined({ chain: fitTo(s, 'chain', i.chain), limit: rowsFor(s, i) }) },
      altseason: { skill: 'altcoin-season-index', params: (i) => ({ chain: i.chain }) },
      technicals: { skill: 'technical-analysis', params: (i) => defined({ token: i.token, chain: i.chain, timeframe: CANDLE_OF_TIMEFRAME[i.timeframe as string] }) },
      regime: none('regime-classification'),
    },
    defaultKind: 'top_gainers',
  }),
  tool({
    name: 'detect_mev', title: 'MEV', description: 'Sandwich attacks on a chain, mempool watch, or protection advice for a token trade.',
    input: z.strictObject({ tokenAddress: tokenParam('Token, for protection.').optional(), chain: chain7, timeframe: timeframe() }),
    kinds: {
      detection: { skill: 'mev-detection', params: (i) => ({ chain: i.chain, timeperiod: i.timeframe }) },
      mempool: { skill: 'mempool-watch', params: (i) => defined({ chain: i.chain, token: i.tokenAddress }) },
      protection: { skill: 'mev-protection', params: (i) => defined({ tokenAddress: i.tokenAddress, chain: i.chain }) },
    },
    defaultKind: 'detection',
  }),
  tool({
    name: 'find_arbitrage', title: 'Arbitrage', description: 'DEX arbitrage, flash-loan arbitrage, cross-chain price gaps or prediction-market arbitrage.',
    input: z.strictObject({ chain: chain7, limit: rows }),
    kinds: {
      dex: { skill: 'arbitrage-scanner', params: (i, s) => ({ chain: i.chain, limit: rowsFor(s, i) }) },
      flashloan: { skill: 'flashloan-opportunities', params: (i, s) => ({ chain: i.chain, limit: rowsFor(s, i) }) },
      cross_chain: { skill: 'cross-chain-arbitrage', params: (i, s) => ({ limit: rowsFor(s, i) }) },
      prediction_market: { skill: 'cross-platform-arbitrage', params: (i, s) => taken(s, { limit: 'limit' in s.input.shape ? rowsFor(s, i) : undefined }) },
    },
    defaultKind: 'dex',
  }),
  tool({
    name: 'scan_launchpads', title: 'Launchpads', description: 'Solana bonding-curve launches, EVM creator launches, or the launchpad catalogue.',
    input: z.strictObject({ timeframe: timeframe(TOOL_TIMEFRAMES.filter((t) => t !== '30d')), limit: rows }),
    kinds: {
      curve: { skill: 'curve-launches', params: (i, s) => defined({ timeperiod: fitTo(s, 'timeperiod', i.timeframe), limit: rowsFor(s, i) }) },
      creator: { skill: 'creator-launches', params: (i, s) => defined({ timeperiod: fitTo(s, 'timeperiod', i.timeframe), limit: rowsFor(s, i) }) },
      catalog: none('launchpad-catalog'),
    },
    defaultKind: 'curve', kindField: 'venue',
  }),
  tool({
    name: 'analyze_bitcoin', title: 'Bitcoin', description: 'Bitcoin mempool, on-chain analytics, BRC-20, runes, bridges or staking.',
    input: z.strictObject({ limit: rows }),
    kinds: {
      mempool: bitcoinKind('bitcoin-mempool-intelligence'), onchain: bitcoinKind('bitcoin-onchain-analytics'), brc20: bitcoinKind('brc20-analytics'),
      runes: bitcoinKind('runes-analytics'), bridges: bitcoinKind('bitcoin-bridge-comparison'), staking: bitcoinKind('bitcoin-staking-analysis'),
    },
    defaultKind: 'mempool',
  }),
  tool({
    name: 'assess_quantum_risk', title: 'Quantum risk', description: 'Post-quantum readiness, migration plan, portfolio exposure or the CRQC proximity benchmark.',
    input: z.strictObject({ walletAddress: evmAddressParam('Wallet, for portfolio.').optional() }),
    kinds: { readiness: quantumKind('pqc-readiness-assessment'), migration: quantumKind('pqc-migration-planner'), portfolio: quantumKind('quantum-portfolio-monitor'), crqc_benchmark: quantumKind('crqc-proximity-benchmark') },
    defaultKind: 'readiness',
  }),
  tool({
    name: 'generate_quantum_key', title: 'Quantum keys', description: 'A quantum-safe wallet, a post-quantum encryption or signing key, or quantum random bytes; keys are returned once and never stored.',
    input: z.strictObject({}),
    kinds: { wallet: withDefaults('quantum-wallet-generation'), encryption: withDefaults('quantum-encryption-key'), signing: withDefaults('quantum-signing-key'), random: withDefaults('quantum-hardware-qrng') },
    defaultKind: 'random', mutating: true,
  }),
  tool({
    name: 'analyze_prediction_markets', title: 'Prediction markets', description: 'Prediction markets, insider activity, spreads, conviction or long-shot fading.',
    input: z.strictObject({ query: predictionQueryParam, limit: rows }),
    kinds: {
      markets: predictionKind('prediction-market-discovery'), insiders: predictionKind('insider-scan'), spread: predictionKind('spread-analysis'),
      conviction: predictionKind('conviction-scanner'), longshot_fade: predictionKind('longshot-fader'),
    },
    defaultKind: 'markets',
  }),
  tool({
    name: 'find_yield', title: 'Yield', description: 'Liquidity-provider yields, fixed yields, yield discovery or liquidations.',
    input: z.strictObject({ chain: z.enum(YIELD_CHAINS).default('base').describe(`A chain, or ${STOCK_CHAIN}; default base.`), limit: rows }),
    kinds: {
      defi: { skill: 'defi-yield-analysis', params: (i, s) => ({ chain: i.chain, limit: rowsFor(s, i) }), widen: YIELD_CHAIN },
      pendle: { skill: 'fixed-yield-analysis', params: (i, s) => ({ chain: i.chain, limit: rowsFor(s, i) }), widen: YIELD_CHAIN },
      discover: { skill: 'yield-discover', params: (i, s) => ({ chain: i.chain, limit: rowsFor(s, i) }), widen: YIELD_CHAIN },
      // The tool's chain and rows; the health-factor threshold and the period take the skill's defaults.
      liquidations: { skill: 'liquidation-monitor', params: (i, s) => ({ chain: i.chain, limit: rowsFor(s, i) }), widen: YIELD_CHAIN },
    },
    defaultKind: 'defi',
  }),
  tool({
    name: 'run_backtest', title: 'Backtest', description: 'Backtest a strategy (moving-average-cross, rsi-reversion, breakout, buy-and-hold) on an asset\'s indexed candles.',
    input: z.strictObject({ strategy: z.string().min(1).max(200).describe('The strategy: moving-average-cross, rsi-reversion, breakout or buy-and-hold.'), asset: tokenParam('Asset symbol or address; default ETH.').optional() }),
    kinds: {
      custom: { skill: 'backtest-custom-strategy', params: (i) => ({ token: i.asset ?? 'ETH', strategy: i.strategy }) },
      standard: { skill: 'strategy-backtest', params: (i) => ({ token: i.asset ?? 'ETH', strategy: i.strategy }) },
      engine: { skill: 'backtest-strategy', params: (i) => ({ token: i.asset ?? 'ETH', strategy: i.strategy }) },
      optimize: none('optimize-strategy-params'),
    },
    defaultKind: 'custom',
  }),
  tool({
    name: 'get_trade_signals', title: 'Trade signals', description: 'Long, short or neutral calls for the most liquid Base tokens, with their evidence.',
    input: z.strictObject({ limit: rows }), kinds: { signals: { skill: 'trade-signals', params: (i, s) => ({ limit: rowsFor(s, i) }) } }, defaultKind: 'signals',
  }),
  tool({
    name: 'analyze_copy_trading', title: 'Copy trading', description: 'The copy-trading leaderboard, or intel on one trader (needs walletAddress).',
    input: z.strictObject({ walletAddress: asIn(copyTradingIntelSkill, 'walletAddress', 'The trader, for intel.'), limit: rows }),
    kinds: {
      leaderboard: { skill: 'copy-trading-leaderboard', params: (i, s) => ({ limit: rowsFor(s, i) }) },
      intel: { skill: 'copy-trading-intel', params: (i) => defined({ walletAddress: i.walletAddress }) },
    },
    defaultKind: 'leaderboard',
  }),
  tool({
    name: 'recommend_allocation', title: 'Allocation', description: 'Portfolio risk allocation, strategy split, gate check or meta-strategy.',
    input: z.strictObject({ context: z.string().max(2_000).optional().describe('What to allocate.') }),
    kinds: { portfolio_risk: none('portfolio-risk-allocation'), strategy_split: none('strategy-allocation-recommendation'), gate_check: none('strategy-gate'), meta_strategy: none('meta-strategy') },
    defaultKind: 'portfolio_risk',
  }),
  tool({
    name: 'check_content_integrity', title: 'Content integrity', description: 'Judge content, deep-scan it, or list vaults.',
    input: z.strictObject({ content: z.string().max(20_000).optional().describe('The content.') }),
    kinds: { judge: none('content-judge'), deep_scan: none('integrity-deep-scan'), vaults: { skill: 'vaults-list', params: () => ({}) } },
    defaultKind: 'judge',
  }),
  tool({
    name: 'get_agent_context', title: 'Agent context', description: 'Context pack for an agent.',
    input: z.strictObject({}), kinds: { context: none('agent-context') }, defaultKind: 'context',
  }),
];

/**
 * The skill answering a kind; one this deployment has turned off throws its refusal (the registry's
 * one rule). A kind that widens a field gets the skill with that field's values added, for this call only.
 */
export function kindSkill(registry: Registry, kind: PaidKind): Skill {
  const skill = registry.resolve(null, { id: kind.skill });
  if (!skill) throw new Error(`paid MCP kind names ${kind.skill}, which the registry does not declare`);
  return kind.widen ? widened(skill, kind.widen) : skill;
}

/** The skill taking `extra` values in those fields besides its own (default and optionality kept: the skill's rule is tried first). */
function widened(skill: Skill, extra: NonNullable<PaidKind['widen']>): Skill {
  const shape = skill.input.shape as Record<string, z.ZodType>;
  const fields = Object.entries(extra).map(([field, values]) => {
    if (!shape[field]) throw new Error(`paid MCP kind widens ${skill.id}.${field}, which the skill does not take`);
    return [field, z.union([shape[field], z.enum(values)])] as const;
  });
  return { ...skill, input: skill.input.extend(Object.fromEntries(fields)) };
}

/** A kind's price: its skill's catalogue price (a kind names registry skills only). */
export function kindPrice(registry: Registry, kind: PaidKind): bigint {
  const skill = registry.byId(kind.skill);
  if (!skill) throw new Error(`paid MCP kind names ${kind.skill}, which the registry does not declare`);
  return skill.catalogPriceRange.min;
}

/** "0.65", or "0.35-2.00" across kinds. */
export function toolPriceUsd(registry: Registry, tool: PaidTool): string {
  const prices = Object.values(tool.kinds).map((k) => kindPrice(registry, k));
  const [min, max] = [prices.reduce((a, b) => (b < a ? b : a)), prices.reduce((a, b) => (b > a ? b : a))];
  return min === max ? atomicToUsdString(min) : `${atomicToUsdString(min)}-${atomicToUsdString(max)}`;
}

/** The kind a call asks for. */
export function kindOfCall(tool: PaidTool, input: Input): string {
  const value = input[tool.kindField ?? 'kind'];
  return typeof value === 'string' && value in tool.kinds ? value : tool.defaultKind;
}
