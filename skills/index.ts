/** Every skill Sibyl sells. Surfaces are projected from this list and nothing else. */
import { latestPairsSkill } from './market/latest-pairs.js';
import { walletHoldingsSkill } from './market/wallet-holdings.js';
import { ohlcvSkill, tokenchartRawSkill, tokenchartSkill } from './market/tokenchart.js';
import { topGainersSkill, topTokensSkill, topVolumeSkill } from './market/top-tokens.js';
import { marketMoversSkill } from './market/market-movers.js';
import { tradeSignalsSkill } from './market/trade-signals.js';
import { approvalScanSkill } from './wallets/approvals.js';
import { forgottenAssetsSkill } from './wallets/forgotten.js';
import { hookRadarSkill } from './defi/hook-radar.js';
import { claimableAirdropsSkill } from './wallets/airdrops.js';
import { mevDetectionSkill } from './mev/mevdetection.js';
import { tokenSnipingSkill } from './security/tokensniping.js';
import { holderConcentrationSkill } from './security/holderconcentration.js';
import { liquidityShiftsSkill } from './market/liquidityshifts.js';
import { whaleIntelSkill } from './whales/whaleintel.js';
import { smartMoneySkill } from './whales/smartmoney.js';
import { dexCapitalSkill } from './defi/dexcapital.js';
import { investmentReportSkill } from './defi/investment-report.js';
import { creatorLaunchesSkill, creatorVolumeSkill } from './launchpad/creator.js';
import { virtualPoolsSkill } from './market/virtual-pools.js';
import { rugPullScannerSkill } from './security/rug-pull-scanner.js';
import { curveGraduationSkill, curveLaunchesSkill, curveVolumeSkill } from './curve/curve.js';
import { arbitrageScannerSkill } from './defi/arbitrage-scanner.js';
import { flashloanOpportunitiesSkill } from './defi/flashloan-opportunities.js';
import { generalAnalysisSkill } from './agent/general-analysis.js';
import { PLANNED_SKILLS } from './planned/domains.js';
import { alphaGainersSkill, chainMarketsSkill } from './market/chain-markets.js';
import { backtestCustomStrategySkill, backtestStrategySkill, chartForecastSkill, strategyBacktestSkill, technicalAnalysisSkill } from './market/candle-analysis.js';
import { walletPnlSkill, walletTrustSkill } from './wallets/wallet-analysis.js';
import { fundFlowTraceSkill, transactionDebuggerSkill } from './transactions/transactions.js';
import { contractReviewSkill, smartContractAuditSkill } from './security/contract-review.js';
import { copyTradingIntelSkill, copyTradingLeaderboardSkill } from './wallets/copy-trading.js';
import { crossChainArbitrageSkill } from './defi/cross-chain.js';
import { mevProtectionSkill } from './mev/mev-protection.js';
import { mempoolWatchSkill } from './mev/mempool-watch.js';
import { altcoinSeasonSkill, yieldAnalysisSkill } from './defi/yield-analysis.js';
import { vaultsListSkill, yieldDiscoverSkill } from './defi/vaults.js';
import { liquidationMonitorSkill } from './defi/liquidation-monitor.js';
import { fixedYieldSkill } from './defi/fixed-yield.js';
import { vaultDepositPlanSkill, yieldDepositSkill, yieldRebalanceSkill } from './defi/yield-plans.js';
import { forecastAccuracyTool, priceForecastTool } from './forecast/tools.js';
import { marketSentimentTool, topMoversTool } from './market/movers.js';
import { smartMoneyFlowTool, smartMoneyInflowTool, whalePrintsTool } from './whales/flow-tools.js';
import { tokenSafetyTool } from './security/token-safety.js';
import { launchpadRadarTool } from './launchpad/radar.js';
import { socialHypeTool } from './social/hype.js';
import { serviceCapabilitiesTool } from './agent/capabilities.js';
import { forecastInferenceSkill } from './forecast-inference.js';
import { BITCOIN_CHAIN_SKILLS } from './bitcoin/chain-skills.js';
import { BITCOIN_TOKEN_SKILLS } from './bitcoin/token-skills.js';
import { BITCOIN_BRIDGE_SKILLS } from './bitcoin/bridge-skills.js';
import { QUANTUM_KEY_SKILLS } from './quantum/key-skills.js';
import { QUANTUM_EXPOSURE_SKILLS } from './quantum/exposure-skills.js';
import { Registry, type Skill } from './registry.js';

/** Bitcoin and post-quantum skills; while a domain is being built its remaining skills stay planned. */
const BITCOIN_AND_QUANTUM = [...BITCOIN_CHAIN_SKILLS, ...BITCOIN_TOKEN_SKILLS, ...BITCOIN_BRIDGE_SKILLS, ...QUANTUM_KEY_SKILLS, ...QUANTUM_EXPOSURE_SKILLS];
const built = new Set(BITCOIN_AND_QUANTUM.map((s) => s.id));

export const ALL_SKILLS: readonly Skill<any>[] = [
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
  ...BITCOIN_AND_QUANTUM,
  ...PLANNED_SKILLS.filter((s) => !built.has(s.id)),
];

export function createRegistry(extra: readonly Skill<any>[] = []): Registry {
  return new Registry([...ALL_SKILLS, ...extra]);
}
