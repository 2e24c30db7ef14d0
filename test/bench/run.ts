/** `npm run bench`: chain engine, paid-request gate, the paid path against the stock x402 server, world and indexer, and per-operation latency figures, in one run. */
import { startAnvil } from '../../chain/anvil.js';
import { benchAnchor, printAnchor } from './anchor.js';
import { benchChain } from './chain.js';
import { benchGate } from './gate.js';
import { benchIndexer } from './indexer.js';
import { benchOperations, printOperations } from './operations.js';

const node = await startAnvil({ chainId: 8453, port: 0 });
const chain = await benchChain(node.rpcUrl);
await node.stop();
console.log('\nEmbedded chain (anvil, via JSON-RPC)');
console.log(`  ERC-20 transfers one by one     ${chain.sequentialTxPerSec.toFixed(0).padStart(7)} tx/s`);
console.log(`  ERC-20 transfers batched        ${chain.batchedTxPerSec.toFixed(0).padStart(7)} tx/s`);
console.log(`  getLogs of ${chain.logs} Transfer logs ${chain.getLogsMs.toFixed(0).padStart(7)} ms`);

const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 64);
const gate = await benchGate(600, concurrency);
console.log(`\nPaid requests (concurrency ${concurrency}, payments pre-signed)`);
for (const [name, r] of Object.entries(gate)) console.log(`  ${name.padEnd(45)} ${r.perSec.toFixed(1).padStart(8)} /s  (${r.ok}/${r.total} ok)`);
const ours = gate['sibyl: full paid request']!.perSec;
const stock = gate['stock @x402/express: full paid request']!.perSec;
console.log(`\n  Sibyl full paid request vs stock @x402/express: ${(ours / stock).toFixed(2)}x`);
console.log(`  Sibyl gate (verify + replay guard) vs stock full request: ${(gate['sibyl gate: verification + replay guard']!.perSec / stock).toFixed(2)}x`);

printAnchor(await benchAnchor());

const idx = await benchIndexer();
console.log(`\nWorld and indexer (one chain, 14 days, ${idx.blocks} blocks)`);
console.log(`  world seeding                      ${idx.seedingMs.toFixed(0).padStart(7)} ms`);
console.log(`  bare eth_getLogs                   ${idx.raw.perSec.toFixed(0).padStart(7)} logs/s  (${idx.raw.logs} logs)`);
console.log(`  viem getLogs (decoded)             ${idx.viemGetLogs.perSec.toFixed(0).padStart(7)} logs/s`);
console.log(`  indexer into the memory store      ${idx.memory.perSec.toFixed(0).padStart(7)} logs/s  (${(idx.memory.perSec / idx.raw.perSec * 100).toFixed(0)}% of bare getLogs)`);
console.log(`  indexer into Redis                 ${idx.redis.perSec.toFixed(0).padStart(7)} logs/s  (${(idx.redis.perSec / idx.raw.perSec * 100).toFixed(0)}% of bare getLogs)`);

printOperations(await benchOperations());
