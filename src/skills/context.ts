/** What a skill handler may use: the chains and the shared store. Nothing of HTTP or payment. */
import type { ChainRuntime } from '../chain/runtime.js';
import type { Store } from '../store/store.js';

export interface SkillContext {
  readonly chains: ChainRuntime;
  readonly store: Store;
  /** Bounds for log scans on real chains. */
  readonly logs: { readonly range: number; readonly lookbackBlocks: number };
  readonly signal?: AbortSignal;
}
