/** What the embedded prediction venues share: an answer's form, their page cap, tick and times. */

/** A venue's answer to one request: a status and a JSON body. */
export interface VenueAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** Pages cap at this many rows, as the real venues' do. */
export const MAX_PAGE = 1_000;
/** Prices move in cents. */
export const TICK = 0.01;

export function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}
