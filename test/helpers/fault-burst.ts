/**
 * Bursts of paid requests under a fault, counted on chain.
 *
 * Every payment is made by the official x402 client (`x402Client` with `@x402/evm`'s exact
 * scheme) from the 402 the service sent, and sent as its PAYMENT-SIGNATURE header, so a payer
 * whose connection died can resend exactly what it signed. What each payer received is then
 * compared with the chain: `authorizationState(payer, nonce)` and the USDC Transfer logs to the
 * recipient. "Charged, no answer" and "answered, never settled" must both be 0.
 */
import { createPublicClient, http, parseAbi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { CHAINS } from '../../chain/chains.js';
import { X402_NETWORK } from '../../payments/terms.js';

const USDC = CHAINS.base.usdc;
const usdc = parseAbi([
  'function authorizationState(address, bytes32) view returns (bool)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long payers holding a pending receipt keep asking again, all together. */
const REASK_WITHIN_MS = 60_000;

/** Bodies of 5xx replies other than 503 (never expected), for the report. */
export const serverErrors: string[] = [];

export interface Payment {
  readonly payer: Address;
  readonly nonce: Hex;
  readonly header: string;
  /** The first answer: an HTTP status, or `lost` when the connection died. */
  first: number | 'lost';
  /** Every later reply to the same payment resent, in order. */
  resends: (number | 'lost')[];
  /** The last reply's status was 200 with a receipt. */
  answered: boolean;
  /** The transaction its last receipt names. */
  transaction?: Hex;
  /** Its last receipt said settlement_pending. */
  pending?: boolean;
  /** The last refusal's error code, when it was never answered. */
  refusal?: string;
}

/** What the 402 for `path` asks: the requirements every instance on the same recipient shares. */
export async function paymentRequired(url: string, path: string, body: unknown) {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 402) throw new Error(`expected a 402 from ${path}, got ${res.status}`);
  return decodePaymentRequiredHeader(res.headers.get('payment-required')!);
}

/** `count` payments signed by the official client, spread over `payerKeys`. */
export async function signPayments(payerKeys: readonly Hex[], required: Awaited<ReturnType<typeof paymentRequired>>, count: number): Promise<Payment[]> {
  const clients = payerKeys.map((key) => ({ account: privateKeyToAccount(key), client: new x402Client().register(X402_NETWORK, new ExactEvmScheme(privateKeyToAccount(key))) }));
  const payments: Payment[] = [];
  for (let i = 0; i < count; i++) {
    const { account, client } = clients[i % clients.length]!;
    const payload = await client.createPaymentPayload(required);
    const nonce = (payload.payload as { authorization: { nonce: Hex } }).authorization.nonce;
    payments.push({ payer: account.address, nonce, header: encodePaymentSignatureHeader(payload), first: 'lost', resends: [], answered: false });
  }
  return payments;
}

async function send(url: string, path: string, body: unknown, payment: Payment): Promise<{ status: number | 'lost'; code?: string; retryAfter?: number }> {
  try {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'PAYMENT-SIGNATURE': payment.header },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    if (res.status === 200) {
      // An answer whose settlement was not decided in time carries a pending receipt (docs/protocols.md).
      const receipt = decodePaymentResponseHeader(res.headers.get('payment-response')!);
      payment.answered = true;
      payment.pending = !receipt.success;
      payment.transaction = (receipt.transaction || undefined) as Hex | undefined;
      return { status: 200 };
    }
    let code: string | undefined;
    try {
      const parsed = JSON.parse(text) as { code?: string; error?: { code?: string } | string };
      code = parsed.code ?? (typeof parsed.error === 'object' ? parsed.error?.code : parsed.error);
    } catch {}
    if (res.status >= 500 && res.status !== 503) serverErrors.push(`${url}${path} ${res.status}: ${text.slice(0, 300)}`);
    const retryAfter = Number(res.headers.get('retry-after'));
    return { status: res.status, code, ...(Number.isFinite(retryAfter) && retryAfter > 0 && { retryAfter }) };
  } catch {
    return { status: 'lost' };
  }
}

/**
 * Sends every payment once, `concurrency` at a time, the i-th to `urls()[i % n]` (asked as it is
 * sent, so a fault can take an instance out); `onProgress(done)` runs after each reply.
 */
export async function burst(options: {
  payments: Payment[];
  urls: () => readonly string[];
  path: string;
  body: unknown;
  concurrency: number;
  onProgress?: (done: number) => void | Promise<void>;
}): Promise<void> {
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let i = next++; i < options.payments.length; i = next++) {
      const urls = options.urls();
      const payment = options.payments[i]!;
      const reply = await send(urls[i % urls.length]!, options.path, options.body, payment);
      payment.first = reply.status;
      if (reply.status !== 200) payment.refusal = reply.code;
      await options.onProgress?.(++done);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
}

/**
 * What a payer does when it got no answer: sends the same payment again (to `url()`) until it is
 * answered, following 409 payment_in_progress and 503 with their Retry-After, and stopping at any
 * other refusal. Payments still unanswered at the deadline keep their last refusal.
 */
export async function resendUnanswered(options: { payments: Payment[]; url: () => string; path: string; body: unknown; timeoutMs: number; concurrency?: number }): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  const queue = options.payments.filter((p) => !p.answered);
  const worker = async () => {
    for (let payment = queue.shift(); payment; payment = queue.shift()) {
      while (Date.now() < deadline) {
        const reply = await send(options.url(), options.path, options.body, payment);
        payment.resends.push(reply.status);
        if (reply.status === 200) break;
        payment.refusal = reply.code ?? String(reply.status);
        if (reply.status !== 'lost' && reply.status !== 409 && reply.status !== 503) break;
        await sleep(Math.min(1_000, (reply.retryAfter ?? 1) * 1_000));
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 10 }, worker));
}

export interface FaultCount {
  readonly sent: number;
  /** Answered at the first try. */
  readonly answeredFirst: number;
  /** First replies that were not an answer, by status (`lost` for a dead connection). */
  readonly firstRefusals: Record<string, number>;
  /** Answered in the end (first try or resent). */
  readonly answered: number;
  /** authorizationState true on chain. */
  readonly settled: number;
  /** USDC Transfer logs from the payers to the recipient. */
  readonly transfers: number;
  readonly chargedNoAnswer: number;
  readonly answeredNeverSettled: number;
  /** Answered with a settlement_pending receipt. */
  readonly pendingReceipts: number;
  /** Answered payments asked again for their receipt (pending, or naming a transaction the chain lacks). */
  readonly receiptsReasked: number;
  /** Answered payments whose receipt, after asking again, still does not name a settled transaction. */
  readonly receiptsNotOnChain: number;
  /** Never answered, by last refusal. */
  readonly unanswered: Record<string, number>;
}

/**
 * Counts on chain once settlement has had `settleWithinMs` to finish: every answered payment
 * settled, and a Transfer per settled one, never more. A payer holding a pending receipt, or one
 * naming a transaction the chain does not have (lost in a node restart and sent again), asks
 * again with the same payment until its receipt is decided (a minute at most for all of them), and must then get a receipt naming the transaction that
 * settled it.
 */
export async function countOnChain(options: {
  payments: readonly Payment[];
  rpcUrl: string;
  /** The recipient: every Transfer from the payments' payers to it is counted. */
  payTo: Address;
  settleWithinMs: number;
  reask: { url: () => string; path: string; body: unknown };
}): Promise<FaultCount> {
  const client = createPublicClient({ transport: http(options.rpcUrl) });
  const settledOnChain = () => Promise.all(options.payments.map((p) => client.readContract({ address: USDC, abi: usdc, functionName: 'authorizationState', args: [p.payer, p.nonce] })));
  let settled = await settledOnChain();
  for (const deadline = Date.now() + options.settleWithinMs; Date.now() < deadline && options.payments.some((p, i) => p.answered && !settled[i]); ) {
    await sleep(500);
    settled = await settledOnChain();
  }
  // One receipt read per transaction (a batch settles many payments).
  const receipts = new Map<Hex, Promise<boolean>>();
  const landed = (hash: Hex | undefined, fresh = false) => {
    if (!hash) return Promise.resolve(false);
    if (fresh || !receipts.has(hash)) receipts.set(hash, client.getTransactionReceipt({ hash }).then((r) => r.status === 'success', () => false));
    return receipts.get(hash)!;
  };
  const pendingReceipts = options.payments.filter((p) => p.pending).length;
  let receiptsReasked = 0;
  // A pending receipt is asked about again until it is decided, as a payer holding one would
  // (a settlement reopened after the node's restart is decided when its new transaction confirms).
  const reaskUntil = Date.now() + REASK_WITHIN_MS;
  for (const p of options.payments) {
    if (!p.answered || (!p.pending && (await landed(p.transaction)))) continue;
    receiptsReasked++;
    do {
      await send(options.reask.url(), options.reask.path, options.reask.body, p);
      if (!p.pending && (await landed(p.transaction, true))) break;
      await sleep(1_000);
    } while (Date.now() < reaskUntil);
  }
  const payers = [...new Set(options.payments.map((p) => p.payer))];
  const logs = await client.getLogs({ address: USDC, event: usdc[1], args: { from: payers, to: options.payTo }, fromBlock: 0n });
  let receiptsNotOnChain = 0;
  for (const p of options.payments) {
    if (!p.answered || (!p.pending && (await landed(p.transaction)))) continue;
    receiptsNotOnChain++;
    console.log(`receipt not on chain: ${p.payer} ${p.nonce} pending=${!!p.pending} transaction=${p.transaction ?? '-'} first=${p.first} resends=${p.resends.join(',')}`);
  }
  const tally = (keys: string[]) => keys.reduce<Record<string, number>>((acc, k) => ({ ...acc, [k]: (acc[k] ?? 0) + 1 }), {});
  return {
    sent: options.payments.length,
    answeredFirst: options.payments.filter((p) => p.first === 200).length,
    firstRefusals: tally(options.payments.filter((p) => p.first !== 200).map((p) => String(p.first))),
    answered: options.payments.filter((p) => p.answered).length,
    settled: settled.filter(Boolean).length,
    transfers: logs.length,
    chargedNoAnswer: options.payments.filter((p, i) => settled[i] && !p.answered).length,
    answeredNeverSettled: options.payments.filter((p, i) => p.answered && !settled[i]).length,
    pendingReceipts,
    receiptsReasked,
    receiptsNotOnChain,
    unanswered: tally(options.payments.filter((p) => !p.answered).map((p) => p.refusal ?? String(p.resends.at(-1) ?? p.first))),
  };
}
