/**
 * ERC-20 metadata (symbol, name, decimals), read once per token with multicall and cached
 * in process: it never changes for a deployed token.
 */
import type { Address } from 'viem';
import type { ConnectedChain } from '../../chain/runtime.js';
import { erc20ReadAbi } from '../../chain/abis.js';

export interface TokenInfo {
  readonly address: Address;
  readonly symbol: string | null;
  readonly name: string | null;
  readonly decimals: number | null;
}

const cache = new Map<string, TokenInfo>();

export async function tokenInfos(chain: ConnectedChain, addresses: readonly Address[]): Promise<Map<Address, TokenInfo>> {
  const key = (a: Address) => `${chain.spec.chainId}:${chain.rpcUrl}:${a.toLowerCase()}`;
  const missing = [...new Set(addresses)].filter((a) => !cache.has(key(a)));
  if (missing.length) {
    const calls = missing.flatMap((address) =>
      (['symbol', 'name', 'decimals'] as const).map((functionName) => ({ address, abi: erc20ReadAbi, functionName })),
    );
    const results = await chain.client.multicall({ contracts: calls, allowFailure: true });
    missing.forEach((address, i) => {
      const [symbol, name, decimals] = results.slice(i * 3, i * 3 + 3);
      cache.set(key(address), {
        address,
        symbol: symbol?.status === 'success' ? String(symbol.result) : null,
        name: name?.status === 'success' ? String(name.result) : null,
        decimals: decimals?.status === 'success' ? Number(decimals.result) : null,
      });
    });
  }
  return new Map(addresses.map((a) => [a, cache.get(key(a))!]));
}
