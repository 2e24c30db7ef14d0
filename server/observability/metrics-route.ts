/**
 * `GET /metrics` in Prometheus's text format. Restricted by configuration: METRICS_TOKEN asks for
 * `Authorization: Bearer <token>`, METRICS_ALLOW for one of the listed client addresses (both
 * when both are set); METRICS=off leaves the route out.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Express, Request } from 'express';
import { SibylError } from '../../skills/core/errors.js';
import type { Config } from '../config.js';
import type { Metrics } from './metrics.js';
import { ROUTES } from '../../cards/routes.js';

/** An IPv4 client seen through an IPv6 socket (::ffff:127.0.0.1) compares as IPv4. */
const plainIp = (ip: string) => ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');

function allowed(req: Request, config: Config['metrics']): void {
  if (config.allow.length && !config.allow.map(plainIp).includes(plainIp(req.socket.remoteAddress ?? ''))) {
    throw new SibylError('forbidden', 'metrics: this client address is not in METRICS_ALLOW');
  }
  if (config.token) {
    const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1] ?? '');
    const expected = Buffer.from(config.token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new SibylError('unauthorized', 'metrics: send Authorization: Bearer <METRICS_TOKEN>', { wwwAuthenticate: 'Bearer realm="metrics"' });
    }
  }
}

export function mountMetrics(app: Express, metrics: Metrics, config: Config['metrics']): void {
  app.get(ROUTES.metrics, async (req, res) => {
    allowed(req, config);
    res.set('Content-Type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
