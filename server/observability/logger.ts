/**
 * Structured logs (pino): JSON lines for machines, pretty text on a terminal. Nothing secret is
 * written: request lines carry only chosen fields (never headers, bodies or queries), fields
 * named like secrets are censored, and errors are serialized with every long hex string (a
 * signature, its r and s, a key) cut out — a viem contract error lists its call's arguments,
 * the payment's signature among them.
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from '../config.js';

export type { Logger } from 'pino';

/** Exact paths (no wildcards: a wildcard path costs every line several microseconds). */
const CENSORED = [
  'headers', 'req.headers', 'authorization', 'privateKey', 'signature', 'accessToken', 'refreshToken', 'apiKey', 'secret',
  'payment', 'payload', 'err.signature', 'err.privateKey', 'err.config', 'err.request',
];

/** 32 bytes or more of hex: keys, signatures and their r and s (transaction hashes too, in error texts). */
const LONG_HEX = /0x[0-9a-fA-F]{64,}/g;

function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.replace(LONG_HEX, (hex) => `0x[${(hex.length - 2) / 2} bytes withheld]`);
  if (depth > 6 || value === null || typeof value !== 'object') return typeof value === 'bigint' ? value.toString() : value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, depth + 1)]));
}

/** pino's error serializer (type, message, stack, causes, own fields), then scrubbed. */
export function serializeError(err: unknown): unknown {
  return scrub(err instanceof Error ? pino.stdSerializers.err(err) : err);
}

export function createLogger(config: Config['log'], destination?: DestinationStream): Logger {
  const format = config.format ?? (process.stdout.isTTY ? 'pretty' : 'json');
  const stream = destination ?? (format === 'pretty'
    ? pretty({ sync: true, colorize: process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service', singleLine: true })
    // Asynchronous: a request never waits on stdout (lines written together are written at once); flushed on shutdown.
    : pino.destination({ sync: false }));
  return pino({
    level: config.level, base: { service: 'sibyl' },
    serializers: { err: serializeError },
    redact: { paths: CENSORED, censor: '[redacted]' },
  }, stream);
}

/** The service's internal messages (`log(msg, err?)`) as logger lines: errors with their error, the rest as warnings. */
export function messageLog(logger: Logger): (msg: string, err?: unknown) => void {
  return (msg, err) => {
    if (err === undefined || err === '') logger.warn(msg);
    else logger.error({ err }, msg);
  };
}
