/**
 * Chain engine benchmark, against any JSON-RPC URL (so every candidate is measured the same
 * way): ERC-20 transfers sent one by one (each awaited), the same sent as a batch with
 * automine off and one evm_mine, then getLogs over every Transfer log of the token.
 *
 *   tsx test/bench/chain.ts [rpcUrl]     (without a URL it starts an anvil and measures that)
 */
import { createPublicClient, createWalletClient, encodeFunctionData, http, parseAbiItem, type Hex } from 'viem';
import { demoAccount } from '../../chain/accounts.js';
import { startAnvil } from '../../chain/anvil.js';
import { DemoToken } from '../../chain/artifacts/index.js';

export interface ChainBench {
  sequentialTxPerSec: number;
  batchedTxPerSec: number;
  logs: number;
  getLogsMs: number;
}

async function rpc(url: string, method: string, params: unknown[] = []) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

export async function benchChain(url: string, sequential = 300, batched = 2_000): Promise<ChainBench> {
  const account = demoAccount(0);
  const chainId = Number(await rpc(url, 'eth_chainId'));
  const chain = { id: chainId, name: 'bench', nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [url] } } } as const;
  const pub = createPublicClient({ chain, transport: http(url), pollingInterval: 10 });
  const wallet = createWalletClient({ chain, transport: http(url), account });

  const deployHash = await wallet.deployContract({ abi: DemoToken.abi, bytecode: DemoToken.bytecode, args: ['Bench', 'BEN', 18, 10n ** 30n, account.address] });
  const token = (await pub.waitForTransactionReceipt({ hash: deployHash })).contractAddress!;
  const transfer = (i: number) => encodeFunctionData({ abi: DemoToken.abi, functionName: 'transfer', args: [`0x${(i + 1).toString(16).padStart(40, '0')}`, 1n] });
  const gasPrice = await pub.getGasPrice();
  let nonce = await pub.getTransactionCount({ address: account.address });

  let t = performance.now();
  for (let i = 0; i < sequential; i++) {
    const hash = await wallet.sendTransaction({ to: token, data: transfer(i), gas: 80_000n, gasPrice, nonce: nonce++ });
    await pub.waitForTransactionReceipt({ hash });
  }
  const sequentialTxPerSec = sequential / ((performance.now() - t) / 1000);

  await rpc(url, 'evm_setAutomine', [false]);
  const signed: Hex[] = [];
  for (let i = 0; i < batched; i++) {
    signed.push(await account.signTransaction({ chainId, to: token, data: transfer(i), gas: 80_000n, gasPrice, nonce: nonce++, type: 'legacy' }));
  }
  t = performance.now();
  const hashes: Hex[] = [];
  for (let i = 0; i < signed.length; i += 100) {
    hashes.push(...(await Promise.all(signed.slice(i, i + 100).map((tx) => rpc(url, 'eth_sendRawTransaction', [tx]) as Promise<Hex>))));
  }
  // A block holds only so much gas: mine until the last transfer is in.
  while (!(await rpc(url, 'eth_getTransactionReceipt', [hashes.at(-1)!]))) await rpc(url, 'evm_mine');
  const batchedTxPerSec = batched / ((performance.now() - t) / 1000);
  await rpc(url, 'evm_setAutomine', [true]);

  const event = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
  let logs = 0;
  t = performance.now();
  const rounds = 5;
  for (let r = 0; r < rounds; r++) logs = (await pub.getLogs({ address: token, event, fromBlock: 0n, toBlock: 'latest' })).length;
  const getLogsMs = (performance.now() - t) / rounds;
  return { sequentialTxPerSec, batchedTxPerSec, logs, getLogsMs };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.argv[2];
  const node = url ? undefined : await startAnvil({ chainId: 8453, port: 0 });
  const result = await benchChain(url ?? node!.rpcUrl);
  console.log(JSON.stringify(result));
  await node?.stop();
}
