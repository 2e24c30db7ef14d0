/**
 * The simulator's line to its anvil node: raw JSON-RPC, one request at a time, so
 * transactions reach the pool in exactly the order the simulator decided (anvil runs with
 * `--order fifo`). Accounts are impersonated, so nothing is signed in JavaScript.
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

export class WorldRpc {
  private id = 0;
  // node:http with one kept-alive socket and each body written as one buffer: fetch streamed
  // request bodies in many small writes, which cost more CPU than the simulation itself.
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private readonly target: URL;

  constructor(readonly url: string) {
    this.target = new URL(url);
  }

  private post(payload: unknown): Promise<unknown> {
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
      req.end(body);
    });
  }

  async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const body = (await this.post({ jsonrpc: '2.0', id: ++this.id, method, params })) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  }

  /**
   * Sends many calls as one JSON-RPC batch; anvil handles a batch's items in order, so a
   * block's transactions and the mine that seals them travel in one round trip.
   */
  async batch(calls: readonly { method: string; params: unknown[] }[]): Promise<unknown[]> {
    if (!calls.length) return [];
    const body = (await this.post(calls.map((c) => ({ jsonrpc: '2.0', id: ++this.id, method: c.method, params: c.params })))) as { id: number; result?: unknown; error?: { message: string } }[];
    const failed = body.find((b) => b.error);
    if (failed) throw new Error(`batch: ${failed.error!.message}`);
    return body.sort((a, b) => a.id - b.id).map((b) => b.result);
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
