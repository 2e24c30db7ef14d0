/**
 * The simulator's line to its anvil node: raw JSON-RPC, one request at a time and batches of at
 * most BATCH_LIMIT calls, so transactions reach the pool in exactly the order the simulator
 * decided (anvil runs with `--order fifo`). Accounts are impersonated, so nothing is signed in
 * JavaScript.
 */
import { Agent, request } from 'node:http';
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

/**
 * Calls one JSON-RPC batch carries. anvil answers a batch's items concurrently once there are more
 * than about 64 sends (its runtime's cooperative budget, two units a send), admitting them to its
 * pool in an order of its own that changes with the machine's load; so a block's transactions
 * travel in batches half that size, one after another.
 */
export const BATCH_LIMIT = 32;

/**
 * A node that has not answered a call in this long is taken as hung, and the call fails naming it:
 * a frozen node would otherwise hold a start-up (or the live blocks) forever. Far above anything a
 * healthy node takes on a loaded 2-core machine (a 30-day chain's state dump takes seconds).
 */
export const WORLD_RPC_TIMEOUT_MS = 60_000;

export class WorldRpc {
  private id = 0;
  // node:http with one kept-alive socket and each body written as one buffer: fetch streamed
  // request bodies in many small writes, which cost more CPU than the simulation itself.
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private readonly target: URL;

  constructor(
    readonly url: string,
    private readonly timeoutMs = WORLD_RPC_TIMEOUT_MS,
  ) {
    this.target = new URL(url);
  }

  private post(payload: unknown, what: string): Promise<unknown> {
    const body = Buffer.from(JSON.stringify(payload));
    return new Promise((resolve, reject) => {
      const req = request(
        { host: this.target.hostname, port: this.target.port, path: '/', method: 'POST', agent: this.agent, headers: { 'content-type': 'application/json', 'content-length': body.length } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            try {
              resolve(JSON.parse(Buffer.concat(chunks).toString()));
            } catch (err) {
              reject(err);
            }
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error(`the chain node at ${this.url} did not answer ${what} within ${this.timeoutMs / 1000} s: it is hung or overloaded`)));
      req.end(body);
    });
  }

  async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const body = (await this.post({ jsonrpc: '2.0', id: ++this.id, method, params }, method)) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  }

  /**
   * Sends many calls as JSON-RPC batches of at most BATCH_LIMIT, each after the last is answered,
   * so the node handles them in the order given; results come back in that order (matched by id).
   */
  async batch(calls: readonly { method: string; params: unknown[] }[]): Promise<unknown[]> {
    const results: unknown[] = [];
    for (let i = 0; i < calls.length; i += BATCH_LIMIT) results.push(...(await this.batchOf(calls.slice(i, i + BATCH_LIMIT))));
    return results;
  }

  private async batchOf(calls: readonly { method: string; params: unknown[] }[]): Promise<unknown[]> {
    const requests = calls.map((c) => ({ jsonrpc: '2.0', id: ++this.id, method: c.method, params: c.params }));
    const body = (await this.post(requests, `a batch of ${calls.length} calls (${calls[0]?.method ?? 'none'} first)`)) as { id: number; result?: unknown; error?: { message: string } }[];
    if (!Array.isArray(body)) throw new Error(`batch: ${(body as { error?: { message: string } })?.error?.message ?? 'not a batch answer'}`);
    const failed = body.find((b) => b.error);
    if (failed) throw new Error(`batch: ${failed.error!.message}`);
    const byId = new Map(body.map((b) => [b.id, b]));
    return requests.map((r) => {
      const answer = byId.get(r.id);
      if (!answer) throw new Error(`batch: no answer to ${r.method} (id ${r.id})`);
      return answer.result;
    });
  }

  close(): void {
    this.agent.destroy();
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
