/**
 * The US equity market's hours as tokenized stocks see them: the underlying trades 24/5, from
 * Monday 00:00 to Friday 24:00 UTC, and stands still at the weekend while its tokens keep trading
 * on chain. One rule for the world that simulates the underlyings and the skills that tag a
 * premium with the session it was measured in.
 */

const DAY = 86_400;
const WEEK = 7 * DAY;
/** 1970-01-01 was a Thursday: Monday 00:00 UTC is 4 days into the epoch's week. */
const MONDAY_OFFSET = 4 * DAY;

/** Whether the underlying market is in session at `time` (unix seconds): Monday 00:00 to Friday 24:00 UTC. */
export function inSession(time: number): boolean {
  const day = new Date(time * 1000).getUTCDay();
  return day >= 1 && day <= 5;
}

/** The start of the week (Monday 00:00 UTC) holding `time`. */
function weekStart(time: number): number {
  return time - ((((time - MONDAY_OFFSET) % WEEK) + WEEK) % WEEK);
}

/** The last close at or before `time`: the most recent Saturday 00:00 UTC (Friday's 24:00). */
export function lastClose(time: number): number {
  const close = weekStart(time) + 5 * DAY;
  return close <= time ? close : close - WEEK;
}

/** The next open after `time` out of session (Monday 00:00 UTC); `time` itself when in session. */
export function nextOpen(time: number): number {
  return inSession(time) ? time : weekStart(time) + WEEK;
}
