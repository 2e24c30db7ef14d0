/**
 * The embedded devnet: one anvil node per EVM chain, each carrying the contracts Sibyl and
 * x402 clients expect at their canonical addresses (USDC with EIP-3009, the wrapped native
 * token, a Uniswap-V2-compatible factory, Multicall3), the genesis market's tokens and pools,
 * and the first ten demo accounts funded with ETH and USDC.
 */
import {
  createTestClient, encodeFunctionData, http, parseEther, parseUnits, publicActions, walletActions,
  type Address, type Hex,
} from 'viem';
import { basename } from 'node:path';
import { DemoToken, EmbeddedUSDC, Multicall3, ServiceToken, SibylV2Factory, SibylV2Pair, WrappedNative } from './artifacts/index.js';
import { PortTakenError, portIsFreeOrReclaimed, startAnvil, type AnvilNode, type NodeStatus } from './anvil.js';
import { assertSibylDevnet, writeGenesisMarker } from './genesis-marker.js';
import { demoAccount } from './accounts.js';
import { CHAINS, EMBEDDED_SERVICE_TOKEN, MULTICALL3_ADDRESS, PAYMENT_CHAIN, type EvmChainName } from './chains.js';
import { writeHexResult } from './hex-result.js';
import {
  DEMO_ACCOUNT_COUNT, DEMO_USDC_PER_ACCOUNT, GENESIS, GENESIS_TREASURY, SERVICE_TOKEN_PER_DEMO_ACCOUNT, SERVICE_TOKEN_SUPPLY, openingPriceUsd,
  type GenesisMarket,
} from './genesis.js';

export interface GenesisToken {
  readonly symbol: string;
  readonly address: Address;
  readonly decimals: number;
  readonly priceUsd: number;
  /** Raw units minted (to the treasury) at genesis; absent for USDC and the wrapped native. */
  readonly supply?: bigint;
}

/** What genesis put on a chain; `USDC` and `NATIVE` (the wrapped native) are always present. */
export interface GenesisDeployment {
  readonly tokens: ReadonlyMap<string, GenesisToken>;
  readonly pools: readonly { readonly pair: Address; readonly a: string; readonly b: string }[];
}

export interface DevnetChain {
  readonly name: EvmChainName;
  readonly chainId: number;
  readonly rpcUrl: string;
  readonly genesis: GenesisDeployment;
  /** The node's process and supervision (restarts after it died, when the devnet persists state). */
  readonly node?: () => NodeStatus;
  /** The state file the node was loaded from, when it was restored (the first of a chain's offered states that loaded). */
  readonly restoredFrom?: string;
}

export interface Devnet {
  readonly chains: readonly DevnetChain[];
  stop(): Promise<void>;
}

export interface DevnetOptions {
  chains: readonly EvmChainName[];
  /** First RPC port; chains take consecutive ports in the order given. 0 picks free ports. */
  basePort: number;
  /**
   * A chain whose port is taken: `fail` (default) stops with PortTakenError before any node is
   * spawned; `free-port` runs it on a free port instead (reported through onProgress). Either
   * way a node Sibyl did not start is never used.
   */
  ifPortTaken?: 'fail' | 'free-port';
  /** Unix seconds of every chain's genesis block (a world backfilling history starts in the past). */
  genesisTimestamp?: number;
  /** Include transactions in the order they arrive, not by fee (a simulator needs exact order). */
  fifo?: boolean;
  /**
   * Chains to reload from a state dump (a gzip file of anvil's JSON state) instead of deploying
   * genesis: a cached world. `fallbackStateFile` is loaded when `stateFile` does not (cut, corrupt).
   */
  restore?: Partial<Record<EvmChainName, RestoredChain>>;
  onProgress?: (message: string) => void;
  /**
   * Dump every chain's state this often and restart a chain that dies from its last dump, on the
   * same port: a restart loses at most this many seconds of blocks. Unset: nodes are not restarted.
   */
  stateIntervalSeconds?: number | ((name: EvmChainName) => number);
  /** Called after a chain's node was restarted, with the state it was restarted from. */
  onRestart?: (name: EvmChainName, from: string) => void;
  /**
   * States (gzipped, newest first) a node restarted after a death loads when its own last dump
   * is missing or does not load (a world's checkpoint, its cache).
   */
  restartStates?: (name: EvmChainName) => readonly string[];
}

export interface RestoredChain {
  readonly stateFile: string;
  readonly fallbackStateFile?: string;
  readonly genesis: GenesisDeployment;
}

export async function startDevnet(options: DevnetOptions): Promise<Devnet> {
  if (options.ifPortTaken !== 'free-port' && options.basePort !== 0) {
    for (const [i, name] of options.chains.entries()) {
      if (!(await portIsFreeOrReclaimed(options.basePort + i, options.onProgress))) throw new PortTakenError(options.basePort + i, name);
    }
  }
  const nodes: AnvilNode[] = [];
  try {
    // Every chain's start settles before a failure is thrown: a node still starting when another
    // failed would otherwise be pushed after the clean-up below and outlive the start.
    const chains = await settleAll(
      options.chains.map(async (name, i) => {
        const spec = CHAINS[name];
        const started = Date.now();
        const saved = options.restore?.[name];
        const port = options.basePort === 0 ? 0 : options.basePort + i;
        if (saved) {
          const { node, from } = await startRestoredNode(name, port, options, saved);
          nodes.push(node);
          options.onProgress?.(`${name}: chain ${spec.chainId} at ${node.rpcUrl}, state loaded in ${Date.now() - started} ms`);
          return { name, chainId: spec.chainId, rpcUrl: node.rpcUrl, genesis: saved.genesis, node: node.status, restoredFrom: from };
        }
        const node = await startChainNode(name, port, options);
        nodes.push(node);
        const genesis = await deployGenesis(name, node.rpcUrl);
        await writeGenesisMarker(node.rpcUrl, spec.chainId);
        options.onProgress?.(`${name}: chain ${spec.chainId} at ${node.rpcUrl}, genesis deployed in ${Date.now() - started} ms`);
        return { name, chainId: spec.chainId, rpcUrl: node.rpcUrl, genesis, node: node.status };
      }),
    );
    // What will be served as each embedded chain is checked as any node would be: chain id and marker.
    await Promise.all(chains.map((c) => assertSibylDevnet(c.rpcUrl, c.chainId, c.name)));
    return { chains, stop: async () => void (await Promise.all(nodes.map((n) => n.stop()))) };
  } catch (err) {
    await Promise.all(nodes.map((n) => n.stop()));
    throw err;
  }
}

/** Promise.all that waits for every promise to settle, then rejects with the first failure. */
async function settleAll<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
}

/** A restored chain's node from its state, or from its fallback state when that one does not load. */
async function startRestoredNode(
  name: EvmChainName, port: number, options: DevnetOptions, saved: RestoredChain,
): Promise<{ node: AnvilNode; from: string }> {
  try {
    return { node: await startChainNode(name, port, options, saved.stateFile), from: saved.stateFile };
  } catch (err) {
    if (err instanceof PortTakenError || !saved.fallbackStateFile) throw err;
    options.onProgress?.(`${name}: the state ${basename(saved.stateFile)} did not load (${(err as Error).message.split('\n')[0]}); loading ${basename(saved.fallbackStateFile)} instead`);
    return { node: await startChainNode(name, port, options, saved.fallbackStateFile), from: saved.fallbackStateFile };
  }
}

/** The node's whole state, gzipped, into `path`, for a cached world (anvil_dumpState answers gzip in hex). */
export async function dumpStateTo(rpcUrl: string, path: string): Promise<void> {
  const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_dumpState', params: [] }) });
  if (!res.ok || !res.body) throw new Error(`anvil_dumpState: HTTP ${res.status}`);
  // Streamed: decoding tens of MB of hex at once held the event loop for over a second.
  await writeHexResult(res.body as unknown as AsyncIterable<Uint8Array>, path, 'anvil_dumpState');
}

async function deployGenesis(name: EvmChainName, rpcUrl: string): Promise<GenesisDeployment> {
  const spec = CHAINS[name];
  const market: GenesisMarket = GENESIS[name] ?? { tokens: [], pools: [] };
  const deployer = demoAccount(0).address;
  const treasury = GENESIS_TREASURY;
  const client = createTestClient({ mode: 'anvil', transport: http(rpcUrl), account: deployer })
    .extend(publicActions)
    .extend(walletActions);

  const send = async (to: Address, data: Hex, value = 0n, from: Address = deployer) => {
    const hash = await client.sendTransaction({ account: from, chain: null, to, data, value });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== 'success') throw new Error(`genesis transaction to ${to} reverted on ${name}`);
    return receipt;
  };
  const call = (address: Address, abi: any, functionName: string, args: readonly unknown[] = [], value = 0n) =>
    send(address, encodeFunctionData({ abi, functionName, args } as any), value);
  /** The same, sent by the treasury (impersonated: no key exists). */
  const callAsTreasury = (address: Address, abi: any, functionName: string, args: readonly unknown[] = []) =>
    send(address, encodeFunctionData({ abi, functionName, args } as any), 0n, treasury);

  // Canonical contracts: runtime code placed at the real chain's addresses, then initialised.
  await client.setBalance({ address: deployer, value: parseEther('1000000000000') });
  await client.setBalance({ address: treasury, value: parseEther('1000') });
  await client.impersonateAccount({ address: treasury });
  await client.setCode({ address: MULTICALL3_ADDRESS, bytecode: Multicall3.deployedBytecode });
  await client.setCode({ address: spec.usdc, bytecode: EmbeddedUSDC.deployedBytecode });
  await call(spec.usdc, EmbeddedUSDC.abi, 'initialize', [deployer]);
  await client.setCode({ address: spec.wrappedNative, bytecode: WrappedNative.deployedBytecode });
  await call(spec.wrappedNative, WrappedNative.abi, 'initialize', [spec.wrappedNativeName, spec.wrappedNativeSymbol]);

  for (let i = 0; i < DEMO_ACCOUNT_COUNT; i++) {
    await call(spec.usdc, EmbeddedUSDC.abi, 'mint', [demoAccount(i).address, DEMO_USDC_PER_ACCOUNT * 10n ** 6n]);
  }

  const tokens = new Map<string, GenesisToken>([
    ['USDC', { symbol: 'USDC', address: spec.usdc, decimals: 6, priceUsd: 1 }],
    ['NATIVE', { symbol: spec.wrappedNativeSymbol, address: spec.wrappedNative, decimals: 18, priceUsd: openingPriceUsd(name, 'NATIVE') }],
  ]);
  const pools: { pair: Address; a: string; b: string }[] = [];
  const dex = spec.dexes[0];
  if (!dex) {
    if (name === PAYMENT_CHAIN) await deployServiceToken(client, call, callAsTreasury);
    return { tokens, pools };
  }
  for (const d of spec.dexes) await client.setCode({ address: d.factory, bytecode: SibylV2Factory.deployedBytecode });

  for (const t of market.tokens) {
    const hash = await client.deployContract({
      account: deployer, chain: null, abi: DemoToken.abi, bytecode: DemoToken.bytecode,
      args: [t.name, t.symbol, t.decimals, parseUnits(String(t.supply), t.decimals), treasury],
    });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    tokens.set(t.symbol, { symbol: t.symbol, address: receipt.contractAddress!, decimals: t.decimals, priceUsd: openingPriceUsd(name, t.symbol), supply: parseUnits(String(t.supply), t.decimals) });
  }

  for (const [a, b, liquidityUsd] of market.pools) {
    const ta = tokens.get(a)!;
    const tb = tokens.get(b)!;
    await call(dex.factory, SibylV2Factory.abi, 'createPair', [ta.address, tb.address]);
    const pair = (await client.readContract({
      address: dex.factory, abi: SibylV2Factory.abi, functionName: 'getPair', args: [ta.address, tb.address],
    })) as Address;
    for (const [symbol, t] of [[a, ta], [b, tb]] as const) {
      const amount = parseUnits((liquidityUsd / 2 / t.priceUsd).toFixed(Math.min(t.decimals, 6)), t.decimals);
      if (symbol === 'USDC') await call(spec.usdc, EmbeddedUSDC.abi, 'mint', [pair, amount]);
      else if (symbol === 'NATIVE') {
        await call(spec.wrappedNative, WrappedNative.abi, 'deposit', [], amount);
        await call(spec.wrappedNative, WrappedNative.abi, 'transfer', [pair, amount]);
      } else await callAsTreasury(t.address, DemoToken.abi, 'transfer', [pair, amount]);
    }
    // The opening liquidity is the treasury's (protocol-owned): it holds the LP tokens.
    await call(pair, SibylV2Pair.abi, 'mint', [treasury]);
    pools.push({ pair, a, b });
  }
  if (name === PAYMENT_CHAIN) await deployServiceToken(client, call, callAsTreasury);
  return { tokens, pools };
}

/** The service token at its fixed address; the treasury holds it and gives demo accounts 1-9 some. Written last, so earlier genesis addresses do not move. */
async function deployServiceToken(
  client: { setCode(args: { address: Address; bytecode: Hex }): Promise<void> },
  call: (address: Address, abi: any, functionName: string, args?: readonly unknown[]) => Promise<unknown>,
  callAsTreasury: (address: Address, abi: any, functionName: string, args?: readonly unknown[]) => Promise<unknown>,
): Promise<void> {
  await client.setCode({ address: EMBEDDED_SERVICE_TOKEN, bytecode: ServiceToken.deployedBytecode });
  await call(EMBEDDED_SERVICE_TOKEN, ServiceToken.abi, 'initialize', [GENESIS_TREASURY, parseEther(SERVICE_TOKEN_SUPPLY.toString())]);
  for (let i = 1; i < DEMO_ACCOUNT_COUNT; i++) {
    await callAsTreasury(EMBEDDED_SERVICE_TOKEN, ServiceToken.abi, 'transfer', [demoAccount(i).address, parseEther(SERVICE_TOKEN_PER_DEMO_ACCOUNT.toString())]);
  }
}

/** A chain's node on `port`; when that port is taken and moving is allowed, on a free one. */
async function startChainNode(name: EvmChainName, port: number, options: DevnetOptions, loadStatePath?: string): Promise<AnvilNode> {
  const spec = CHAINS[name];
  const interval = typeof options.stateIntervalSeconds === 'function' ? options.stateIntervalSeconds(name) : options.stateIntervalSeconds;
  const persist = interval !== undefined && {
    persist: { intervalSeconds: interval, onRestart: (from: string) => options.onRestart?.(name, from), fallbackStates: () => options.restartStates?.(name) ?? [] },
  };
  const anvil = {
    chainId: spec.chainId, genesisTimestamp: options.genesisTimestamp, order: options.fifo ? ('fifo' as const) : undefined, onProgress: options.onProgress,
    ...(loadStatePath && { loadStatePath }), ...persist,
  };
  try {
    return await startAnvil({ ...anvil, port });
  } catch (err) {
    if (!(err instanceof PortTakenError)) throw err;
    if (options.ifPortTaken !== 'free-port') throw new PortTakenError(port, name);
    const node = await startAnvil({ ...anvil, port: 0 });
    options.onProgress?.(`${name}: port ${port} is in use by a process Sibyl did not start; chain ${spec.chainId} runs at ${node.rpcUrl} instead`);
    return node;
  }
}
