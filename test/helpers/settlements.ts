/**
 * For tests that follow settlements onto the chain and back: a poller, the token's
 * authorization reads, a funded settler, a settled record for a signed payment, and the
 * embedded node's state dump.
 */
import { readFileSync, statSync } from 'node:fs';
import { parseAbi, parseAbiItem, parseEther, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { CHAINS } from '../../chain/chains.js';
import type { SettlementLedger, SettlementRecord } from '../../payments/settlements.js';
import { rpc } from './sibyl.js';

const USDC = CHAINS.base.usdc;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const authorizationState = parseAbi(['function authorizationState(address, bytes32) view returns (bool)']);
export const authorizationUsed = parseAbiItem('event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)');

/** Polls `check` every 100 ms until it gives something truthy (a throw counts as not yet). */
export async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Whether the token has used `payer`'s authorization `nonce` (authorizationState). */
export function authorizationUsedBy(client: Pick<PublicClient, 'readContract'>, payer: Address): (nonce: Hex) => Promise<boolean> {
  return (nonce) => client.readContract({ address: USDC, abi: authorizationState, functionName: 'authorizationState', args: [payer, nonce] });
}

/** How many AuthorizationUsed events the chain holds for each of `payer`'s `nonces`. */
export async function authorizationUses(client: Pick<PublicClient, 'getLogs'>, payer: Address, nonces: readonly Hex[]): Promise<number[]> {
  const events = await client.getLogs({ address: USDC, event: authorizationUsed, args: { authorizer: payer }, fromBlock: 0n });
  return nonces.map((nonce) => events.filter((e) => e.args.nonce === nonce).length);
}

/** Gives the settler gas money on the node at `rpcUrl`. */
export async function fundSettler(rpcUrl: string, settlerKey: Hex): Promise<void> {
  await rpc(rpcUrl, 'anvil_setBalance', [privateKeyToAccount(settlerKey).address, `0x${parseEther('100').toString(16)}`]);
}

/** The ledger's record of a signed payment settled by `transaction`. */
export function settledRecord(
  p: { nonce: Hex; payload: PaymentPayload },
  settled: { transaction: Hex; payer: Address; amount: bigint; resource: string; requirements: PaymentRequirements },
): SettlementRecord {
  return {
    status: 'settled', transaction: settled.transaction, payer: settled.payer, nonce: p.nonce, amount: settled.amount.toString(),
    validBefore: (p.payload.payload as { authorization: { validBefore: string } }).authorization.validBefore,
    resource: settled.resource, recordedAt: new Date().toISOString(), payload: p.payload, requirements: settled.requirements,
  };
}

/** The record once the ledger found it gone from the chain and settled it again. */
export function resettled(ledger: Pick<SettlementLedger, 'get'>, payer: Address, nonce: Hex, what: string): Promise<SettlementRecord> {
  return until(what, async () => {
    const r = await ledger.get(payer, nonce);
    return r?.status === 'settled' && r.reopenedAt ? r : null;
  });
}

/**
 * Waits for the node (process `pid`) to write its state dump after now, then for that dump to
 * be whole: the test settles right after it, so no dump holds what follows.
 */
export async function afterNextDump(pid: number): Promise<{ dump: string; dumpedAt: number }> {
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const dump = argv[argv.indexOf('--dump-state') + 1]!;
  const fundedAt = Date.now();
  await until('a dump after the funding', async () => (statSync(dump, { throwIfNoEntry: false })?.mtimeMs ?? 0) > fundedAt + 100);
  await sleep(500); // the dump is written whole
  return { dump, dumpedAt: statSync(dump).mtimeMs };
}
