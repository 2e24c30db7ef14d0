/**
 * bitcoin-bridge-comparison on a 2-day base world, every figure checked against the chain read
 * here directly or the world's own price path: supply against totalSupply, holders and mint/burn
 * flows against a replay of the token's Transfer logs (eth_getLogs, not the index), each pool's
 * price against its reserves and its deviation against BTC's reference path (world/reference.ts).
 * Bought once over A2A at the spec's price with no Bitcoin chain (reserves unavailable, the EVM
 * part answered); then run with a Bitcoin source whose custodian holds the genesis supply.
 */
import { createPublicClient, erc20Abi, formatUnits, http, parseAbi, parseAbiItem, zeroAddress, type Address, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS } from '../../chain/genesis.js';
import { startDevnet, type Devnet } from '../../chain/devnet.js';
import { viemChain } from '../../chain/runtime.js';
import type { Esplora } from '../../chain/esplora.js';
import { bitcoinBridgeComparisonSkill } from '../../skills/bitcoin/bridges/bridges.js';
import type { BitcoinSource } from '../../chain/bitcoin.js';
import { startWorld, worldGenesisTimestamp, type RunningWorld } from '../../world/index.js';
import { json, startTestSibyl, walletPoster, type TestSibyl } from '../helpers/sibyl.js';
import { SPEC_SKILL_PRICE } from '../helpers/spec-prices.js';

/** The published price of bitcoin-bridge-comparison: 0.50 USDC (6 decimals). */
const SPEC_PRICE = SPEC_SKILL_PRICE['bitcoin-bridge-comparison'];
const SEED = 'bridges-a';
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const PAIR = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)', 'function token0() view returns (address)']);

let devnet: Devnet;
let world: RunningWorld;
let sibyl: TestSibyl;
let client: PublicClient;
let wbtc: Address;

beforeAll(async () => {
  devnet = await startDevnet({ chains: ['base'], basePort: 0, genesisTimestamp: worldGenesisTimestamp(2), fifo: true });
  const chain = devnet.chains[0]!;
  world = await startWorld(devnet.chains, { seed: SEED, days: 2, meanBlockSeconds: 1_200, liveBlockMs: 0, labelsPath: `/tmp/sibyl-${SEED}-${process.pid}.json` });
  world.stop();
  wbtc = chain.genesis.tokens.get('WBTC')!.address;
  client = createPublicClient({ chain: viemChain('base', chain.rpcUrl), transport: http(chain.rpcUrl) }) as PublicClient;
  sibyl = await startTestSibyl({ rpcUrls: { base: chain.rpcUrl }, env: { BITCOIN: 'off' } });
}, 300_000);
afterAll(async () => {
  await sibyl?.close();
  await devnet?.stop();
});

/** Every Transfer of WBTC up to `block`, straight from the node, with each block's time. */
async function transfersTo(block: bigint) {
  const logs = await client.getLogs({ address: wbtc, event: TRANSFER, fromBlock: 0n, toBlock: block });
  const times = new Map<bigint, number>();
  for (const b of new Set(logs.map((l) => l.blockNumber!))) times.set(b, Number((await client.getBlock({ blockNumber: b })).timestamp));
  return logs.map((l) => ({ from: l.args.from!.toLowerCase(), to: l.args.to!.toLowerCase(), value: l.args.value!, ts: times.get(l.blockNumber!)! }));
}

/** Checks one WBTC chain row against the chain and the world's BTC path. */
async function checkAgainstChain(row: any) {
  const block = BigInt(row.asOf.block);
  const ts = Date.parse(row.asOf.timestamp) / 1000;
  expect(row.token.toLowerCase()).toBe(wbtc.toLowerCase());

  // Supply: totalSupply at the checkpoint, which genesis set and nothing since has minted or burned.
  const supply = await client.readContract({ address: wbtc, abi: erc20Abi, functionName: 'totalSupply', blockNumber: block });
  expect(row.totalSupply).toBe(formatUnits(supply, 8));
  expect(Number(row.totalSupply)).toBe(GENESIS.base!.tokens.find((t) => t.symbol === 'WBTC')!.supply);

  // Holders and flows: the Transfer logs replayed here.
  const transfers = await transfersTo(block);
  const balances = new Map<string, bigint>();
  for (const t of transfers) {
    balances.set(t.from, (balances.get(t.from) ?? 0n) - t.value);
    balances.set(t.to, (balances.get(t.to) ?? 0n) + t.value);
  }
  const holders = [...balances].filter(([a, v]) => v > 0n && a !== zeroAddress && a !== '0x000000000000000000000000000000000000dead');
  expect(row.holders).toBe(holders.length);
  for (const [window, seconds] of [['24h', 86_400], ['7d', 7 * 86_400]] as const) {
    const inside = transfers.filter((t) => t.ts >= ts - seconds);
    const minted = inside.filter((t) => t.from === zeroAddress).reduce((s, t) => s + t.value, 0n);
    const burned = inside.filter((t) => t.to === zeroAddress).reduce((s, t) => s + t.value, 0n);
    expect(row.flows[window]).toMatchObject({ minted: formatUnits(minted, 8), burned: formatUnits(burned, 8) });
  }

  // Peg: the USDC pool's price from its reserves at the checkpoint; every pool's deviation from BTC's path.
  const refUsd = world.reference.priceUsd('BTC', ts);
  const usdcPools = [];
  for (const pool of row.peg.pools) {
    expect(pool.deviationBps).toBeCloseTo((pool.priceUsd / row.peg.reference.usd - 1) * 10_000, 1);
    if (pool.quote !== 'USDC') continue;
    const [[r0, r1], token0] = await Promise.all([
      client.readContract({ address: pool.pool, abi: PAIR, functionName: 'getReserves', blockNumber: block }),
      client.readContract({ address: pool.pool, abi: PAIR, functionName: 'token0', blockNumber: block }),
    ]);
    const [rWbtc, rUsdc] = token0.toLowerCase() === wbtc.toLowerCase() ? [r0, r1] : [r1, r0];
    const price = Number(formatUnits(rUsdc, 6)) / Number(formatUnits(rWbtc, 8));
    expect(pool.priceUsd / price - 1).toBeCloseTo(0, 9);
    usdcPools.push({ pool: pool.pool, price, bpsFromPath: (price / refUsd - 1) * 10_000 });
  }
  expect(usdcPools.length).toBeGreaterThanOrEqual(1);
  return { refUsd, usdcPools };
}

describe('bitcoin-bridge-comparison on the world', () => {
  it('bought over A2A at the spec price without a Bitcoin chain: the EVM figures agree with the chain, reserves say why they are missing', async () => {
    const payer = await walletPoster(sibyl.url, '5', devnet.chains[0]!.rpcUrl);
    const before = await payer.balance();
    const res = await payer.post('/api/a2a/skills/bitcoin-bridge-comparison', { params: { limit: 10 } });
    const body = await json(res);
    expect(res.status, JSON.stringify(body).slice(0, 400)).toBe(200);
    expect(before - (await payer.balance())).toBe(SPEC_PRICE);
    const answer = body.response;
    expect(answer.methodology).toContain('bitcoin-bridges/v1');
    const token = answer.tokens.find((t: any) => t.symbol === 'WBTC');
    expect(token.custody).toMatchObject({ model: 'custodial' });
    expect(token.custody.source).toMatch(/wbtc\.network/);
    expect(token.reserves).toMatchObject({ available: false, btc: null, ratio: null, wrapped: token.totalSupply });
    expect(token.reserves.reason).toContain('no Bitcoin chain');
    // Without a BTC feed the reference is the market's consensus of the wrapped pools.
    expect(token.chains[0].peg.reference.source).toContain('no BTC price feed');
    await checkAgainstChain(token.chains[0]);
    expect(answer.notIndexed.map((n: any) => n.symbol)).toEqual(expect.arrayContaining(['cbBTC', 'tBTC']));
  });

  it('with a Bitcoin source: the peg is against BTC\'s path, and reserves are the custodian\'s BTC over the wrapped supply', async () => {
    const custody = ['bc1qbridgecustody0', 'bc1qbridgecustody1'];
    const genesisSats = BigInt(GENESIS.base!.tokens.find((t) => t.symbol === 'WBTC')!.supply) * 100_000_000n;
    const perAddress = [genesisSats / 4n, genesisSats - genesisSats / 4n];
    const esplora = {
      baseUrl: 'http://esplora.stub',
      tipHeight: async () => 900_000,
      address: async (a: string) => {
        const i = custody.indexOf(a);
        const funded = Number(i < 0 ? 0n : perAddress[i]!);
        return { address: a, chain_stats: { funded_txo_count: 1, funded_txo_sum: funded, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 1 }, mempool_stats: { funded_txo_count: 0, funded_txo_sum: 0, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 0 } };
      },
    } as unknown as Esplora;
    const bitcoin: BitcoinSource = {
      kind: 'embedded', esplora,
      prices: { source: 'the world\'s BTC reference path', at: (t) => world.reference.priceUsd('BTC', t) },
      entities: [{ name: 'WBTC custodian', kind: 'custodian', backs: 'WBTC', addresses: custody }],
    };
    const answer = await bitcoinBridgeComparisonSkill.handler({ limit: 10 }, { ...sibyl.context, bitcoin });
    const token = answer.tokens.find((t) => t.symbol === 'WBTC')!;
    const row = token.chains[0]!;
    const { refUsd, usdcPools } = await checkAgainstChain(row);
    expect(row.peg.reference!.usd).toBeCloseTo(refUsd, 6);
    for (const p of usdcPools) {
      const answered = row.peg.pools.find((q) => q.pool === p.pool)!;
      expect(answered.deviationBps).toBeCloseTo(p.bpsFromPath, 1);
      // Arbitrageurs hold pools within 0.15% of the path: a pool 50 bps off would be a broken peg.
      expect(Math.abs(answered.deviationBps)).toBeLessThan(50);
    }
    console.info(`WBTC on base: ${row.peg.pools.map((p) => `${p.pair} ${p.deviationBps} bps`).join(', ')}; weighted ${row.peg.deviationBps} bps; 7d minted ${row.flows['7d'].minted}, burned ${row.flows['7d'].burned}; holders ${row.holders}`);
    expect(token.reserves).toMatchObject({ available: true, btc: token.totalSupply, wrapped: token.totalSupply, wrappedChains: ['base'], wrappedComplete: true, ratio: 1, addressCount: 2, bitcoin: { kind: 'embedded', esplora: 'http://esplora.stub', tipHeight: 900_000 } });
    expect(token.reserves.addresses[0]).toEqual({ address: custody[1], btc: formatUnits(perAddress[1]!, 8) });
    const summary = bitcoinBridgeComparisonSkill.summarize!(answer);
    console.info(summary);
    expect(summary).toContain(`WBTC (custodial, BitGo multi-signature cold storage): ${token.totalSupply} on base`);
    expect(summary).toContain('ratio 1');
  });
});
