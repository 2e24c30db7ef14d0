/**
 * The world's opening on a chain's genesis: the genesis tokens and pools it trades, a router per
 * DEX, the flash lender, the behaviours' own contracts, a funded cast, the genesis supply handed
 * out, and (where the chain has one) a second DEX with shallower copies of the main pools (so
 * prices diverge and arbitrage exists).
 */
import { encodeFunctionData, parseEther, parseUnits, type Address } from 'viem';
import { EmbeddedUSDC, FlashLoanPool, SibylV2Factory, SibylV2Router, WrappedNative } from '../chain/artifacts/index.js';
import { CHAINS, EMBEDDED_FLASH_LENDER } from '../chain/chains.js';
import type { GenesisDeployment } from '../chain/devnet.js';
import { GENESIS_TREASURY } from '../chain/genesis.js';
import { fundCast, labelCast } from './actors.js';
import type { MarketBehaviour, MarketHost } from './behaviours/behaviour.js';
import { FAR_DEADLINE, GAS } from './gas.js';
import { referenceAssetOf } from './reference.js';
import { distributeSupply } from './supply.js';

export interface SetupLabels {
  contracts: { routers: Address[]; flashLoanPool?: Address };
}

export function emptySetupLabels(): SetupLabels {
  return { contracts: { routers: [] } };
}

/** What setting up needs of the world beside what its behaviours get. */
export interface SetupHost extends MarketHost {
  addRouter(router: Address): void;
  /** Sends everything queued, in order, and mines it into one block at `timestamp`. */
  mineBlock(timestamp: number): Promise<void>;
}

const PAIR_TOKENS_ABI = [
  { type: 'function', name: 'token0', stateMutability: 'view', inputs: [], outputs: [{ type: 'address' }] },
  { type: 'function', name: 'token1', stateMutability: 'view', inputs: [], outputs: [{ type: 'address' }] },
] as const;

/** Mines the opening's two blocks, at the history's first two seconds. */
export async function openMarket(host: SetupHost, genesis: GenesisDeployment, behaviours: readonly MarketBehaviour[]): Promise<void> {
  const spec = CHAINS[host.chain];
  const treasury = GENESIS_TREASURY;
  const quoteOf = (symbol: string) => {
    if (symbol === 'USDC') return spec.wrappedNative;
    const pool = genesis.pools.find((p) => p.a === symbol || p.b === symbol);
    const other = pool ? (pool.a === symbol ? pool.b : pool.a) : 'USDC';
    return genesis.tokens.get(other)!.address;
  };
  for (const t of genesis.tokens.values()) {
    const quote = quoteOf(t.symbol === spec.wrappedNativeSymbol ? 'NATIVE' : t.symbol);
    const asset = referenceAssetOf(t.symbol);
    host.addToken({ symbol: t.symbol, address: t.address, decimals: t.decimals, quote, kind: 'genesis', ...(asset && { asset }), regime: 0, regimeUntil: 0, tradeable: true });
  }
  for (const p of genesis.pools) {
    const a = genesis.tokens.get(p.a)!.address;
    const b = genesis.tokens.get(p.b)!.address;
    const [token0, token1] = a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a];
    host.market.add({ pair: p.pair, dex: 0, token0, token1, r0: 0n, r1: 0n });
  }

  for (const dex of spec.dexes) host.addRouter(host.deploy(SibylV2Router.abi, SibylV2Router.bytecode, [dex.factory]));
  // The lender sits at the address the chain catalogue announces for embedded chains.
  const flashPool = EMBEDDED_FLASH_LENDER;
  await host.rpc.call('anvil_setCode', [flashPool, FlashLoanPool.deployedBytecode]);
  host.labels.contracts = { routers: [...host.routers], flashLoanPool: flashPool };
  for (const b of behaviours) b.deploy?.(host);
  labelCast(host, treasury);

  const nativeUsd = genesis.tokens.get('NATIVE')!.priceUsd;
  fundCast(host, nativeUsd);
  // The flash-loan pool lends USDC and the wrapped native.
  host.queue({ from: host.deployer, to: host.usdc.address, data: encodeFunctionData({ abi: EmbeddedUSDC.abi, functionName: 'mint', args: [flashPool, parseUnits('5000000', 6)] }), gas: GAS.transfer });
  const lentNative = parseUnits((2_000_000 / nativeUsd).toFixed(6), 18);
  host.queueBalance(host.deployer, lentNative + parseEther('1000000'));
  host.queue({ from: host.deployer, to: host.native.address, data: encodeFunctionData({ abi: WrappedNative.abi, functionName: 'deposit' }), value: lentNative, gas: GAS.transfer });
  host.queue({ from: host.deployer, to: host.native.address, data: encodeFunctionData({ abi: WrappedNative.abi, functionName: 'transfer', args: [flashPool, lentNative] }), gas: GAS.transfer });
  distributeSupply(host, genesis, treasury);
  await host.mineBlock(host.startTimestamp);
  await host.market.refresh(host.rpc);

  const lp = host.actors('lp')[0]!;
  const router = host.routers[1];
  // A chain with one DEX (the stock chain) has no second venue to seed.
  for (const pool of router ? host.market.all().filter((p) => p.dex === 0).slice(0, 3) : []) {
    const share = 0.2 + host.rng.next() * 0.2;
    const amount0 = BigInt(Math.floor(Number(pool.r0) * share));
    const amount1 = BigInt(Math.floor(Number(pool.r1) * share));
    host.fundToken(lp, pool.token0, amount0);
    host.fundToken(lp, pool.token1, amount1);
    host.approve(lp, pool.token0, router!);
    host.approve(lp, pool.token1, router!);
    host.queue({ from: lp, to: router!, data: encodeFunctionData({ abi: SibylV2Router.abi, functionName: 'addLiquidity', args: [pool.token0, pool.token1, amount0, amount1, 0n, 0n, lp, FAR_DEADLINE] }), gas: GAS.addLiquidity });
  }
  if (router) {
    await host.mineBlock(host.startTimestamp + 1);
    await discoverPairs(host, 1);
  }
}

/** Adds a DEX's pairs the mirror does not know yet, read from its factory. */
async function discoverPairs(host: MarketHost, dex: number): Promise<void> {
  const factory = CHAINS[host.chain].dexes[dex]!.factory;
  const count = Number(await host.client.readContract({ address: factory, abi: SibylV2Factory.abi, functionName: 'allPairsLength' }));
  for (let i = 0; i < count; i++) {
    const pair = (await host.client.readContract({ address: factory, abi: SibylV2Factory.abi, functionName: 'allPairs', args: [BigInt(i)] })) as Address;
    if (host.market.get(pair)) continue;
    const [token0, token1] = await Promise.all([
      host.client.readContract({ address: pair, abi: PAIR_TOKENS_ABI, functionName: 'token0' }),
      host.client.readContract({ address: pair, abi: PAIR_TOKENS_ABI, functionName: 'token1' }),
    ]);
    host.market.add({ pair, dex, token0, token1, r0: 0n, r1: 0n });
  }
  await host.market.refresh(host.rpc);
}
