/**
 * This server instance as the other instances on the store know it: an id, and a heartbeat key
 * renewed while the process runs. A payment reservation names the instance that holds it; once
 * that instance's heartbeat is gone (the process died, or lost the store for longer than the
 * heartbeat lives), any instance may take over what it left undone (payments/paywall.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Store } from '../store/store.js';

export interface InstanceOptions {
  /** How often the heartbeat is written (default 3 s). */
  readonly beatMs?: number;
  /** How long a heartbeat lives without renewal (default 10 s): how long a dead instance's payments wait. */
  readonly ttlMs?: number;
  readonly log?: (msg: string, err?: unknown) => void;
}

const key = (id: string) => `x402:instance:${id}`;

export class Instance {
  readonly id = randomUUID();
  readonly beatMs: number;
  readonly ttlMs: number;
  private timer: NodeJS.Timeout | undefined;
  private failing = false;
  /**
   * Since when this instance's heartbeats have been written without a break: undefined while the
   * store refuses them, then the first beat after; 0 until the store first refused one.
   */
  private beatingSince: number | undefined = 0;

  constructor(
    private readonly store: Store,
    private readonly options: InstanceOptions = {},
  ) {
    this.beatMs = options.beatMs ?? 3_000;
    this.ttlMs = options.ttlMs ?? 10_000;
  }

  /** Writes the heartbeat now and every `beatMs`, running `each` (the takeover pass) after each beat. */
  async start(each?: () => Promise<unknown>): Promise<void> {
    await this.beat();
    let running = false;
    this.timer = setInterval(() => {
      if (running) return;
      running = true;
      void this.beat()
        .then(() => each?.())
        .catch((err) => this.options.log?.('payments takeover pass failed', err))
        .finally(() => {
          running = false;
        });
    }, this.beatMs);
    this.timer.unref();
  }

  /** Stops the heartbeat and removes it: what this instance still holds is taken over at once. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.store.delete(key(this.id)).catch(() => {}); // expires on its own
  }

  /**
   * Whether the instance `id` still beats (this one always does while it runs). A store outage
   * longer than a heartbeat's life lets every heartbeat lapse, the live instances' too: until
   * this one has beaten without a break for that long since, every instance counts as alive
   * (no payment of a live instance is taken over for a lapse the outage caused).
   */
  async alive(id: string): Promise<boolean> {
    if (id === this.id) return true;
    if (this.beatingSince === undefined || Date.now() - this.beatingSince < this.ttlMs) return true;
    return (await this.store.get(key(id))) !== null;
  }

  private async beat(): Promise<void> {
    try {
      await this.store.set(key(this.id), new Date().toISOString(), this.ttlMs);
      if (this.failing) this.options.log?.('instance heartbeat written again');
      this.failing = false;
      this.beatingSince ??= Date.now();
    } catch (err) {
      // The store is out: the heartbeat lapses and comes back with it.
      if (!this.failing) this.options.log?.('instance heartbeat not written, the store refused it', err);
      this.failing = true;
      this.beatingSince = undefined;
    }
  }
}
