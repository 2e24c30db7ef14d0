/** `npm start`: the service on its embedded defaults, or on whatever the environment configures. */
import { demoAccount, demoPrivateKey } from '../chain/accounts.js';
import { ConfigError, loadConfig } from './config.js';
import { startSibyl } from './service.js';

async function main() {
  const config = loadConfig();
  const started = Date.now();
  console.log('Sibyl starting…');
  const sibyl = await startSibyl(config, { onProgress: (m) => console.log(`  ${m}`) });
  console.log(`Sibyl ready in ${Date.now() - started} ms at ${sibyl.url}  (store: ${sibyl.store.kind}, facilitator: ${sibyl.facilitator.kind})`);
  for (const c of sibyl.chains.list()) console.log(`  ${c.name.padEnd(9)} chain ${String(c.spec.chainId).padEnd(6)} ${c.source.padEnd(8)} ${c.rpcUrl}`);
  console.log(`  payments: USDC on eip155:8453 to ${config.payTo}`);
  if (sibyl.devnet) {
    console.log(`  demo payer (holds USDC on the devnet): ${demoAccount(1).address}`);
    console.log(`    key ${demoPrivateKey(1)}  (public development mnemonic; worthless anywhere else)`);
    console.log(`  try:  npm run pay -- /x402/data/latest-pairs '{"limit":5}'`);
  }
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    console.log('Sibyl stopping…');
    await sibyl.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err);
  process.exit(1);
});
