/**
 * The indexer's writer lease on one chain: a key in the shared store that one holder at a time
 * owns, so two instances on one Redis (or two indexers of one chain in a process) never write
 * the same index at once. Taking it is SET NX; keeping it is a renewal that succeeds only while
 * the key still names this holder, so a holder whose lease expired cannot extend it over a
 * successor.
 */
import { randomUUID } from 'node:crypto';
import type { Store } from '../store/store.js';

/** `acquired`: newly taken (others may have written since this holder last did); `renewed`: held throughout. */
export type LeaseHold = 'acquired' | 'renewed';

export class WriterLease {
  readonly holder = randomUUID();

  constructor(
    private readonly store: Store,
    private readonly key: string,
    private readonly ttlMs: number,
  ) {}

  /** Renews the lease or takes it when free; null when another holder has it. */
  async hold(): Promise<LeaseHold | null> {
    if (await this.store.renew(this.key, this.holder, this.ttlMs)) return 'renewed';
    if (await this.store.reserve(this.key, this.holder, this.ttlMs)) return 'acquired';
    return null;
  }

  /** Gives the lease back (if still held), so a successor need not wait for it to expire. */
  async release(): Promise<void> {
    await this.store.release(this.key, this.holder);
  }
}
