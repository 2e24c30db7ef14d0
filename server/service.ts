/**
 * Assembles a running Sibyl from a Config: the embedded devnet (for chains without an RPC
 * URL), the off-chain venues, the chain clients, the store, the facilitator and paywall, and the HTTP server.
 * `npm start` and the tests both come through here.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CHAINS, PAYMENT_CHAIN, type EvmChainName } from '../chain/chains.js';
import { PortTakenError } from '../chain/anvil.js';
import { startDevnet, type Devnet } from '../chain/devnet.js';
import { ChainRuntime } from '../chain/runtime.js';
import { ConfigError, httpUrl, type Config } from './config.js';
import { localFacilitator, remoteFacilitator, type Facilitator } from '../payments/facilitator.js';
import { Paywall } from '../payments/paywall.js';
import { SettlementLedger } from '../payments/settlements.js';
import { Outbox } from '../payments/outbox.js';
import { Instance, type InstanceOptions } from '../payments/instance.js';
import { startReconciler } from '../payments/reconciler.js';
import { defaultCurveGenesis, EmbeddedCurveVenue } from '../world/curve/embedded.js';
import { EmbeddedSocialFeed } from '../world/social/embedded.js';
import type { SocialFeed } from '../world/social/feed.js';
import type { BitcoinSource } from '../chain/bitcoin.js';
import { startIndexedBitcoin } from './bitcoin.js';
import { startPrediction } from './prediction.js';
import { startPerps } from './perps.js';
import { startRecords } from './records.js';
import { startCalls } from './callers.js';
import { FUNDING_CHAIN } from '../skills/prediction/funding.js';
import { STOCK_FEED_CHAIN } from '../chain/stocks.js';
import { qrngProviderFromConfig } from '../skills/quantum/qrng/engine.js';
import { createApp } from './app.js';
import { HealthMonitor } from './health.js';
import { answerClientErrors } from './errors.js';
import { createRegistry, type SkillId } from '../skills/catalog/index.js';
import { worldGenesisTimestamp } from '../world/index.js';
import { prepareEmbeddedMarket, type WorldCacheOutcome } from '../world/embedded.js';
import { ChainIndexer } from '../indexer/indexer.js';
import type { Registry, Skill } from '../skills/core/registry.js';
import { plannerModel, readinessWarning } from '../agent/model.js';
import { ReportAgent } from '../graph/report.js';
import { StoreCheckpointSaver } from '../graph/checkpointer.js';
import { SnapshotJobs } from './mcp/snapshots.js';
import { snapshotJobs } from '../skills/core/snapshots.js';
import type { SkillContext } from '../skills/core/context.js';
import { openStore, type Store } from '../store/index.js';
import { checkPersistence } from '../store/persistence.js';
import { ForecastService } from '../skills/forecast/service.js';
import { AccuracyLedger } from '../skills/forecast/ledger.js';
import { startForecastJobs } from '../skills/forecast/jobs.js';
import { ForecastAccess } from '../skills/forecast/access.js';
import { createLogger, messageLog, type Logger } from './observability/logger.js';

/** The report agent over the registry's agent skills, with the configured planner; rooms kept in the store. */
function reportAgent(config: Config, registry: Registry, context: SkillContext, store: Store, log: (msg: string) => void): ReportAgent {
  const report = registry.byId('general-analysis' satisfies SkillId);
  const model = plannerModel(config.llm, registry);
  // Said once at start-up, without waiting for it: a model server may come up after Sibyl.
  void model.probe().then((r) => {
    const warning = readinessWarning(r);
    if (warning) log(warning);
  });
  return new ReportAgent({
    registry,
    model,
    context,
    store,
    checkpointer: new StoreCheckpointSaver(store),
    maxToolRounds: config.reportMaxToolRounds,
    timeBudgetMs: config.reportTimeBudgetMs ?? report!.catalog!.timeTargetSeconds * 1000,
    secrets: [config.settlerPrivateKey, config.forecast?.signingKey, config.llm?.apiKey, config.redisUrl, config.facilitatorUrl, config.llm?.baseUrl].filter((s): s is string => !!s),
  });
}

/**
 * Seconds between an embedded chain's state dumps: the most of its history a restart can lose.
 * Base carries the payments and is dumped often; a month-long world chain's dump is ~110 MB and
 * costs anvil ~0.6 s of CPU, so the others are dumped rarely.
 */
const EMBEDDED_STATE_INTERVAL_SECONDS = { payments: 10, other: 60 };

/** Blocks per getLogs on an embedded chain (a world block holds a few hundred logs). */
export const EMBEDDED_LOG_RANGE = 25;

/**
 * Start-up progress of each chain's indexer: a line at most every 2 s per chain while a pass that
 * has more than a few windows to read runs (a first start reads the world's whole history).
 */
function indexingProgress(onProgress: ((msg: string) => void) | undefined) {
  return (chain: string) => {
    if (!onProgress) return undefined;
    let said = 0;
    return (reached: number, start: number, head: number) => {
      const now = Date.now();
      if (now - said < 2_000 || reached >= head) return;
      said = now;
      const pct = Math.round((100 * (reached - start + 1)) / (head - start + 1));
      onProgress(`indexing ${chain}: block ${reached} of ${head} (${pct}% of this pass)`);
    };
  };
}

export interface Sibyl {
  readonly url: string;
  /** The embedded world's cache at this start: loaded, written (durably, before this resolved), not written, or off. */
  readonly worldCache: WorldCacheOutcome | undefined;
  readonly port: number;
  readonly chains: ChainRuntime;
  readonly store: Store;
  readonly ledger: SettlementLedger;
  /** Store writes owed after settlements, kept until the store takes them. */
  readonly outbox: Outbox;
  readonly devnet: Devnet | undefined;
  readonly facilitator: Facilitator;
  /** What skill handlers see (tests drive the forecast jobs through it). */
  readonly context: SkillContext;
  /** The free tools' snapshot jobs (tests run them directly). */
  readonly snapshots: SnapshotJobs;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Extra skills (tests use this to register a skill that fails). */
  extraSkills?: readonly Skill<any>[];
  /** Structured logs (request lines, messages); default: one made from LOG_LEVEL and LOG_FORMAT. */
  logger?: Logger;
  /** Where the service's own messages go (default: the logger's warn/error lines). */
  log?: (msg: string, err?: unknown) => void;
  onProgress?: (msg: string) => void;
  reconcileIntervalMs?: number;
  /** This instance's heartbeat (tests shorten it). */
  instance?: InstanceOptions;
  /** Seconds between state dumps of each embedded chain (tests shorten it). */
  embeddedStateIntervalSeconds?: number;
  /** A social feed given by the caller (tests hand in the feed of a world they built), over SOCIAL_FEED's. */
  socialFeed?: SocialFeed;
  /** A Bitcoin chain given by the caller (tests hand in an embedded chain they built), over BITCOIN's. */
  bitcoin?: BitcoinSource;
  /** How OAuth fetches client metadata documents (tests, without a network, serve them); default: the network. */
  fetchClientDocument?: typeof fetch;
}

export async function startSibyl(config: Config, options: StartOptions = {}): Promise<Sibyl> {
  const logger = options.logger ?? createLogger(config.log);
  const log = options.log ?? messageLog(logger);
  if (!config.chains.some((c) => c.name === PAYMENT_CHAIN)) {
    throw new ConfigError(`payments settle on ${PAYMENT_CHAIN}: embed it (EMBEDDED_CHAINS) or set CHAIN_RPC_URL_BASE`);
  }
  const embedded = config.chains.filter((c) => c.embedded).map((c) => c.name);
  const world = embedded.length ? config.world : undefined;
  const market = world && (await prepareEmbeddedMarket(world, embedded));
  // Set once the facilitator exists: a restarted chain may have lost its last blocks.
  let afterChainRestart: (name: string) => void = () => {};
  const devnet = embedded.length
    ? await startDevnet({
        chains: embedded,
        basePort: config.embeddedRpcPort,
        // A port set explicitly is a requirement; the default one only a preference.
        ifPortTaken: config.embeddedRpcPortFixed ? 'fail' : 'free-port',
        onProgress: options.onProgress,
        ...(world && { genesisTimestamp: worldGenesisTimestamp(world.days), fifo: true }),
        ...(market?.restore && { restore: market.restore }),
        ...(market && { restartStates: (name: EvmChainName) => market.restartStates(name) }),
        // A node that dies is started again from its last dump: at most this many seconds of blocks are lost.
        stateIntervalSeconds: (name) => options.embeddedStateIntervalSeconds ?? (name === PAYMENT_CHAIN ? EMBEDDED_STATE_INTERVAL_SECONDS.payments : EMBEDDED_STATE_INTERVAL_SECONDS.other),
        onRestart: (name, from) => {
          log(`embedded chain ${name} died and was restarted from ${from}`);
          afterChainRestart(name);
        },
      }).catch((err: unknown) => {
        if (!(err instanceof PortTakenError)) throw err;
        throw new ConfigError(`EMBEDDED_RPC_PORT: ${err.message}, and Sibyl never uses a node it did not start. Free the port, choose another EMBEDDED_RPC_PORT, or leave it unset to let taken ports move to free ones`);
      })
    : undefined;

  const resources: { close(): Promise<void> }[] = devnet ? [{ close: () => devnet.stop() }] : [];
  // The embedded launchpad venue's history covers the spec's longest period (30 days); it
  // writes it in slices while the world waits on the chains.
  // SOL/USD on the venue is the reference path every chain's SOL pools follow.
  const curve = config.curve && new EmbeddedCurveVenue({ seed: config.curve.seed, genesisTime: config.curve.genesisTime ?? defaultCurveGenesis(), ...(market && { reference: market.reference }) });
  const curveStarted = Date.now();
  const curveReady = curve?.warm().then(async () => {
    const { time } = await curve.head();
    options.onProgress?.(`solana launchpad venue (embedded): ${(await curve.launches(0, time)).length} launches in ${Date.now() - curveStarted} ms`);
  });
  curveReady?.catch(() => undefined); // awaited below; a failure before then must not go unhandled
  try {
    let social = options.socialFeed;
    // Built and indexed while the EVM world writes its history (that waits on the chains more than on this process).
    const bitcoinReady = startIndexedBitcoin(config, market, options.bitcoin, log, options.onProgress);
    bitcoinReady?.catch(() => undefined); // awaited below; a failure before then must not go unhandled
    // Closed with the rest even when start-up fails before it is awaited.
    resources.unshift({ close: async () => (await bitcoinReady.catch(() => undefined))?.close() });
    // The world's paths (the Polygon world module funds the traders of the same plan); without a world, the Solana venue's.
    const prediction = config.prediction && (await startPrediction(config.prediction, market?.reference ?? curve?.reference, options.onProgress));
    if (prediction) resources.unshift(prediction);
    const perps = config.perps && (await startPerps(config.perps, market?.reference ?? curve?.reference, options.onProgress));
    if (perps) resources.unshift(perps);
    const reference = market?.reference ?? curve?.reference;
    const records = config.records && (await startRecords(config.records, reference?.origin, options.onProgress));
    if (records) resources.unshift(records);
    const calls = config.calls && (await startCalls(config.calls, reference, options.onProgress));
    if (calls) resources.unshift(calls);
    if (market && devnet) {
      const running = await market.start(devnet, options.onProgress);
      resources.unshift({ close: async () => running.stop() });
      // The embedded social feed is the posts the BSC world writes: there only when this process runs it.
      if (config.social) social ??= EmbeddedSocialFeed.of(running.worlds);
    }
    const chains = new ChainRuntime();
    for (const c of config.chains) {
      if (c.embedded) {
        const node = devnet!.chains.find((d) => d.name === c.name)!;
        chains.add(c.name, node.rpcUrl, 'embedded', node.node);
      }
      else chains.add(c.name, c.rpcUrl!, 'rpc');
    }
    const store = await openStore(config.redisUrl, config.redisPrefix, (err) => log(`store: ${err.message} (reconnecting; store calls fail meanwhile)`));
    resources.unshift(store);
    // Credits, bearer tokens and settlements live only in the store: say so when it would not survive a restart.
    const persistence = await checkPersistence(store);
    if (persistence.warning) log(`warning: ${persistence.warning}`);
    await market?.prepareIndex(store);

    // Each indexer follows its chain with one pass at a time, polling only after its first pass.
    // Embedded chains are indexed to head before serving, and followed only once the world cache
    // is written (a state dump holds its node for seconds); a real chain's lookback may take long,
    // so its first pass runs in the background (health shows how far it has come).
    // An embedded node answers whole days of a busy world in one getLogs only slowly: it is read in short ranges.
    const range = (c: { source: string }) => (c.source === 'embedded' ? Math.min(config.logRange, EMBEDDED_LOG_RANGE) : config.logRange);
    const indexing = indexingProgress(options.onProgress);
    const indexers = chains.list().map((c) => new ChainIndexer(c, store, { range: range(c), reorgDepth: config.indexer.reorgDepth, lookbackBlocks: config.logLookbackBlocks, onWindow: indexing(c.name) }));
    resources.unshift({ close: async () => void (await Promise.all(indexers.map((i) => i.stop()))) });
    const follow = (i: ChainIndexer) => i.start(config.indexer.pollMs, (err) => log(`indexer ${i.chain.name} failed`, err));
    const indexStarted = Date.now();
    for (const i of indexers.filter((x) => x.chain.source === 'rpc')) follow(i).catch((err) => log(`indexer ${i.chain.name} failed`, err));
    const embeddedIndexers = indexers.filter((i) => i.chain.source === 'embedded');
    const logsRead = await Promise.all(embeddedIndexers.map(async (i) => {
      let read = await i.sync();
      // Never serve an embedded chain half indexed: passes go on until one reaches the head.
      for (let attempt = 0; !(await i.atHead()); attempt++) {
        if (attempt >= 5) throw new Error(`indexing ${i.chain.name} did not reach the chain's head`);
        read += await i.sync();
      }
      return read;
    }));
    if (logsRead.length) options.onProgress?.(`indexed ${logsRead.reduce((a, b) => a + b, 0)} logs on ${logsRead.length} embedded chains in ${Date.now() - indexStarted} ms`);
    const worldCache = market ? await market.indexed(store, (err) => log('world block failed', err), options.onProgress) : undefined;
    for (const i of embeddedIndexers) follow(i).catch((err) => log(`indexer ${i.chain.name} failed`, err));

    const baseChain = chains.get(PAYMENT_CHAIN);
    const local = config.facilitatorUrl ? undefined : localFacilitator(baseChain, config.settlerPrivateKey!, config.settleTimeoutMs, config.settleBatchMax, store);
    const facilitator: Facilitator = local ?? remoteFacilitator(config.facilitatorUrl!, config.settleTimeoutMs);
    if (local) afterChainRestart = (name) => void (name === PAYMENT_CHAIN && local.forgetNonces().catch((err) => log('settler nonce resync failed', err)));
    const terms = { asset: CHAINS[PAYMENT_CHAIN].usdc, payTo: config.payTo, maxTimeoutSeconds: config.maxTimeoutSeconds };
    // Pending settlements are submitted again (by any instance) until they land or expire.
    const ledger = new SettlementLedger(store, baseChain, terms.asset, {
      resubmit: (payload, requirements) => facilitator.settle(payload, requirements),
      lockMs: config.settleTimeoutMs + 60_000,
      log,
      ...(local && { beforeResubmittingLost: () => local.forgetNonces() }),
    });
    const outbox = new Outbox({ log });
    // Reservations name this instance; what a dead one left is taken over by the others.
    const instance = new Instance(store, { log, ...options.instance });
    const paywall = new Paywall(terms, facilitator, store, ledger, baseChain.spec.chainId, log, outbox, { instance, chain: baseChain });
    await curveReady;
    const forecast = config.forecast && { service: new ForecastService(config.forecast), ledger: new AccuracyLedger(store) };
    if (forecast) resources.unshift({ close: () => forecast.service.close() });
    const bitcoin = (await bitcoinReady)?.source;
    const qrng = qrngProviderFromConfig(config.qrng);
    const registry = createRegistry(options.extraSkills, new Set([...(bitcoin ? ['bitcoin' as const] : []), ...(qrng ? ['qrng' as const] : []), ...(prediction ? ['prediction' as const] : []), ...(perps ? ['perps' as const] : []), ...(records ? ['records' as const] : []), ...(calls ? ['calls' as const] : []), ...(chains.list().some((c) => c.name === FUNDING_CHAIN) ? ['prediction-funding' as const] : []), ...(chains.list().some((c) => c.name === STOCK_FEED_CHAIN) ? ['stocks' as const] : [])]));
    const skillContext: SkillContext = { chains, store, ...(curve && { curve }), ...(social && { social }), ...(bitcoin && { bitcoin }), ...(qrng && { qrng }), ...(prediction && { prediction: prediction.venues }), ...(perps && { perps: perps.venue }), ...(records && { records: records.feeds }), ...(calls && { calls: calls.feed }), ...(forecast && { forecast }) };
    const context: SkillContext = { ...skillContext, agent: reportAgent(config, registry, skillContext, store, log) };
    const access = config.forecast && new ForecastAccess(store, baseChain.client, config.forecast.tokenAddress);
    if (forecast && config.forecast!.jobs) {
      const stop = startForecastJobs(context, forecast.service, forecast.ledger, { precomputeMs: config.forecast!.precomputeIntervalMs, log });
      resources.unshift({ close: async () => stop() });
    }

    const snapshots = new SnapshotJobs(context, snapshotJobs(registry), log);
    if (config.snapshotJobs) {
      snapshots.start();
      resources.unshift({ close: async () => snapshots.stop() });
    }

    // Probed in the background from now on: a health request reads the last known state.
    const health = new HealthMonitor({
      chains, store, paywall, facilitator: facilitator.kind, bitcoin, prediction: prediction?.venues, perps: perps?.venue, records: records?.feeds, calls: calls?.feed,
      indexers: new Map(indexers.map((i) => [i.chain.name, i])),
      ...(world && market && { world: { liveBlockMs: world.liveBlockMs } }),
    });
    resources.unshift({ close: async () => health.stop() });

    let listeningPort = config.port;
    const signInOrigin = () => config.publicUrl ?? httpUrl(config.host, listeningPort);
    const app = createApp({ registry, paywall, chains, store, context, ...(access && { forecastAccess: access }), facilitatorKind: facilitator.kind, publicUrl: config.publicUrl, signInOrigin, mcpAllowedOrigins: config.mcpAllowedOrigins, log, logger, cors: config.cors, metrics: config.metrics, health, ...(options.fetchClientDocument && { fetchClientDocument: options.fetchClientDocument }) });
    const server: Server = await new Promise((resolve, reject) => {
      const s = createServer(app).listen(config.port, config.host, () => resolve(s));
      s.once('error', reject);
    });
    server.keepAliveTimeout = 5_000;
    answerClientErrors(server);
    const port = (server.address() as AddressInfo).port;
    listeningPort = port;

    const reconciler = startReconciler(ledger, options.reconcileIntervalMs ?? 15_000, log);
    await instance.start(async () => {
      const { released, handedOver } = await paywall.takeOver();
      if (released || handedOver) log(`payments of stopped instances: ${released} reservation(s) released, ${handedOver} kept answer(s) handed to the settlement ledger`);
    });

    return {
      url: httpUrl(config.host, port),
      worldCache,
      port,
      chains,
      store,
      ledger,
      outbox,
      devnet,
      facilitator,
      context,
      snapshots,
      async close() {
        reconciler.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        // Owed writes get a moment to land; any left are logged in full by close().
        await outbox.drained(2_000);
        outbox.close();
        await instance.stop();
        for (const r of resources) await r.close();
        logger.flush();
      },
    };
  } catch (err) {
    for (const r of resources) await r.close().catch(() => {});
    throw err;
  }
}
