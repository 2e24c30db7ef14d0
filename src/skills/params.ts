/** Parameter shapes shared by skills (spec 4.2 "common parameter shapes"), defined once. */
import { z } from 'zod';
import { getAddress } from 'viem';
import { CHAIN_NAMES, type ChainName } from '../chain/chains.js';

/** `chain`: one of `allowed` (all eight by default), with the operation's default. */
export function chainParam<const C extends readonly [ChainName, ...ChainName[]]>(defaultChain: C[number], allowed: C = CHAIN_NAMES as unknown as C) {
  return z.enum(allowed).default(defaultChain as never).describe(`Chain: one of ${allowed.join(', ')}; default ${defaultChain}.`);
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
