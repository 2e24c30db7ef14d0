/**
 * A settlement transaction stuck behind a nonce gap. Nonces are counted in the shared store; a
 * count taken there whose answer was lost (Redis died mid-reply, or ran a timed-out command
 * once it was back) leaves a nonce nobody sends, and every later transaction of the key waits
 * behind it in the node's pool, unmined. Once a sent transaction has waited GAP_CHECK_MS, the
 * nonces between the chain's pending count and its own are filled with zero-value transfers
 * to the settler itself. If a real transaction holds one of them after all, one of the two is
 * refused for its nonce and the settler sends that one again with a fresh nonce (or the
 * filler is simply dropped): no transfer is lost.
 */
import type { Hash, PrivateKeyAccount, PublicClient, WalletClient } from 'viem';
import type { Fees } from './settler-fees.js';

/** How long a sent settlement waits for its receipt before the nonces below it are checked. */
export const GAP_CHECK_MS = 3_000;
/** Most nonces one check fills (a larger gap is a fault for an operator, not a lost count). */
const MAX_FILL = 16;

/** Fills the nonces missing below `hash`'s; returns how many fillers were sent. */
export async function fillNonceGapBelow(
  wallet: WalletClient & { account: PrivateKeyAccount },
  client: PublicClient,
  hash: Hash,
  fees: Fees,
): Promise<number> {
  const tx = await client.getTransaction({ hash });
  if (tx.blockNumber !== null) return 0;
  const address = wallet.account.address;
  const next = await client.getTransactionCount({ address, blockTag: 'pending' });
  let sent = 0;
  for (let nonce = next; nonce < tx.nonce && sent < MAX_FILL; nonce++) {
    const filled = await wallet
      .sendTransaction({ account: wallet.account, chain: wallet.chain, to: address, value: 0n, nonce, gas: 21_000n, ...fees })
      .then(() => true, () => false); // refused: a real transaction took this nonce after all
    if (filled) sent++;
  }
  return sent;
}
