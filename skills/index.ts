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
import { disabledRefusal, Registry, type DeploymentPart, type Skill } from './registry.js';
import type { ErrorCode } from './errors.js';



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
  // Bitcoin (read through the Esplora API) and post-quantum.
  ...BITCOIN_CHAIN_SKILLS, ...BITCOIN_TOKEN_SKILLS, ...BITCOIN_BRIDGE_SKILLS, ...QUANTUM_KEY_SKILLS, ...QUANTUM_EXPOSURE_SKILLS,
  ...PLANNED_SKILLS,
];

/** Why a skill is off where a part of the deployment is missing, and the code it is refused with. */
const MISSING: Readonly<Record<DeploymentPart, { code: ErrorCode; why: string }>> = {
  bitcoin: { code: 'domain_disabled', why: 'needs a Bitcoin chain, and this deployment has none (BITCOIN=off, or no EVM world to build the embedded one from, and no BITCOIN_ESPLORA_URL)' },
  // Never OS randomness under a quantum name.
  qrng: { code: 'provider_unavailable', why: 'needs a quantum random-number provider, and none is configured (QRNG_URL)' },
};

/**
 * The registry of this deployment: every skill, those that need a part it lacks declared
 * disabled (refused with `domain_disabled` before any payment, left out of what is advertised).
 */
export function createRegistry(extra: readonly Skill<any>[] = [], has: ReadonlySet<DeploymentPart> = new Set(['bitcoin', 'qrng'])): Registry {
  return new Registry([...ALL_SKILLS, ...extra].map((skill) => {
    const missing = skill.needs?.find((part) => !has.has(part));
    if (!missing || skill.disabledReason) return skill;
    const off = { disabledReason: `${skill.title} ${MISSING[missing].why}; nothing was charged`, disabledCode: MISSING[missing].code };
    const refuse = async (): Promise<never> => {
      throw disabledRefusal(off);
    };
    // Refused by every surface's disabled check (the report agent names it and charges nothing); the handler too, should one call it.
    return { ...skill, ...off, admit: undefined, handler: refuse };
  }));
}
