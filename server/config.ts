/**
 * Every environment variable Sibyl reads, parsed in one place. The configuration table of
 * docs/operations.md documents exactly these (test/project/docs.test.ts holds it to that).
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { getAddress, isAddress, isHex, type Address, type Hex } from 'viem';
import { demoAccount, demoPrivateKey } from '../chain/accounts.js';
import { DEVNET_CHAIN_NAMES, EMBEDDED_SERVICE_TOKEN, RUNNABLE_EVM_CHAIN_NAMES, type EvmChainName } from '../chain/chains.js';
import { backendEnvName, MODEL_SLOTS } from '../skills/forecast/slots.js';
import type { ForecastConfig } from '../skills/forecast/service.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../lib/listen.js';

export { DEFAULT_HOST, DEFAULT_PORT };

/** The spec's six chains with a DEX and the stock chain. */
export const DEFAULT_EMBEDDED_CHAINS: EvmChainName[] = [...DEVNET_CHAIN_NAMES];
/** Where the embedded chains prefer to serve (the port wallets and tools try first); taken ports move. */
export const DEFAULT_EMBEDDED_RPC_PORT = 8545;

export interface ChainSource {
  readonly name: EvmChainName;
  /** Set for a chain reached by URL (a real chain, or a devnet started elsewhere). */
  readonly rpcUrl?: string;
  /** Whether the chain is the devnet Sibyl starts itself. */
  readonly embedded: boolean;
}

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly publicUrl: string | undefined;
  /**
   * Browser origins allowed on `/api/mcp` besides this server's own (PUBLIC_URL, else
   * http://HOST:PORT and its loopback equivalents); any other `Origin` is refused with 403.
   */
  readonly mcpAllowedOrigins: readonly string[];
  /**
   * Browser origins the public API answers with CORS: `*` (any origin, never with credentials), a
   * list (each listed origin reflected, with credentials), or none.
   */
  readonly cors: { readonly anyOrigin: boolean; readonly origins: readonly string[] };
  /** Structured logs (pino): level, and JSON lines or pretty text (default: pretty on a terminal). */
  readonly log: { readonly level: LogLevel; readonly format: 'json' | 'pretty' | undefined };
  /** Prometheus metrics at /metrics: off, open, or restricted to a bearer token and/or client addresses. */
  readonly metrics: { readonly enabled: boolean; readonly token: string | undefined; readonly allow: readonly string[] };
  readonly redisUrl: string | undefined;
  readonly redisPrefix: string;
  readonly chains: readonly ChainSource[];
  readonly embeddedRpcPort: number;
  /** EMBEDDED_RPC_PORT was set: a taken port stops start-up instead of moving to a free one. */
  readonly embeddedRpcPortFixed: boolean;
  readonly payTo: Address;
  readonly settlerPrivateKey: Hex | undefined;
  readonly facilitatorUrl: string | undefined;
  readonly maxTimeoutSeconds: number;
  readonly settleTimeoutMs: number;
  readonly settleBatchMax: number;
  readonly logRange: number;
  readonly indexer: { reorgDepth: number; pollMs: number };
  /** The simulated market on the embedded chains; undefined when WORLD_DAYS is 0. */
  readonly world: { seed: string; days: number; meanBlockSeconds: number; liveBlockMs: number; labelsPath: string; cacheDir: string | undefined; checkpointSeconds: number } | undefined;
  readonly logLookbackBlocks: number;
  /** The Solana launchpad feed of the curve-* operations; undefined when CURVE_FEED is off. */
  readonly curve: { kind: 'embedded'; seed: string; genesisTime: number | undefined } | undefined;
  /** The social feed of get_social_hype: the BSC world's posts (embedded), or none (SOCIAL_FEED=off). */
  readonly social: { kind: 'embedded' } | undefined;
  /**
   * The Bitcoin chain the Bitcoin engines read through the Esplora API: the embedded chain (built
   * with the world, served on a local port), a real Esplora (BITCOIN_ESPLORA_URL), or none.
   */
  readonly bitcoin:
    | { readonly kind: 'embedded'; readonly port: number }
    | { readonly kind: 'esplora'; readonly url: string; readonly indexBlocks: number; readonly entitiesFile: string | undefined }
    | undefined;
  /**
   * The prediction-market venues (PREDICTION): per provider, the real service at its configured
   * URLs (`configured`), or the venue this process serves on loopback over the world's plan
   * (undefined URLs); undefined when PREDICTION is off.
   */
  readonly prediction:
    | {
        readonly seed: string;
        readonly polymarket: { readonly gamma: string; readonly clob: string; readonly data: string } | undefined;
        readonly kalshi: string | undefined;
      }
    | undefined;
  /**
   * The perp venue (PERPS): the real Hyperliquid at its API and stats URLs (`urls`), or the venue
   * this process serves on loopback over the world's perp plan (undefined); undefined when PERPS is off.
   */
  readonly perps: { readonly seed: string; readonly urls: { readonly api: string; readonly stats: string } | undefined } | undefined;
  /**
   * The public-records feeds (RECORDS): per feed, the real service at its URL, or the feed this
   * process serves on loopback over the world's records plan (undefined); undefined when RECORDS is off.
   */
  readonly records: { readonly seed: string; readonly congress: string | undefined; readonly usaspending: string | undefined } | undefined;
  /** The market callers' feed (CALLS): a real one at its URL, or the world's (undefined); undefined when CALLS is off. */
  readonly calls: { readonly seed: string; readonly url: string | undefined } | undefined;
  /** A quantum random-number provider (ANU QRNG API format); without one, quantum randomness is refused before payment. */
  readonly qrng: { readonly url: string; readonly apiKey: string | undefined } | undefined;
  /** The forecast engine; undefined when FORECAST is off (forecasts then answer 503, uncharged). */
  readonly forecast: ForecastConfig | undefined;
  /** The report agent's language model (any OpenAI-compatible server), or none: the offline planner. */
  readonly llm: { readonly model: string; readonly baseUrl: string | undefined; readonly apiKey: string | undefined } | undefined;
  /** Tool rounds one report may run before it must answer. */
  readonly reportMaxToolRounds: number;
  /** A report's time budget; undefined: the catalogue's response-time target of the report. */
  readonly reportTimeBudgetMs: number | undefined;
  /** Whether this instance runs the free tools' snapshot jobs (any instance may; one runs each round). */
  readonly snapshotJobs: boolean;
}

export class ConfigError extends Error {}

/** `http://host:port`, an IPv6 host in brackets. */
export function httpUrl(host: string, port: number): string {
  return `http://${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

/**
 * The address to give people: PUBLIC_URL when set, else HOST and the port Sibyl listens on, an
 * all-interfaces HOST (0.0.0.0, ::) written as loopback, which a browser on this machine opens.
 */
export function reachableUrl(config: Pick<Config, 'host' | 'publicUrl'>, port: number): string {
  if (config.publicUrl) return config.publicUrl;
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '::1' : config.host;
  return httpUrl(host, port);
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const address = z.string().refine(isAddress, 'must be a 0x-prefixed 20-byte address').transform((a) => getAddress(a));
const privateKey = z.string().refine((k) => isHex(k) && k.length === 66, 'must be a 0x-prefixed 32-byte hex key').transform((k) => k as Hex);
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const envSchema = z.object({
  HOST: z.string().default(DEFAULT_HOST),
  PORT: int(0, 65_535).default(DEFAULT_PORT),
  PUBLIC_URL: z.url().optional(),
  MCP_ALLOWED_ORIGINS: z.string().default(''),
  CORS_ORIGINS: z.string().default('*'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  METRICS: z.enum(['on', 'off']).default('on'),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  METRICS_ALLOW: z.string().default(''),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://').optional(),
  REDIS_PREFIX: z.string().min(1).default('sibyl:'),
  EMBEDDED_CHAINS: z.string().default(DEFAULT_EMBEDDED_CHAINS.join(',')),
  EMBEDDED_RPC_PORT: int(0, 65_535).optional(),
  X402_PAY_TO: address.optional(),
  X402_SETTLER_PRIVATE_KEY: privateKey.optional(),
  X402_FACILITATOR_URL: z.url().optional(),
  X402_MAX_TIMEOUT_SECONDS: int(10, 3_600).default(300),
  X402_SETTLE_TIMEOUT_MS: int(1_000, 600_000).default(30_000),
  X402_SETTLE_BATCH_MAX: int(1, 500).default(50),
  CHAIN_LOG_RANGE: int(1, 1_000_000).default(10_000),
  INDEXER_REORG_DEPTH: int(0, 1_000).default(12),
  INDEXER_POLL_MS: int(100, 600_000).default(2_000),
  WORLD_SEED: z.string().min(1).max(100).default('sibyl'),
  CURVE_FEED: z.enum(['embedded', 'off']).default('embedded'),
  CURVE_GENESIS_TIME: int(0, 2 ** 40).optional(),
  SOCIAL_FEED: z.enum(['embedded', 'off']).default('embedded'),
  WORLD_DAYS: z.coerce.number().min(0).max(60).default(30),
  WORLD_BLOCK_SECONDS: int(60, 86_400).default(2_400),
  WORLD_LIVE_BLOCK_MS: int(0, 600_000).default(3_000),
  WORLD_LABELS_PATH: z.string().min(1).default('.sibyl/world-labels.json'),
  WORLD_CACHE_DIR: z.string().min(1).default('.sibyl/world-cache'),
  WORLD_CHECKPOINT_SECONDS: int(0, 86_400).default(60),
  CHAIN_LOOKBACK_BLOCKS: int(1, 100_000_000).default(200_000),
  BITCOIN: z.enum(['embedded', 'off']).default('embedded'),
  BITCOIN_ESPLORA_URL: z.url({ protocol: /^https?$/ }).optional(),
  BITCOIN_ESPLORA_PORT: int(0, 65_535).default(0),
  BITCOIN_INDEX_BLOCKS: int(1, 10_000_000).default(1_008),
  BITCOIN_ENTITIES_FILE: z.string().min(1).optional(),
  PREDICTION: z.enum(['embedded', 'off']).default('embedded'),
  POLYMARKET_GAMMA_URL: z.url({ protocol: /^https?$/ }).optional(),
  POLYMARKET_CLOB_URL: z.url({ protocol: /^https?$/ }).optional(),
  POLYMARKET_DATA_URL: z.url({ protocol: /^https?$/ }).optional(),
  KALSHI_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  PERPS: z.enum(['embedded', 'off']).default('embedded'),
  HYPERLIQUID_URL: z.url({ protocol: /^https?$/ }).optional(),
  HYPERLIQUID_STATS_URL: z.url({ protocol: /^https?$/ }).optional(),
  RECORDS: z.enum(['embedded', 'off']).default('embedded'),
  CONGRESS_TRADES_URL: z.url({ protocol: /^https?$/ }).optional(),
  USASPENDING_URL: z.url({ protocol: /^https?$/ }).optional(),
  CALLS: z.enum(['embedded', 'off']).default('embedded'),
  CALLS_FEED_URL: z.url({ protocol: /^https?$/ }).optional(),
  QRNG_URL: z.url({ protocol: /^https?$/ }).optional(),
  QRNG_API_KEY: z.string().min(1).optional(),
  FORECAST: z.enum(['on', 'off']).default('on'),
  FORECAST_THREADS: int(1, 16).default(2),
  FORECAST_BACKEND_TIMEOUT_MS: int(100, 120_000).default(10_000),
  FORECAST_SIGNING_KEY: privateKey.optional(),
  FORECAST_TOKEN_ADDRESS: address.optional(),
  FORECAST_PRECOMPUTE_MS: int(10_000, 7 * 86_400_000).default(4 * 3_600_000),
  FORECAST_JOBS: z.enum(['on', 'off']).default('on'),
  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  SIBYL_LLM_MODEL: z.string().min(1).max(200).optional(),
  REPORT_MAX_TOOL_ROUNDS: int(1, 10).default(4),
  REPORT_TIME_BUDGET_MS: int(1_000, 600_000).optional(),
  SNAPSHOT_JOBS: z.enum(['on', 'off']).default('on'),
});

/** A comma-separated list of origins (scheme://host[:port], no path), kept as URL origins. */
function parseOrigins(list: string, variable = 'MCP_ALLOWED_ORIGINS'): string[] {
  return list.split(',').map((s) => s.trim()).filter(Boolean).map((raw) => {
    let url: URL | undefined;
    try {
      url = new URL(raw);
    } catch {
      url = undefined;
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
      throw new ConfigError(`${variable}: "${raw}" is not an origin (http(s)://host[:port], no path)`);
    }
    return url.origin;
  });
}

/** A service URL as the adapters join paths to it: no trailing slash. */
const bare = (url: string) => url.replace(/\/+$/, '');

/** A real Esplora wins; the embedded chain needs the world (its prices are the world's BTC path). */
function bitcoinSource(e: z.output<typeof envSchema>): Config['bitcoin'] {
  if (e.BITCOIN_ESPLORA_URL) return { kind: 'esplora', url: bare(e.BITCOIN_ESPLORA_URL), indexBlocks: e.BITCOIN_INDEX_BLOCKS, entitiesFile: e.BITCOIN_ENTITIES_FILE };
  if (e.BITCOIN === 'off' || e.WORLD_DAYS === 0) return undefined;
  return { kind: 'embedded', port: e.BITCOIN_ESPLORA_PORT };
}

const POLYMARKET_URLS = ['POLYMARKET_GAMMA_URL', 'POLYMARKET_CLOB_URL', 'POLYMARKET_DATA_URL'] as const;

/**
 * A provider is read at its URLs when all of them are set (Polymarket's three APIs together: an
 * adapter half on the real service and half on the embedded venue would mix two worlds), else
 * from the embedded venue. Settings that contradict each other stop start-up.
 */
function predictionVenues(e: z.output<typeof envSchema>): Config['prediction'] {
  const set = ([...POLYMARKET_URLS, 'KALSHI_API_URL'] as const).filter((name) => e[name]);
  if (e.PREDICTION === 'off') {
    if (set.length) throw new ConfigError(`${set.join(', ')}: set, but PREDICTION=off turns the prediction venues off; unset ${set.length > 1 ? 'them' : 'it'}, or leave PREDICTION at embedded`);
    return undefined;
  }
  const polymarket = POLYMARKET_URLS.filter((name) => e[name]);
  if (polymarket.length && polymarket.length < POLYMARKET_URLS.length) {
    const missing = POLYMARKET_URLS.filter((name) => !e[name]);
    throw new ConfigError(`${missing.join(', ')}: required with ${polymarket.join(', ')} (Polymarket is read from its Gamma, CLOB and Data APIs together); set ${missing.length > 1 ? 'them' : 'it'}, or unset ${polymarket.join(', ')} to read the embedded venue`);
  }
  return {
    seed: e.WORLD_SEED,
    polymarket: polymarket.length ? { gamma: bare(e.POLYMARKET_GAMMA_URL!), clob: bare(e.POLYMARKET_CLOB_URL!), data: bare(e.POLYMARKET_DATA_URL!) } : undefined,
    kalshi: e.KALSHI_API_URL && bare(e.KALSHI_API_URL),
  };
}

const HYPERLIQUID_URLS = ['HYPERLIQUID_URL', 'HYPERLIQUID_STATS_URL'] as const;

/** Hyperliquid is read at its API and stats hosts together (whales are seeded from the stats host's leaderboard), else from the embedded venue. */
function perpVenue(e: z.output<typeof envSchema>): Config['perps'] {
  const set = HYPERLIQUID_URLS.filter((name) => e[name]);
  if (e.PERPS === 'off') {
    if (set.length) throw new ConfigError(`${set.join(', ')}: set, but PERPS=off turns the perp venue off; unset ${set.length > 1 ? 'them' : 'it'}, or leave PERPS at embedded`);
    return undefined;
  }
  if (set.length === 1) {
    const missing = HYPERLIQUID_URLS.find((name) => !e[name])!;
    throw new ConfigError(`${missing}: required with ${set[0]} (Hyperliquid is read from its API and its stats host's leaderboard together); set it, or unset ${set[0]} to read the embedded venue`);
  }
  return { seed: e.WORLD_SEED, urls: set.length ? { api: bare(e.HYPERLIQUID_URL!), stats: bare(e.HYPERLIQUID_STATS_URL!) } : undefined };
}

/** A feed domain switched off refuses its URL settings (they would be read by nothing). */
function offWith(domain: string, set: readonly string[]): void {
  if (set.length) throw new ConfigError(`${set.join(', ')}: set, but ${domain}=off turns ${set.length > 1 ? 'their feeds' : 'its feed'} off; unset ${set.length > 1 ? 'them' : 'it'}, or leave ${domain} at embedded`);
}

/** Each records feed (stock-watcher disclosures, USAspending awards) is read at its URL when set, else from the embedded feed. */
function recordFeeds(e: z.output<typeof envSchema>): Config['records'] {
  if (e.RECORDS === 'off') return void offWith('RECORDS', (['CONGRESS_TRADES_URL', 'USASPENDING_URL'] as const).filter((n) => e[n]));
  return { seed: e.WORLD_SEED, congress: e.CONGRESS_TRADES_URL && bare(e.CONGRESS_TRADES_URL), usaspending: e.USASPENDING_URL && bare(e.USASPENDING_URL) };
}

function callsFeed(e: z.output<typeof envSchema>): Config['calls'] {
  if (e.CALLS === 'off') return void offWith('CALLS', e.CALLS_FEED_URL ? ['CALLS_FEED_URL'] : []);
  return { seed: e.WORLD_SEED, url: e.CALLS_FEED_URL && bare(e.CALLS_FEED_URL) };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;

  const embedded = e.EMBEDDED_CHAINS.split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of embedded) {
    if (!(RUNNABLE_EVM_CHAIN_NAMES as string[]).includes(name)) {
      throw new ConfigError(`EMBEDDED_CHAINS: unknown chain "${name}" (allowed: ${RUNNABLE_EVM_CHAIN_NAMES.join(', ')})`);
    }
  }
  const mcpAllowedOrigins = parseOrigins(e.MCP_ALLOWED_ORIGINS);
  const corsAny = e.CORS_ORIGINS.trim() === '*';
  const corsOrigins = corsAny ? [] : parseOrigins(e.CORS_ORIGINS, 'CORS_ORIGINS');
  const metricsAllow = e.METRICS_ALLOW.split(',').map((s) => s.trim()).filter(Boolean);
  for (const ip of metricsAllow) if (!isIP(ip)) throw new ConfigError(`METRICS_ALLOW: "${ip}" is not an IP address`);

  const chains: ChainSource[] = [];
  for (const name of RUNNABLE_EVM_CHAIN_NAMES) {
    const rpcUrl = env[`CHAIN_RPC_URL_${name.toUpperCase()}`];
    if (rpcUrl) {
      if (!/^https?:\/\//.test(rpcUrl)) throw new ConfigError(`CHAIN_RPC_URL_${name.toUpperCase()}: must be an http(s) URL`);
      chains.push({ name, rpcUrl, embedded: false });
    } else if (embedded.includes(name)) chains.push({ name, embedded: true });
  }

  const baseIsEmbedded = chains.some((c) => c.name === 'base' && c.embedded);
  // The demo settler key only holds gas on the embedded devnet; a real Base needs a real one.
  const settlerPrivateKey = e.X402_SETTLER_PRIVATE_KEY ?? (baseIsEmbedded ? demoPrivateKey(0) : undefined);
  if (!e.X402_FACILITATOR_URL && !settlerPrivateKey && chains.some((c) => c.name === 'base')) {
    throw new ConfigError('X402_SETTLER_PRIVATE_KEY or X402_FACILITATOR_URL is required when Base is a real chain');
  }

  const backends: Record<string, string> = {};
  for (const slot of MODEL_SLOTS) {
    const url = env[backendEnvName(slot.id)];
    if (!url) continue;
    if (!/^https?:\/\//.test(url)) throw new ConfigError(`${backendEnvName(slot.id)}: must be an http(s) URL`);
    backends[slot.id] = url;
  }

  return {
    host: e.HOST,
    port: e.PORT,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    mcpAllowedOrigins,
    cors: { anyOrigin: corsAny, origins: corsOrigins },
    log: { level: e.LOG_LEVEL, format: e.LOG_FORMAT },
    metrics: { enabled: e.METRICS === 'on', token: e.METRICS_TOKEN, allow: metricsAllow },
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    chains,
    embeddedRpcPort: e.EMBEDDED_RPC_PORT ?? DEFAULT_EMBEDDED_RPC_PORT,
    embeddedRpcPortFixed: e.EMBEDDED_RPC_PORT !== undefined,
    payTo: e.X402_PAY_TO ?? demoAccount(0).address,
    settlerPrivateKey,
    facilitatorUrl: e.X402_FACILITATOR_URL,
    maxTimeoutSeconds: e.X402_MAX_TIMEOUT_SECONDS,
    settleTimeoutMs: e.X402_SETTLE_TIMEOUT_MS,
    settleBatchMax: e.X402_SETTLE_BATCH_MAX,
    logRange: e.CHAIN_LOG_RANGE,
    indexer: { reorgDepth: e.INDEXER_REORG_DEPTH, pollMs: e.INDEXER_POLL_MS },
    world: e.WORLD_DAYS > 0
      ? { seed: e.WORLD_SEED, days: e.WORLD_DAYS, meanBlockSeconds: e.WORLD_BLOCK_SECONDS, liveBlockMs: e.WORLD_LIVE_BLOCK_MS, labelsPath: e.WORLD_LABELS_PATH, cacheDir: e.WORLD_CACHE_DIR === 'off' ? undefined : e.WORLD_CACHE_DIR, checkpointSeconds: e.WORLD_CHECKPOINT_SECONDS }
      : undefined,
    logLookbackBlocks: e.CHAIN_LOOKBACK_BLOCKS,
    curve: e.CURVE_FEED === 'embedded' ? { kind: 'embedded', seed: e.WORLD_SEED, genesisTime: e.CURVE_GENESIS_TIME } : undefined,
    social: e.SOCIAL_FEED === 'embedded' ? { kind: 'embedded' } : undefined,
    bitcoin: bitcoinSource(e),
    prediction: predictionVenues(e),
    perps: perpVenue(e),
    records: recordFeeds(e),
    calls: callsFeed(e),
    qrng: e.QRNG_URL ? { url: e.QRNG_URL.replace(/\/$/, ''), apiKey: e.QRNG_API_KEY } : undefined,
    // A model is used only when named; OPENAI_BASE_URL alone (or a key alone) leaves the offline planner.
    llm: e.SIBYL_LLM_MODEL ? { model: e.SIBYL_LLM_MODEL, baseUrl: e.OPENAI_BASE_URL, apiKey: e.OPENAI_API_KEY } : undefined,
    reportMaxToolRounds: e.REPORT_MAX_TOOL_ROUNDS,
    reportTimeBudgetMs: e.REPORT_TIME_BUDGET_MS,
    snapshotJobs: e.SNAPSHOT_JOBS === 'on',
    forecast: e.FORECAST === 'on'
      ? {
          threads: e.FORECAST_THREADS,
          backends,
          backendTimeoutMs: e.FORECAST_BACKEND_TIMEOUT_MS,
          signingKey: e.FORECAST_SIGNING_KEY,
          tokenAddress: e.FORECAST_TOKEN_ADDRESS ?? EMBEDDED_SERVICE_TOKEN,
          jobs: e.FORECAST_JOBS === 'on',
          precomputeIntervalMs: e.FORECAST_PRECOMPUTE_MS,
        }
      : undefined,
  };
}
