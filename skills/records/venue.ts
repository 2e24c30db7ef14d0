/** The records skills' access to the disclosure and award feeds: what this deployment reads them from, or a refusal before payment. */
import { SibylError } from '../core/errors.js';
import type { SkillContext } from '../core/context.js';
import type { RecordsSource } from './source.js';

/** The adapter over both feeds and which kind each is: `embedded` (served by this process over its world) or `configured` (the real service). */
export interface RecordsFeeds extends RecordsSource {
  readonly kind: { readonly congress: 'embedded' | 'configured'; readonly usaspending: 'embedded' | 'configured' };
}

export const NO_RECORDS = 'this deployment has no public-records feeds (RECORDS=off)';

export function recordsFeeds(ctx: SkillContext): RecordsFeeds {
  if (!ctx.records) throw new SibylError('domain_disabled', `${NO_RECORDS}; nothing was charged`, { reason: 'domain_disabled' });
  return ctx.records;
}

/** Where an answer came from: each feed, how it is read, and its URL. */
export function recordsProvenance(feeds: RecordsFeeds, read: readonly ('congress' | 'usaspending')[]) {
  return {
    source: read.map((f) => `${f === 'congress' ? 'stock-watcher' : 'usaspending'} (${feeds.kind[f]})`).join(', '),
    origins: Object.fromEntries(read.map((f) => [f === 'congress' ? 'stock-watcher' : 'usaspending', feeds.urls[f]])),
  };
}
