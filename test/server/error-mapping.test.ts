/** A store outage is an upstream outage (503, nothing charged), not an unexpected failure (500). */
import { describe, expect, it } from 'vitest';
import { toSibylError } from '../../skills/core/error-mapping.js';
import { ClientClosedError, SocketClosedUnexpectedlyError } from 'redis';
import { StoreTimeoutError } from '../../store/deadline.js';

describe('error mapping', () => {
  it('a store that does not answer, or whose connection is gone, is 503 upstream_unavailable', () => {
    // node-redis's own errors (their name is plain 'Error': recognised by class), bare and wrapped as a cause.
    const wrapped = new Error('settler nonce unavailable', { cause: new SocketClosedUnexpectedlyError() });
    for (const err of [new StoreTimeoutError('get took too long'), new ClientClosedError(), wrapped]) {
      const mapped = toSibylError(err);
      expect(mapped.code).toBe('upstream_unavailable');
      expect(mapped.status).toBe(503);
    }
  });

  it('anything else unexpected stays internal_error', () => {
    expect(toSibylError(new Error('boom')).code).toBe('internal_error');
  });
});
