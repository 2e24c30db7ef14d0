/**
 * The tokenized-stock universe of one chain, read from the chain at one block: the issuers its
 * directory registers, every token each issuer lists (ERC-8056 multiplier, pending change, supply,
 * pause state, owner) with its latest reserve attestation; and, on the chain that carries them, the
 * underlyings' price feeds (Chainlink AggregatorV3). A token is genuine only when a registered
 * issuer lists it and names itself as its issuer: the directory is the issuers' registry.
 */
import { formatUnits, getAddress, type Address } from 'viem';
import type { ConnectedChain } from '../../chain/runtime.js';
import { STOCK_DIRECTORIES, UI_MULTIPLIER_ONE } from '../../chain/stocks.js';
import { aggregatorV3Abi, feedDirectoryAbi, issuerDirectoryAbi, stockIssuerAbi, stockTokenAbi } from './abi.js';

export interface StockIssuer {
  readonly address: Address;
  readonly name: string;
  readonly tokens: readonly Address[];
}

export interface StockToken {
  readonly chain: string;
  readonly address: Address;
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
  /** The ticker of the share it wraps (AAPL). */
  readonly underlying: string;
  readonly issuer: { readonly address: Address; readonly name: string };
  /** ERC-8056 UI multiplier in effect at the block read (1 = one raw token is one share). */
  readonly multiplier: number;
  /** A change scheduled and not yet in effect. */
  readonly pending: { readonly multiplier: number; readonly effectiveAt: number } | null;
  readonly totalSupplyRaw: bigint;
  /** Raw supply times the multiplier: the shares the tokens stand for. */
  readonly supplyShares: number;
  readonly paused: boolean;
  readonly owner: Address | null;
  readonly attestation: { readonly reserveShares: number; readonly asOf: number; readonly attestedAt: number } | null;
}

export interface StockFeed {
  readonly underlying: string;
  readonly feed: Address;
  readonly description: string;
  /** USD per share, as the feed's latest round says. */
  readonly priceUsd: number;
  readonly roundId: bigint;
  /** Unix seconds of the latest round. */
  readonly updatedAt: number;
  readonly decimals: number;
}

export interface StockUniverse {
  readonly chain: ConnectedChain;
  readonly block: number;
  readonly issuers: readonly StockIssuer[];
  readonly tokens: readonly StockToken[];
}

const multiplierOf = (raw: bigint) => Number(raw) / Number(UI_MULTIPLIER_ONE);

/** Whether this chain has a directory of stock issuers to read (a chain without one has no stock tokens here). */
export function hasStockDirectory(chain: ConnectedChain): boolean {
  return Boolean(STOCK_DIRECTORIES[chain.name]?.issuers);
}

/** The issuers and their tokens on `chain` at `block`. */
export async function readStockUniverse(chain: ConnectedChain, block: number): Promise<StockUniverse> {
  const directory = STOCK_DIRECTORIES[chain.name]?.issuers;
  if (!directory) return { chain, block, issuers: [], tokens: [] };
  const blockNumber = BigInt(block);
  const client = chain.client;
  const issuerAddresses = await client.readContract({ address: directory, abi: issuerDirectoryAbi, functionName: 'issuers', blockNumber });
  const issuerReads = await client.multicall({
    blockNumber, allowFailure: false,
    contracts: issuerAddresses.flatMap((address) => [
      { address, abi: stockIssuerAbi, functionName: 'name' } as const,
      { address, abi: stockIssuerAbi, functionName: 'tokens' } as const,
    ]),
  });
  const issuers: StockIssuer[] = issuerAddresses.map((address, i) => ({
    address: getAddress(address), name: issuerReads[2 * i] as string, tokens: (issuerReads[2 * i + 1] as readonly Address[]).map((t) => getAddress(t)),
  }));
  const listed = issuers.flatMap((issuer) => issuer.tokens.map((token) => ({ issuer, token })));
  const fields = ['name', 'symbol', 'decimals', 'totalSupply', 'uiMultiplier', 'newUIMultiplier', 'effectiveAt', 'issuer', 'underlying', 'owner', 'paused'] as const;
  const tokenReads = await client.multicall({
    blockNumber, allowFailure: true,
    contracts: listed.flatMap(({ issuer, token }) => [
      ...fields.map((functionName) => ({ address: token, abi: stockTokenAbi, functionName }) as const),
      { address: issuer.address, abi: stockIssuerAbi, functionName: 'attestation', args: [token] } as const,
    ]),
  });
  const width = fields.length + 1;
  const tokens: StockToken[] = [];
  listed.forEach(({ issuer, token }, i) => {
    const at = (k: number) => tokenReads[i * width + k]!;
    const value = <T>(k: number): T | null => (at(k).status === 'success' ? (at(k).result as T) : null);
    const [name, symbol, decimals, supply, multiplier, next, effectiveAt, issuerOf, underlying, owner, paused] = fields.map((_, k) => value<unknown>(k));
    // A token that does not name the issuer listing it as its own is not that issuer's: left out.
    if (typeof issuerOf !== 'string' || getAddress(issuerOf) !== issuer.address) return;
    if (typeof decimals !== 'number' || typeof supply !== 'bigint' || typeof multiplier !== 'bigint') return;
    const attestation = value<readonly [bigint, bigint, bigint]>(fields.length);
    const effective = typeof effectiveAt === 'bigint' ? Number(effectiveAt) : 0;
    const supplyUnits = Number(formatUnits(supply, decimals));
    tokens.push({
      chain: chain.name, address: token, symbol: String(symbol ?? ''), name: String(name ?? ''), decimals,
      underlying: String(underlying ?? '').toUpperCase(), issuer: { address: issuer.address, name: issuer.name },
      multiplier: multiplierOf(multiplier),
      pending: typeof next === 'bigint' && next !== multiplier && effective > 0 ? { multiplier: multiplierOf(next), effectiveAt: effective } : null,
      totalSupplyRaw: supply, supplyShares: supplyUnits * multiplierOf(multiplier),
      paused: paused === true, owner: typeof owner === 'string' ? getAddress(owner) : null,
      attestation: attestation && attestation[2] > 0n
        ? { reserveShares: Number(formatUnits(attestation[0], 18)), asOf: Number(attestation[1]), attestedAt: Number(attestation[2]) }
        : null,
    });
  });
  return { chain, block, issuers, tokens };
}

/** Every underlying's feed on `chain` (the one carrying the feed directory) at `block`. */
export async function readStockFeeds(chain: ConnectedChain, block: number): Promise<Map<string, StockFeed>> {
  const directory = STOCK_DIRECTORIES[chain.name]?.feeds;
  const feeds = new Map<string, StockFeed>();
  if (!directory) return feeds;
  const blockNumber = BigInt(block);
  const client = chain.client;
  const underlyings = await client.readContract({ address: directory, abi: feedDirectoryAbi, functionName: 'underlyings', blockNumber });
  const addresses = await client.multicall({
    blockNumber, allowFailure: false,
    contracts: underlyings.map((u) => ({ address: directory, abi: feedDirectoryAbi, functionName: 'feed', args: [u] }) as const),
  });
  const reads = await client.multicall({
    blockNumber, allowFailure: true,
    contracts: addresses.flatMap((address) => [
      { address, abi: aggregatorV3Abi, functionName: 'decimals' } as const,
      { address, abi: aggregatorV3Abi, functionName: 'description' } as const,
      { address, abi: aggregatorV3Abi, functionName: 'latestRoundData' } as const,
    ]),
  });
  underlyings.forEach((underlying, i) => {
    const [decimals, description, round] = [reads[3 * i]!, reads[3 * i + 1]!, reads[3 * i + 2]!];
    if (decimals.status !== 'success' || round.status !== 'success') return;
    const [roundId, answer, , updatedAt] = round.result as readonly [bigint, bigint, bigint, bigint, bigint];
    // A feed that never answered (round 0, or a non-positive price) prices nothing.
    if (roundId === 0n || answer <= 0n) return;
    feeds.set(underlying.toUpperCase(), {
      underlying: underlying.toUpperCase(), feed: getAddress(addresses[i]!), description: description.status === 'success' ? String(description.result) : underlying,
      priceUsd: Number(formatUnits(answer, Number(decimals.result))), roundId, updatedAt: Number(updatedAt), decimals: Number(decimals.result),
    });
  });
  return feeds;
}
