/** What a skill handler may use: the chains and the shared store (which holds the index). Nothing of HTTP or payment. */
import type { ChainRuntime } from '../chain/runtime.js';
import type { CurveFeed } from '../world/curve/feed.js';
import type { AccuracyLedger } from './forecast/ledger.js';
import type { ForecastService } from './forecast/service.js';
import type { Store } from '../store/store.js';
import type { ReportAgent } from '../graph/report.js';

export interface SkillContext {
  readonly chains: ChainRuntime;
  readonly store: Store;
  /** The Solana launchpad feed (curve-* operations), when this deployment has one. */
  readonly curve?: CurveFeed;
  /** The forecast engine and its accuracy ledger, unless FORECAST is off. */
  readonly forecast?: { readonly service: ForecastService; readonly ledger: AccuracyLedger };
  /** The report agent (general-analysis and typed capability bodies). */
  readonly agent?: ReportAgent;
  readonly signal?: AbortSignal;
}
