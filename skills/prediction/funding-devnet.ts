/**
 * Test-only: a small Polygon devnet on which accounts are funded with USDC at given times (minted
 * to them, or sent by a funder), indexed by the real indexer into a memory store, so the funding
 * engine and the engines that use it are tested against a chain, not a table.
 */
import { createTestClient, encodeFunctionData, http, parseAbi, parseUnits, publicActions, walletActions, type Address } from 'viem';
import { demoAccount } from '../../chain/accounts.js';
import { CHAINS } from '../../chain/chains.js';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { ChainRuntime } from '../../chain/runtime.js';
import { ChainIndexer } from '../../indexer/indexer.js';
import { MemoryStore } from '../../store/memory.js';
import { USDC_DECIMALS } from '../core/money.js';
import { FUNDING_CHAIN } from './funding.js';

export interface Funding {
  readonly to: Address;
  /** Unix seconds of the block that funds it (fundings are sent in time order; each later than the last block). */
  readonly at: number;
  readonly usd: number;
  /** A demo account that sends it (minted to it first); minted straight to `to` when absent. */
  readonly fromDemo?: number;
}

const usdcAbi = parseAbi(['function mint(address, uint256)', 'function transfer(address, uint256) returns (bool)']);

export interface FundedChain {
  readonly chains: ChainRuntime;
  readonly store: MemoryStore;
  /** Funds in time order, then indexes what is new. */
  fund(fundings: readonly Funding[]): Promise<void>;
  stop(): Promise<void>;
}

/** A Polygon devnet whose genesis is at `genesisTimestamp`, indexed from its first block. */
export async function fundedPolygon(genesisTimestamp: number): Promise<FundedChain> {
  const devnet: Devnet = await startDevnet({ chains: [FUNDING_CHAIN], basePort: 0, genesisTimestamp });
  const rpcUrl = devnet.chains[0]!.rpcUrl;
  const chains = new ChainRuntime();
  const chain = chains.add(FUNDING_CHAIN, rpcUrl, 'embedded');
  const store = new MemoryStore();
  const indexer = new ChainIndexer(chain, store, { range: 5_000, reorgDepth: 12, lookbackBlocks: 1e9 });
  const client = createTestClient({ mode: 'anvil', transport: http(rpcUrl) }).extend(publicActions).extend(walletActions);
  const usdc = CHAINS[FUNDING_CHAIN].usdc;
  const minter = demoAccount(0).address;
  const send = async (from: Address, data: `0x${string}`, at: number) => {
    await client.setNextBlockTimestamp({ timestamp: BigInt(at) });
    const hash = await client.sendTransaction({ account: from, chain: null, to: usdc, data });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    if (receipt.status !== 'success') throw new Error(`funding transaction ${hash} reverted`);
  };
  await indexer.sync();
  return {
    chains,
    store,
    async fund(fundings) {
      for (const f of [...fundings].sort((a, b) => a.at - b.at)) {
        const amount = parseUnits(f.usd.toFixed(USDC_DECIMALS), USDC_DECIMALS);
        if (f.fromDemo === undefined) {
          await send(minter, encodeFunctionData({ abi: usdcAbi, functionName: 'mint', args: [f.to, amount] }), f.at);
        } else {
          const funder = demoAccount(f.fromDemo).address;
          await send(minter, encodeFunctionData({ abi: usdcAbi, functionName: 'mint', args: [funder, amount] }), f.at - 1);
          await send(funder, encodeFunctionData({ abi: usdcAbi, functionName: 'transfer', args: [f.to, amount] }), f.at);
        }
      }
      await indexer.sync();
    },
    stop: () => devnet.stop(),
  };
}
