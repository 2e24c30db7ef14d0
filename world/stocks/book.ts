/**
 * A trader's record in tokenized stocks at average cost: what each position cost in USD, and the
 * profit realised when it is sold (proceeds less the sold part's cost). Fees and price impact are
 * in the amounts themselves, as the pool's swap gave them.
 */

export interface Position {
  /** Raw token units held. */
  qty: bigint;
  costUsd: number;
}

export class Book {
  readonly positions = new Map<string, Position>();
  realisedUsd = 0;
  trades = 0;
  volumeUsd = 0;

  buy(token: string, qty: bigint, usd: number): void {
    const p = this.positions.get(token) ?? { qty: 0n, costUsd: 0 };
    p.qty += qty;
    p.costUsd += usd;
    this.positions.set(token, p);
    this.trades++;
    this.volumeUsd += usd;
  }

  /** Sells `qty` of `token` for `usd`; the profit realised. */
  sell(token: string, qty: bigint, usd: number): number {
    const p = this.positions.get(token);
    if (!p || p.qty <= 0n || qty <= 0n) return 0;
    const part = qty >= p.qty ? 1 : Number(qty) / Number(p.qty);
    const cost = p.costUsd * part;
    p.qty -= qty >= p.qty ? p.qty : qty;
    p.costUsd -= cost;
    if (p.qty === 0n) this.positions.delete(token);
    const pnl = usd - cost;
    this.realisedUsd += pnl;
    this.trades++;
    this.volumeUsd += usd;
    return pnl;
  }

  held(token: string): bigint {
    return this.positions.get(token)?.qty ?? 0n;
  }

  toJSON(): { positions: [string, string, number][]; realisedUsd: number; trades: number; volumeUsd: number } {
    return { positions: [...this.positions].map(([t, p]) => [t, p.qty.toString(), p.costUsd]), realisedUsd: this.realisedUsd, trades: this.trades, volumeUsd: this.volumeUsd };
  }

  static from(saved: ReturnType<Book['toJSON']>): Book {
    const book = new Book();
    for (const [t, qty, costUsd] of saved.positions) book.positions.set(t, { qty: BigInt(qty), costUsd });
    book.realisedUsd = saved.realisedUsd;
    book.trades = saved.trades;
    book.volumeUsd = saved.volumeUsd;
    return book;
  }
}
