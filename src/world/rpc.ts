/**
 * The simulator's line to its anvil node: raw JSON-RPC, one request at a time, so
 * transactions reach the pool in exactly the order the simulator decided (anvil runs with
 * `--order fifo`). Accounts are impersonated, so nothing is signed in JavaScript.
 */
import type { Address, Hex } from 'viem';

export interface TxRequest {
  from: Address;
  to?: Address;
  data?: Hex;
  value?: bigint;
  gas: bigint;
  /** Set by the simulator, which counts every sender's nonces (a batch cannot leave it to the node). */
  nonce?: number;
}

export class WorldRpc {
  private id = 0;

  constructor(readonly url: string) {}

  async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method, params }),
    });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  }

  /**
   * Sends many calls as one JSON-RPC batch; anvil handles a batch's items in order, so a
   * block's transactions and the mine that seals them travel in one round trip.
   */
  async batch(calls: readonly { method: string; params: unknown[] }[]): Promise<unknown[]> {
    if (!calls.length) return [];
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(calls.map((c) => ({ jsonrpc: '2.0', id: ++this.id, method: c.method, params: c.params }))),
    });
    const body = (await res.json()) as { id: number; result?: unknown; error?: { message: string } }[];
    const failed = body.find((b) => b.error);
    if (failed) throw new Error(`batch: ${failed.error!.message}`);
    return body.sort((a, b) => a.id - b.id).map((b) => b.result);
  }

  static sendCall(tx: TxRequest): { method: string; params: unknown[] } {
    return {
      method: 'eth_sendTransaction',
      params: [{
        from: tx.from,
        ...(tx.to && { to: tx.to }),
        ...(tx.data && { data: tx.data }),
        ...(tx.value && { value: `0x${tx.value.toString(16)}` }),
        gas: `0x${tx.gas.toString(16)}`,
        ...(tx.nonce !== undefined && { nonce: `0x${tx.nonce.toString(16)}` }),
      }],
    };
  }
}
