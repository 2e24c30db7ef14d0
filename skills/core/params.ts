/** Parameter shapes shared by skills (docs/skills.md, "HTTP data operations"), defined once. */
import { z } from 'zod';
import { getAddress } from 'viem';
import { CHAIN_NAMES, DEX_CHAIN_NAMES, EVM_CHAIN_NAMES, type ChainName } from '../../chain/chains.js';
import { PERIOD_NAMES, type Period } from '../data/periods.js';

/** The spec's seven EVM chain values (its chain list without solana; never the stock chain). */
export const EVM_CHAINS = EVM_CHAIN_NAMES as unknown as readonly [ChainName, ...ChainName[]];

/** The spec's EVM chains with DEXes to index (all but ZKsync): where holdings and pools can be read. */
export const DEX_CHAINS = DEX_CHAIN_NAMES as unknown as readonly [ChainName, ...ChainName[]];

/** The five chains the spec's token-analysis, wallet and MEV-protection operations take, written once. */
export const FIVE_CHAINS = ['ethereum', 'base', 'bsc', 'arbitrum', 'polygon'] as const satisfies readonly ChainName[];

/** `chain`: one of `allowed` (the spec's eight by default), with the operation's default. */
export function chainParam<const C extends readonly [ChainName, ...ChainName[]]>(defaultChain: C[number], allowed: C = CHAIN_NAMES as unknown as C) {
  return z.enum(allowed).default(defaultChain as never).describe(`Chain: one of ${allowed.join(', ')}; default ${defaultChain}.`);
}

/** `chain` of an operation the spec scopes to one chain: optional, and only that value. */
export function onlyChainParam<const C extends ChainName>(only: C) {
  return chainParam(only, [only] as [C]);
}

/** A row cap: bounds and default of a `limit`, written once where several inputs share it. */
export interface RowCap {
  readonly min: number;
  readonly max: number;
  readonly default: number;
}

/** Free tool rows 1-25 (default 10); inflow, hype and the launchpad radar 1-15 (default 8). */
export const FREE_ROWS = { min: 1, max: 25, default: 10 } as const satisfies RowCap;
export const NARROW_ROWS = { min: 1, max: 15, default: 8 } as const satisfies RowCap;
/** A paid tool's `limit`, 1-100, default 10 (each kind's skill may allow fewer: clamped to it). */
export const TOOL_ROWS = { min: 1, max: 100, default: 10 } as const satisfies RowCap;

/** `limit` of a tool result: the cap applied to every list in it. */
export function rowsParam(r: RowCap) {
  return z.number().int().min(r.min).max(r.max).default(r.default).describe(`Rows per list, ${r.min}-${r.max}; default ${r.default}.`);
}

/** `limit`: integer rows cap. */
export function limitParam(min: number, max: number, defaultValue: number) {
  return z.number().int().min(min).max(max).default(defaultValue).describe(`Rows to return, ${min}-${max}; default ${defaultValue}.`);
}

/** An EVM address, returned checksummed. */
export function evmAddressParam(what: string) {
  return z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be 0x followed by 40 hex characters')
    .transform((a) => getAddress(a))
    .describe(what);
}

/** The paid tools' `timeframe` (the spec's 1h-30d), also the windows skills sold under it read. */
export const TOOL_TIMEFRAMES = ['1h', '4h', '24h', '7d', '30d'] as const satisfies readonly Period[];

/** `timeperiod`: one of the spec's periods (all seven by default), with the operation's default. */
export function periodParam<const P extends readonly [Period, ...Period[]]>(defaultPeriod: P[number], allowed: P = PERIOD_NAMES as unknown as P) {
  return z.enum(allowed).default(defaultPeriod as never).describe(`Time period: one of ${allowed.join(', ')}; default ${defaultPeriod}.`);
}

/** A token as an EVM contract address or a canonical symbol (BTC, ETH, ADA, BNB, DOT, ...). */
export function tokenParam(what: string) {
  return z
    .string()
    .regex(/^(0x[0-9a-fA-F]{40}|[A-Za-z0-9]{2,15})$/, 'must be 0x followed by 40 hex characters, or a token symbol of 2-15 letters and digits')
    .describe(what);
}

/**
 * The chain-wide list shape several operations share ("same shape as whaleintel"):
 * chain (8 values, default base), limit 1-500 (default 50), timeperiod (default 24h).
 */
export const chainListInput = z.strictObject({
  chain: chainParam('base'),
  limit: limitParam(1, 500, 50),
  timeperiod: periodParam('24h'),
});

/** A chain ranking narrowed to one token when `tokenAddress` is given (a dossier's flows). */
export const chainListForTokenInput = chainListInput.extend({
  tokenAddress: tokenParam('Only moves of this token (0x address or symbol); all tokens when absent.').optional(),
});

/** One token on one of the five chains the token-analysis operations cover, default base. */
export const tokenOnChainInput = z.strictObject({
  tokenAddress: tokenParam('Token contract address (0x + 40 hex) or symbol.'),
  chain: chainParam('base', FIVE_CHAINS),
});
