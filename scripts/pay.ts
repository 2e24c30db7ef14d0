/**
 * `npm run pay -- <path> '<json body>'`: pays for one Sibyl operation with the official x402
 * client (`@x402/fetch` + `@x402/evm`), then prints the answer and the settlement transaction.
 * Pays from demo account #1 of the development mnemonic unless SIBYL_PAYER_KEY is set.
 */
import { decodePaymentResponseHeader, wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { demoPrivateKey } from '../chain/accounts.js';
import { X402_NETWORK } from '../payments/terms.js';
import { formatUsd } from '../skills/core/money.js';
import { createRegistry } from '../skills/catalog/index.js';

async function main() {
  const [path, body = '{}'] = process.argv.slice(2);
  if (!path?.startsWith('/')) {
    console.error(`usage: npm run pay -- /x402/data/latest-pairs '{"limit":5}'`);
    process.exit(2);
  }
  const baseUrl = (process.env.SIBYL_URL ?? 'http://127.0.0.1:4021').replace(/\/$/, '');
  const account = privateKeyToAccount((process.env.SIBYL_PAYER_KEY as Hex | undefined) ?? demoPrivateKey(1));
  // The client refuses to pay more than $1 unless told otherwise; Sibyl's dearest operation is the cap.
  const maxPrice = createRegistry().httpPriceBounds()!.max;
  const pay = wrapFetchWithPaymentFromConfig(fetch, {
    schemes: [{ network: X402_NETWORK, client: new ExactEvmScheme(account) }],
    spendControls: { maxAmountPerPayment: formatUsd(maxPrice) },
  });

  const response = await pay(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const text = await response.text();
  let answer: unknown = text;
  try {
    answer = JSON.parse(text);
  } catch {}
  console.log(`HTTP ${response.status} from ${baseUrl}${path} (payer ${account.address})`);
  console.log(JSON.stringify(answer, null, 2));
  const receipt = response.headers.get('payment-response');
  if (receipt) {
    const settlement = decodePaymentResponseHeader(receipt);
    console.log(`settlement: ${settlement.success ? 'settled' : settlement.errorReason} on ${settlement.network}, transaction ${settlement.transaction}`);
  }
  process.exit(response.ok ? 0 : 1);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
