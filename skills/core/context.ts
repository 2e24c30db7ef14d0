/** What a skill handler may use: the chains and the shared store (which holds the index). Nothing of HTTP or payment. */
import type { ChainRuntime } from '../../chain/runtime.js';
import type { CurveFeed } from '../../world/curve/feed.js';
import type { SocialFeed } from '../../world/social/feed.js';
import type { AccuracyLedger } from '../forecast/ledger.js';
import type { ForecastService } from '../forecast/service.js';
import type { Store } from '../../store/store.js';
import type { Skill } from './registry.js';
import type { BitcoinSource } from '../../chain/bitcoin.js';
import type { QrngProvider } from '../quantum/qrng/engine.js';
import type { PredictionVenues } from '../prediction/venues.js';
import type { PerpVenue } from '../perps/venue.js';
import type { RecordsFeeds } from '../records/venue.js';
import type { CallsFeed } from '../callers/venue.js';

export interface SkillContext {
  readonly chains: ChainRuntime;
  readonly store: Store;
  /** The Solana launchpad feed (curve-* operations), when this deployment has one. */
  readonly curve?: CurveFeed;
  /** The social feed (get_social_hype), when this deployment has one. */
  readonly social?: SocialFeed;
  /** The Bitcoin chain (embedded, or a real Esplora), when this deployment has one. */
  readonly bitcoin?: BitcoinSource;
  /** The quantum random-number provider (QRNG_URL), when one is configured. */
  readonly qrng?: QrngProvider;
  /** The prediction-market venues (embedded or configured, per provider), unless PREDICTION is off. */
  readonly prediction?: PredictionVenues;
  /** The perp venue (embedded or configured), unless PERPS is off. */
  readonly perps?: PerpVenue;
  /** The public-records feeds (congress disclosures, contract awards), unless RECORDS is off. */
  readonly records?: RecordsFeeds;
  /** The market callers' feed and its grading prices, unless CALLS is off. */
  readonly calls?: CallsFeed;
  /** The forecast engine and its accuracy ledger, unless FORECAST is off. */
  readonly forecast?: { readonly service: ForecastService; readonly ledger: AccuracyLedger };
  /** The report agent (general-analysis and typed capability bodies). */
  readonly agent?: ReportRunner;
  /** The tool server's published list (list_service_capabilities reads it), given by the surface that serves it. */
  readonly tools?: ToolDirectory;
  readonly signal?: AbortSignal;
}

/** One tool as the tool server lists it: free, or paid from credits at a price (or range). */
export interface ListedTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly billing: 'free' | 'credits';
  readonly priceUsd?: string;
}

/** The tool list as skills see it (cards/mcp-tools.ts projects it from the registry), so skills never import a surface. */
export interface ToolDirectory {
  list(): readonly ListedTool[];
}

/**
 * The report agent as skills see it (graph/report.ts implements it): an answer to a free-form
 * prompt, or one capability of a skill run through the agent. Declared here so skills do not
 * depend on the graph that uses them.
 */
export interface ReportRunner {
  ask(request: { prompt: string; roomId?: string | undefined; userId?: string | undefined; metadata?: Record<string, unknown> | undefined }, signal?: AbortSignal): Promise<object>;
  capability(skill: Skill, input: Record<string, unknown>, signal?: AbortSignal): Promise<object>;
  /** Before payment: refuses (no_skill_fits) a prompt no skill answers well, from the prompt and its room alone. */
  screen(request: { prompt: string; roomId?: string | undefined }): Promise<void>;
}
