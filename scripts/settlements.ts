/**
 * Lists the pending settlements in the configured store (REDIS_URL, REDIS_PREFIX), oldest first:
 * payments answered while their settlement's outcome was unknown, which reconciliation decides
 * or submits again until they land or their authorization expires; then the lost ones, newest
 * first: settled, then gone from a chain that went back after they could land (answered, never
 * received). Signatures are not printed.
 *
 *   npx tsx scripts/settlements.ts            one JSON object per line
 */
import { loadConfig } from '../server/config.js';
import { CHAINS, PAYMENT_CHAIN } from '../chain/chains.js';
import { SettlementLedger } from '../payments/settlements.js';
import { openStore } from '../store/index.js';

const config = loadConfig(process.env);
if (!config.redisUrl) {
  console.error('REDIS_URL is not set: an in-memory store holds nothing outside its own process');
  process.exit(1);
}
const store = await openStore(config.redisUrl, config.redisPrefix);
try {
  const ledger = new SettlementLedger(store, undefined, CHAINS[PAYMENT_CHAIN].usdc);
  const pending = await ledger.pendingReport();
  for (const p of pending) console.log(JSON.stringify(p));
  const lost = await ledger.lostReport();
  for (const l of lost) console.log(JSON.stringify(l));
  console.error(`${pending.length} pending settlement(s), ${lost.length} lost`);
} finally {
  await store.close();
}
