/**
 * The launchpad feed the Solana-only `curve-*` operations read: pump-style bonding-curve
 * launches, their trades and their curve state, and (when the feed carries them) the trades of
 * the AMM pools graduated tokens migrate to. The embedded venue implements it; an adapter for a
 * real venue (a Solana RPC or an indexer API) implements the same interface.
 */
export interface CurveLaunch {
  readonly mint: string; // base58
  readonly creator: string; // base58
  readonly name: string;
  readonly symbol: string;
  readonly time: number; // unix seconds
  readonly slot: number;
  readonly signature: string;
}

export interface CurveTrade {
  readonly signature: string;
  readonly mint: string;
  readonly trader: string;
  readonly side: 'buy' | 'sell';
  readonly sol: number; // SOL moved through the curve, fee excluded
  readonly tokens: number;
  readonly time: number;
  readonly slot: number;
  /** Curve state right after the trade. */
  readonly virtualSol: number;
  readonly virtualTokens: number;
  readonly realSol: number;
  readonly progressPct: number;
}

/** A trade on the AMM pool a graduated token migrated to. */
export interface CurvePoolTrade {
  readonly signature: string;
  readonly mint: string;
  readonly pool: string; // base58
  readonly trader: string;
  readonly side: 'buy' | 'sell';
  /** SOL into the pool (buy, fee included: it stays in the pool) or out of it (sell). */
  readonly sol: number;
  readonly tokens: number;
  readonly time: number;
  readonly slot: number;
  /** Pool reserves right after the trade. */
  readonly reserveSol: number;
  readonly reserveTokens: number;
}

export interface CurveState {
  readonly mint: string;
  readonly virtualSol: number;
  readonly virtualTokens: number;
  readonly realSol: number;
  readonly tokensSold: number;
  readonly progressPct: number;
  /** Time of the last trade on the curve, null when it never traded. */
  readonly lastTradeTime: number | null;
  readonly graduated: { readonly time: number; readonly slot: number } | null;
  /** The AMM pool the token moved to, with its reserves now. */
  readonly migration: { readonly pool: string; readonly time: number; readonly reserveSol: number; readonly reserveTokens: number } | null;
}

export interface CurveVenueParams {
  readonly name: string;
  readonly totalSupply: number;
  readonly curveSupply: number;
  readonly initialVirtualSol: number;
  readonly initialVirtualTokens: number;
  readonly feeBps: number;
}

export interface CurveFeed {
  /** `embedded` for the simulated venue, otherwise the adapter's name. */
  readonly source: string;
  readonly venue: CurveVenueParams;
  /** Unix seconds of the feed's earliest record; absent when it holds the venue's whole history. */
  readonly historyStart?: number;
  head(): Promise<{ slot: number; time: number }>;
  launches(fromTime: number, toTime: number): Promise<CurveLaunch[]>;
  trades(fromTime: number, toTime: number): Promise<CurveTrade[]>;
  /** Current state of the given mints (all known when omitted). */
  states(mints?: readonly string[]): Promise<CurveState[]>;
  /** Trades of the migrated tokens' AMM pools; absent when the feed carries curve trades only. */
  poolTrades?(fromTime: number, toTime: number): Promise<CurvePoolTrade[]>;
  /** SOL in USD at a moment, and where that price comes from. */
  solUsd(time: number): Promise<{ usd: number; source: string } | null>;
}
