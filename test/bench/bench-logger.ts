/** Benchmarked servers log every request as in production (info, JSON lines), into /dev/null so the figures stay readable. */
import pino from 'pino';
import { createLogger } from '../../server/observability/logger.js';

export const benchLogger = () => createLogger({ level: (process.env.BENCH_LOG_LEVEL ?? 'info') as 'info', format: 'json' }, pino.destination({ dest: '/dev/null', sync: false }));
