/**
 * Structured logs (pino): JSON lines for machines, pretty text on a terminal. Whatever is logged,
 * payment headers, bearer tokens, keys and signatures are redacted by path, and the request lines
 * (./http-log.ts) carry only chosen fields, never headers or bodies.
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from '../config.js';

export type { Logger } from 'pino';

const REDACTED = [
  'req.headers', 'headers.authorization', 'headers["x-payment"]', 'headers["payment-signature"]',
  '*.privateKey', '*.signature', '*.apiKey', '*.accessToken', '*.refreshToken', '*.secret',
];

export function createLogger(config: Config['log'], destination?: DestinationStream): Logger {
  const format = config.format ?? (process.stdout.isTTY ? 'pretty' : 'json');
  const stream = destination ?? (format === 'pretty'
    ? pretty({ sync: true, colorize: process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' })
    // Asynchronous: a request never waits on stdout (lines written together are written at once); flushed on shutdown.
    : pino.destination({ sync: false }));
  return pino({ level: config.level, base: { service: 'sibyl' }, redact: { paths: REDACTED, censor: '[redacted]' } }, stream);
}

/** The service's internal messages (`log(msg, err?)`) as logger lines: errors with their error, the rest as warnings. */
export function messageLog(logger: Logger): (msg: string, err?: unknown) => void {
  return (msg, err) => {
    if (err === undefined || err === '') logger.warn(msg);
    else logger.error({ err }, msg);
  };
}
