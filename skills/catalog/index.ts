/** Every skill Sibyl sells. Surfaces are projected from this list and nothing else. */
import { latestPairsSkill } from '../pairs/latest-pairs.js';
import { walletHoldingsSkill } from '../holdings/wallet-holdings.js';
import { ohlcvSkill, tokenchartRawSkill, tokenchartSkill } from '../charts/tokenchart.js';
import { topGainersSkill, topTokensSkill, topVolumeSkill } from '../top-tokens/top-tokens.js';
import { marketMoversSkill } from '../movers/market-movers.js';
import { tradeSignalsSkill } from '../signals/trade-signals.js';
import { approvalScanSkill } from '../approvals/approvals.js';
import { forgottenAssetsSkill } from '../forgotten/forgotten.js';
import { hookRadarSkill } from '../hooks/hook-radar.js';
import { claimableAirdropsSkill } from '../airdrops/airdrops.js';
import { mevDetectionSkill } from '../mev/mevdetection.js';
import { tokenSnipingSkill } from '../snipers/tokensniping.js';
import { holderConcentrationSkill } from '../holders/holderconcentration.js';
import { liquidityShiftsSkill } from '../whales/liquidityshifts.js';
import { whaleIntelSkill } from '../whales/whaleintel.js';
import { smartMoneySkill } from '../smart-money/smartmoney.js';
import { dexCapitalSkill } from '../dex-capital/dexcapital.js';
import { investmentReportSkill } from '../investment/investment-report.js';
import { creatorLaunchesSkill, creatorVolumeSkill } from '../launchpad/creator.js';
import { virtualPoolsSkill } from '../virtual-pools/virtual-pools.js';
import { rugPullScannerSkill } from '../security/rug-pull-scanner.js';
import { curveGraduationSkill, curveLaunchesSkill, curveVolumeSkill } from '../curve/curve.js';
import { arbitrageScannerSkill } from '../arbitrage/arbitrage-scanner.js';
import { flashloanOpportunitiesSkill } from '../flashloans/flashloan-opportunities.js';
import { generalAnalysisSkill } from '../report/general-analysis.js';
import { PLANNED_SKILLS } from './planned.js';
import { alphaGainersSkill, chainMarketsSkill } from '../chain-markets/chain-markets.js';
import { backtestCustomStrategySkill, backtestStrategySkill, chartForecastSkill, strategyBacktestSkill, technicalAnalysisSkill } from '../candles/candle-analysis.js';
import { walletPnlSkill, walletTrustSkill } from '../wallet-analysis/wallet-analysis.js';
import { fundFlowTraceSkill, transactionDebuggerSkill } from '../transactions/transactions.js';
import { contractReviewSkill, smartContractAuditSkill } from '../security/contract-review.js';
import { copyTradingIntelSkill, copyTradingLeaderboardSkill } from '../copy-trading/copy-trading.js';
import { crossChainArbitrageSkill } from '../arbitrage/cross-chain.js';
import { mevProtectionSkill } from '../mev/mev-protection.js';
import { mempoolWatchSkill } from '../mempool/mempool-watch.js';
import { altcoinSeasonSkill, yieldAnalysisSkill } from '../yields/yield-analysis.js';
import { vaultsListSkill, yieldDiscoverSkill } from '../vaults/vaults.js';
import { liquidationMonitorSkill } from '../liquidations/liquidation-monitor.js';
import { fixedYieldSkill } from '../fixed-yield/fixed-yield.js';
import { vaultDepositPlanSkill, yieldDepositSkill, yieldRebalanceSkill } from '../yield-plans/yield-plans.js';
import { forecastAccuracyTool, priceForecastTool } from '../forecast/tools.js';
import { marketSentimentTool, topMoversTool } from '../movers/tools.js';
import { smartMoneyFlowTool, smartMoneyInflowTool, whalePrintsTool } from '../whales/flow-tools.js';
import { tokenSafetyTool } from '../security/token-safety.js';
import { launchpadRadarTool } from '../launchpad/radar.js';
import { socialHypeTool } from '../social/hype.js';
import { serviceCapabilitiesTool } from './capabilities.js';
import { forecastInferenceSkill } from '../forecast/inference.js';
import { bitcoinCycleTool } from '../bitcoin/cycle/cycle.js';
import { bitcoinMempoolSkill } from '../bitcoin/mempool/mempool.js';
import { bitcoinOnchainSkill } from '../bitcoin/onchain/onchain.js';
import { brc20AnalyticsSkill } from '../bitcoin/brc20/brc20.js';
import { runesAnalyticsSkill } from '../bitcoin/runes/runes.js';
import { bitcoinStakingSkill } from '../bitcoin/staking/staking.js';
import { bitcoinBridgeComparisonSkill } from '../bitcoin/bridges/bridges.js';
import { crqcProximityBenchmarkSkill } from '../quantum/crqc/crqc.js';
import { quantumEncryptionKeySkill, quantumSigningKeySkill } from '../quantum/keys/keys.js';
import { quantumHardwareQrngSkill } from '../quantum/qrng/qrng.js';
import { quantumWalletGenerationSkill } from '../quantum/wallet/wallet.js';
import { pqcWalletScanSkill } from '../quantum/exposure/exposure.js';
import { pqcMigrationPlannerSkill } from '../quantum/migration/migration.js';
import { quantumPortfolioMonitorSkill } from '../quantum/monitor/monitor.js';
import { pqcReadinessAssessmentSkill } from '../quantum/readiness/readiness.js';
import { predictionDiscoverySkill } from '../prediction/discovery-skill.js';
import { insiderScanSkill } from '../prediction/insiders-skill.js';
import { predictionSpreadSkill } from '../prediction/spread-skill.js';
import { convictionScannerSkill } from '../prediction/conviction-skill.js';
import { predictionLongshotSkill } from '../prediction/longshot-skill.js';
import { predictionArbitrageSkill } from '../prediction/arbitrage-skill.js';
import { predictionCatalystsTool } from '../prediction/catalysts-tool.js';
import { predictionYieldsTool } from '../prediction/yields-tool.js';
import { predictionWhalesTool } from '../prediction/whales-tool.js';
import { rwaIntelSkill } from '../stocks/rwa-intel-skill.js';
import { perpSmartMoneySkill } from '../perps/smart-money-skill.js';
import { perpWhalesTool } from '../perps/whales-tool.js';
import { congressLookupSkill, congressTradesTool, governmentContractsTool } from '../records/tools.js';
import { analystAccuracyTool } from '../callers/tool.js';
import { STOCK_FEED_CHAIN } from '../../chain/stocks.js';
import { disabledRefusal, isWorking, Registry, type DeploymentPart, type Skill } from '../core/registry.js';
import type { ErrorCode } from '../core/errors.js';
import { disabledResult } from '../core/free.js';



/** Every skill with an engine in this build. A new capability adds its skill(s) here: one line. */
export const ALL_SKILLS = [
  latestPairsSkill, walletHoldingsSkill, tokenchartSkill, tokenchartRawSkill, ohlcvSkill, topTokensSkill, topVolumeSkill,
  tokenSnipingSkill, mevDetectionSkill, holderConcentrationSkill, liquidityShiftsSkill, whaleIntelSkill,
  arbitrageScannerSkill, flashloanOpportunitiesSkill, smartMoneySkill, dexCapitalSkill, investmentReportSkill,
  creatorLaunchesSkill, creatorVolumeSkill, virtualPoolsSkill, rugPullScannerSkill,
  curveLaunchesSkill, curveVolumeSkill, curveGraduationSkill, generalAnalysisSkill,
  // Computed capabilities sold on the agent surfaces (no HTTP data path in the spec).
  topGainersSkill, marketMoversSkill, tradeSignalsSkill, approvalScanSkill, forgottenAssetsSkill, hookRadarSkill, claimableAirdropsSkill, chartForecastSkill, technicalAnalysisSkill, strategyBacktestSkill, walletPnlSkill, walletTrustSkill,
  transactionDebuggerSkill, fundFlowTraceSkill, contractReviewSkill, yieldAnalysisSkill, altcoinSeasonSkill,
  vaultsListSkill, yieldDiscoverSkill, yieldDepositSkill, vaultDepositPlanSkill, yieldRebalanceSkill, liquidationMonitorSkill, fixedYieldSkill,
  copyTradingLeaderboardSkill, copyTradingIntelSkill, crossChainArbitrageSkill, mevProtectionSkill, mempoolWatchSkill, smartContractAuditSkill,
  backtestCustomStrategySkill, backtestStrategySkill, chainMarketsSkill, alphaGainersSkill,
  // The tool server's free tools (priced FREE_USD, `mcp` surface only); those without a feed are in PLANNED_SKILLS.
  priceForecastTool, forecastAccuracyTool, marketSentimentTool, topMoversTool, smartMoneyFlowTool, whalePrintsTool,
  tokenSafetyTool, smartMoneyInflowTool, launchpadRadarTool, socialHypeTool, serviceCapabilitiesTool,
  // Served on its own API path, paid with x402 or a service-token quota.
  forecastInferenceSkill,
  // Bitcoin (read through the Esplora API) and post-quantum.
  bitcoinMempoolSkill, bitcoinOnchainSkill, bitcoinCycleTool, brc20AnalyticsSkill, runesAnalyticsSkill, bitcoinStakingSkill, bitcoinBridgeComparisonSkill,
  quantumEncryptionKeySkill, quantumSigningKeySkill, quantumWalletGenerationSkill, quantumHardwareQrngSkill, crqcProximityBenchmarkSkill,
  pqcWalletScanSkill, quantumPortfolioMonitorSkill, pqcReadinessAssessmentSkill, pqcMigrationPlannerSkill,
  // Prediction markets (read through the Polymarket and Kalshi adapters).
  predictionDiscoverySkill, insiderScanSkill, predictionSpreadSkill, convictionScannerSkill, predictionLongshotSkill, predictionArbitrageSkill,
  predictionCatalystsTool, predictionYieldsTool, predictionWhalesTool,
  // Tokenized equities (read from the stock chain and the issuers' other chains).
  rwaIntelSkill,
  // Perpetual futures (read through the Hyperliquid adapter).
  perpWhalesTool, perpSmartMoneySkill,
  // Public records (stock-watcher disclosures, USAspending awards) and graded market callers.
  congressTradesTool, congressLookupSkill, governmentContractsTool, analystAccuracyTool,
] as const;

/** Every skill id the catalogue declares, working or planned: code that names a skill names it through this. */
export type SkillId = (typeof ALL_SKILLS)[number]['id'] | (typeof PLANNED_SKILLS)[number]['id'];

/** Why a skill is off where a part of the deployment is missing, and the code it is refused with. */
const MISSING: Readonly<Record<DeploymentPart, { code: ErrorCode; why: string }>> = {
  bitcoin: { code: 'domain_disabled', why: 'needs a Bitcoin chain, and this deployment has none (BITCOIN=off, or no EVM world to build the embedded one from, and no BITCOIN_ESPLORA_URL)' },
  // Never OS randomness under a quantum name.
  qrng: { code: 'provider_unavailable', why: 'needs a quantum random-number provider, and none is configured (QRNG_URL)' },
  prediction: { code: 'domain_disabled', why: 'needs prediction-market venues, and this deployment has none (PREDICTION=off)' },
  // The venues' traders are Polygon accounts: their age and funding are read there.
  'prediction-funding': { code: 'chain_unavailable', why: 'reads the venues\' accounts\' funding on Polygon, and this deployment does not index Polygon' },
  perps: { code: 'domain_disabled', why: 'needs a perp venue, and this deployment has none (PERPS=off)' },
  records: { code: 'domain_disabled', why: 'needs the public-records feeds, and this deployment has none (RECORDS=off)' },
  calls: { code: 'domain_disabled', why: 'needs a market callers\' feed, and this deployment has none (CALLS=off)' },
  stocks: { code: 'chain_unavailable', why: `values tokenized stocks from the underlyings' feeds on ${STOCK_FEED_CHAIN}, and this deployment does not read it` },
};

/**
 * The registry of this deployment: every skill, those that need a part it lacks declared
 * disabled (refused with `domain_disabled` before any payment, left out of what is advertised).
 */
export function createRegistry(extra: readonly Skill<any>[] = [], has: ReadonlySet<DeploymentPart> = new Set(['bitcoin', 'qrng', 'prediction', 'prediction-funding', 'stocks', 'perps', 'records', 'calls'])): Registry {
  return new Registry([...ALL_SKILLS, ...extra].map((skill) => {
    const missing = skill.needs?.find((part) => !has.has(part));
    if (!missing || !isWorking(skill)) return skill;
    const off = { disabledReason: `${skill.title} ${MISSING[missing].why}; nothing was charged`, disabledCode: MISSING[missing].code };
    const refuse = async (): Promise<never> => {
      throw disabledRefusal(off);
    };
    // A free tool answers no data, not an error (docs/protocols.md, "Tool results"): its envelope, saying why.
    if (skill.free) {
      const noData = async (input: { limit?: number }) => ({ ...disabledResult(input.limit ?? null), reason: off.disabledCode, detail: off.disabledReason });
      return { ...skill, ...off, admit: undefined, handler: noData as Skill['handler'] };
    }
    // Refused by every surface's disabled check (the report agent names it and charges nothing); the handler too, should one call it.
    return { ...skill, ...off, admit: undefined, handler: refuse };
  }), PLANNED_SKILLS);
}
