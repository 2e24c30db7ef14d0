/**
 * How each wrapped BTC is held and issued, and what minting and redeeming cost: shipped data,
 * one row per token, each naming where it comes from. A figure no issuer publishes as a fixed
 * rate is left null with what the source says instead; nothing here is read from a chain.
 * Reviewed 2025; a row that changes (a new custodian, a fee vote) is edited here, nowhere else.
 */

export type CustodyModel = 'custodial' | 'threshold-signers';

export interface WrappedBtcCustody {
  /** The token's symbol on EVM chains (matched case-insensitively). */
  readonly symbol: string;
  readonly name: string;
  readonly model: CustodyModel;
  /** Who holds the BTC. */
  readonly custodian: string;
  /** How tokens are minted and redeemed, in a sentence. */
  readonly mechanism: string;
  /** What the custodian publishes to prove its reserves. */
  readonly proofOfReserves: string;
  readonly source: string;
}

export interface WrappedBtcFees {
  readonly symbol: string;
  /** Percent of the amount, where a fixed rate is published; null where none is. */
  readonly mintPct: number | null;
  readonly redeemPct: number | null;
  /** What the source says about fees (who charges, what varies). */
  readonly note: string;
  readonly source: string;
}

export const WRAPPED_BTC_CUSTODY: readonly WrappedBtcCustody[] = [
  {
    symbol: 'WBTC', name: 'Wrapped BTC', model: 'custodial',
    custodian: 'BitGo multi-signature cold storage; since 2024 held with BiT Global in a multi-jurisdiction joint venture',
    mechanism: 'Merchants (KYC-vetted institutions) send BTC to the custodian, which mints WBTC to them; merchants burn WBTC to have BTC released. Users deal only with merchants.',
    proofOfReserves: 'Custody addresses published on the WBTC dashboard, reconciled with the token supply',
    source: 'WBTC whitepaper "Wrapped Tokens: A multi-institutional framework for tokenizing any asset" (wbtc.network, 2019); BitGo announcement of the BiT Global joint venture (bitgo.com blog, 9 Aug 2024)',
  },
  {
    symbol: 'BTCB', name: 'Binance-Peg BTCB', model: 'custodial',
    custodian: 'Binance',
    mechanism: 'Binance mints BTCB on BNB Smart Chain against BTC it holds; users get BTCB by withdrawing BTC from Binance on the BEP-20 network and redeem by depositing it back.',
    proofOfReserves: 'Binance publishes the BTC addresses backing its Binance-Peg tokens (Binance-Peg proof-of-assets page)',
    source: 'Binance Academy, "What Are Binance-Peg Tokens?"; Binance-Peg token proof-of-assets page (binance.com)',
  },
  {
    symbol: 'cbBTC', name: 'Coinbase Wrapped BTC', model: 'custodial',
    custodian: 'Coinbase (custody including cold storage)',
    mechanism: 'Withdrawing BTC from a Coinbase account to Ethereum, Base (and later other chains) mints cbBTC to the destination; depositing cbBTC to a Coinbase address burns it and releases the BTC. Minters, pausers and blacklisters are Coinbase-held roles.',
    proofOfReserves: 'Coinbase publishes cbBTC proof-of-reserves addresses; total supply is the contract\'s totalSupply',
    source: 'Coinbase cbBTC announcement and help-centre page (coinbase.com, Sept 2024); cbBTC launched 12 Sept 2024',
  },
  {
    symbol: 'tBTC', name: 'tBTC v2 (Threshold Network)', model: 'threshold-signers',
    custodian: 'Threshold Network ECDSA wallets: BTC held by randomly selected staker groups signing by threshold (no single custodian)',
    mechanism: 'A depositor sends BTC to a threshold wallet and reveals it to the Bridge contract; the TBTCVault mints tBTC (optimistically, guarded by minters and guardians). Redemption burns tBTC and the wallet pays BTC out.',
    proofOfReserves: 'Wallet balances are on-chain and verified by the Bridge through SPV proofs of the Bitcoin transactions',
    source: 'Threshold Network docs: tBTC v2 contracts API (TBTCVault, TBTCOptimisticMinting, Bridge), docs.threshold.network',
  },
];

export const WRAPPED_BTC_FEES: readonly WrappedBtcFees[] = [
  {
    symbol: 'WBTC', mintPct: null, redeemPct: null,
    note: 'Set by each merchant and the custodian per agreement; no fixed public rate. Users pay the merchant\'s spread or fee.',
    source: 'WBTC whitepaper (wbtc.network, 2019): fees are agreed between merchants, custodian and users',
  },
  {
    symbol: 'BTCB', mintPct: null, redeemPct: null,
    note: 'No wrapping fee as such: the BTC withdrawal or deposit on the BEP-20 network pays Binance\'s network fee from its withdrawal fee schedule, which varies.',
    source: 'Binance withdrawal fee schedule (binance.com/en/fee/cryptoFee)',
  },
  {
    symbol: 'cbBTC', mintPct: null, redeemPct: null,
    note: 'Converting between BTC and cbBTC inside Coinbase is 1:1; network fees of the withdrawal apply and vary.',
    source: 'Coinbase cbBTC help-centre page (coinbase.com)',
  },
  {
    symbol: 'tBTC', mintPct: null, redeemPct: null,
    note: 'Governable on-chain: the Bridge\'s depositTreasuryFeeDivisor and redemptionTreasuryFeeDivisor (and the optimistic-minting fee divisor) set the fees, plus the Bitcoin transaction fee; read them from the Bridge for the current rate.',
    source: 'Threshold Network docs: BridgeState and TBTCOptimisticMinting (docs.threshold.network)',
  },
];

const upper = (s: string) => s.toUpperCase();

/** The custody row of a token symbol, or undefined for a token that is not a wrapped BTC we describe. */
export function custodyOf(symbol: string): WrappedBtcCustody | undefined {
  return WRAPPED_BTC_CUSTODY.find((c) => upper(c.symbol) === upper(symbol));
}

export function feesOf(symbol: string): WrappedBtcFees | undefined {
  return WRAPPED_BTC_FEES.find((f) => upper(f.symbol) === upper(symbol));
}
