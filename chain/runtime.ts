/**
 * The chains this deployment can read: one viem client per configured EVM chain, with where
 * it comes from (`embedded` devnet or an `rpc` URL). Chains not configured are unavailable,
 * and every skill that needs one answers 503 `chain_unavailable` without charging.
 */
import { createPublicClient, defineChain, http, type Chain, type PublicClient } from 'viem';
import type { NodeStatus } from './anvil.js';
import { CHAINS, MULTICALL3_ADDRESS, type ChainName, type EvmChainName, type EvmChainSpec } from './chains.js';
import { RpcOutcomes } from './rpc-outcomes.js';

/**
 * One JSON-RPC read's limit, tried at most twice: a hung node fails a read in about 10 s, inside
 * the catalogue's time targets (30 s for most chain-reading services), instead of hanging the request.
 */
export const CHAIN_RPC_TIMEOUT_MS = 5_000;
export const CHAIN_RPC_RETRIES = 1;

export type ChainSourceKind = 'embedded' | 'rpc';

export interface ConnectedChain {
  readonly name: EvmChainName;
  readonly spec: EvmChainSpec;
  readonly chain: Chain;
  readonly rpcUrl: string;
  readonly source: ChainSourceKind;
  readonly client: PublicClient;
  /** When the node last answered a request, and last left one unanswered (health reads it). */
  readonly outcomes?: RpcOutcomes;
  /** An embedded chain's node as its supervisor sees it (restarts after it died). */
  readonly node?: () => NodeStatus;
}

export class ChainUnavailableError extends Error {
  constructor(readonly chain: ChainName) {
    super(`chain "${chain}" is not indexed by this deployment`);
  }
}

export function viemChain(name: EvmChainName, rpcUrl: string): Chain {
  const spec = CHAINS[name];
  return defineChain({
    id: spec.chainId,
    name: spec.title,
    nativeCurrency: { name: spec.nativeSymbol, symbol: spec.nativeSymbol, decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
  });
}

/** Largest JSON-RPC answer read (a batch of blocks with their transactions). */
const MAX_RPC_RESPONSE_BYTES = 128 * 1024 * 1024;

export class ChainRuntime {
  private readonly chains = new Map<ChainName, ConnectedChain>();

  add(name: EvmChainName, rpcUrl: string, source: ChainSourceKind, node?: () => NodeStatus): ConnectedChain {
    const chain = viemChain(name, rpcUrl);
    const outcomes = new RpcOutcomes();
    const client = createPublicClient({
      chain,
      // Concurrent reads share one HTTP round trip; the local devnet is polled briskly.
      // A batch of full blocks (transaction senders) outgrows viem's 10 MB default on a busy chain.
      transport: http(rpcUrl, { batch: { wait: 0 }, retryCount: CHAIN_RPC_RETRIES, timeout: CHAIN_RPC_TIMEOUT_MS, maxResponseBodySize: MAX_RPC_RESPONSE_BYTES, fetchFn: outcomes.fetch }),
      batch: { multicall: { wait: 0 } },
      pollingInterval: source === 'embedded' ? 50 : 2_000,
    }) as PublicClient;
    const connected: ConnectedChain = { name, spec: CHAINS[name], chain, rpcUrl, source, client, outcomes, ...(node && { node }) };
    this.chains.set(name, connected);
    return connected;
  }

  /** The connected chain, or ChainUnavailableError. */
  get(name: ChainName): ConnectedChain {
    const chain = this.chains.get(name);
    if (!chain) throw new ChainUnavailableError(name);
    return chain;
  }

  list(): ConnectedChain[] {
    return [...this.chains.values()];
  }
}
