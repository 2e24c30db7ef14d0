/**
 * What a settlement transaction offers for gas, without asking the node on every send. A send
 * that asks (viem fills fees and gas itself) waits on two or three extra round trips before it
 * is signed; on the paid path that is most of a settlement's latency. Here:
 *   - fees are read at most once per `refreshMs` (in the background once known), and the cap
 *     offered is twice the base fee plus the tip, so a fee read a block or two ago still clears
 *     (EIP-1559: the base fee moves at most 12.5 % a block, and only what is used is paid);
 *   - gas is a bound per call rather than an estimate: every call of a batch is the same
 *     `transferWithAuthorization`, whose cost is bounded (signature recovery, two balances, one
 *     authorization slot, one event; about 60-80k gas on USDC), and an estimate of a batch whose
 *     calls may fail (aggregate3 allows it) would under-count the ones that succeed.
 */
import type { PublicClient } from 'viem';

/** Gas for the aggregate3 call itself, and for each transferWithAuthorization inside it. */
export const BATCH_BASE_GAS = 60_000n;
export const PER_TRANSFER_GAS = 130_000n;

export function batchGasLimit(calls: number): bigint {
  return BATCH_BASE_GAS + PER_TRANSFER_GAS * BigInt(calls);
}

export interface Fees {
  readonly maxFeePerGas: bigint;
  readonly maxPriorityFeePerGas: bigint;
}

export class SettlerFees {
  private fees: Fees | undefined;
  private readAt = 0;
  private reading: Promise<Fees> | undefined;

  /**
   * @param refreshMs past this age a send still uses the last read while a new one is made
   * @param maxAgeMs past this age (or with none) a send waits for a new read
   */
  constructor(private readonly client: PublicClient, private readonly refreshMs = 2_000, private readonly maxAgeMs = 30_000) {}

  async current(): Promise<Fees> {
    const age = Date.now() - this.readAt;
    if (!this.fees || age > this.maxAgeMs) return this.read();
    if (age > this.refreshMs) void this.read().catch(() => {});
    return this.fees;
  }

  /** Forget the last read (a send was refused as underpriced). */
  forget(): void {
    this.fees = undefined;
  }

  private read(): Promise<Fees> {
    this.reading ??= (async () => {
      try {
        const block = await this.client.getBlock({ blockTag: 'latest' });
        const tip = await this.client.estimateMaxPriorityFeePerGas().catch(() => 0n);
        const baseFee = block.baseFeePerGas ?? (await this.client.getGasPrice());
        this.fees = { maxFeePerGas: baseFee * 2n + tip, maxPriorityFeePerGas: tip };
        this.readAt = Date.now();
        return this.fees;
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }
}
