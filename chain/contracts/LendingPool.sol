// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

interface ILendingPriceOracle {
    function getAssetPrice(address asset) external view returns (uint256);
}

/// @title LendingPool
/// @notice A small over-collateralised lending market written for the embedded world. Its public
/// interface and events are those of Aave v3's Pool (supply, withdraw, borrow, repay,
/// liquidationCall, getUserAccountData, getReservesList, getReserveData and their events), so an
/// engine written for Aave v3 reads it unchanged. Its own design: one variable rate per reserve
/// (a borrow index compounding linearly between touches), suppliers earning what borrowers pay
/// (no reserve factor), every supplied asset with a liquidation threshold counting as
/// collateral, a 50% close factor (100% under a 0.95 health factor). Prices come from an oracle
/// answering getAssetPrice(asset) in USD with 8 decimals. It is placed with anvil_setCode, so it
/// runs no constructor: `initialize` sets it up once.
contract LendingPool {
    using SafeERC20 for IERC20;

    uint256 internal constant RAY = 1e27;
    uint256 internal constant YEAR = 365 days;
    uint256 internal constant BPS = 10_000;
    uint256 internal constant HEALTH_FACTOR_ONE = 1e18;
    /// Below this health factor a liquidation may cover the whole debt, above it half.
    uint256 internal constant FULL_CLOSE_BELOW = 0.95e18;

    struct Reserve {
        uint16 id;
        uint8 decimals;
        uint16 ltv;
        uint16 liquidationThreshold;
        uint16 liquidationBonus;
        bool borrowingEnabled;
        uint40 lastUpdate;
        uint128 liquidityIndex;
        uint128 borrowIndex;
        /// Variable borrow rate, ray per year.
        uint128 borrowRate;
        uint256 totalScaledSupply;
        uint256 totalScaledDebt;
        address aToken;
        address debtToken;
    }

    /// Aave v3's ReserveDataLegacy layout, as getReserveData returns it.
    struct ReserveDataLegacy {
        uint256 configuration;
        uint128 liquidityIndex;
        uint128 currentLiquidityRate;
        uint128 variableBorrowIndex;
        uint128 currentVariableBorrowRate;
        uint128 currentStableBorrowRate;
        uint40 lastUpdateTimestamp;
        uint16 id;
        address aTokenAddress;
        address stableDebtTokenAddress;
        address variableDebtTokenAddress;
        address interestRateStrategyAddress;
        uint128 accruedToTreasury;
        uint128 unbacked;
        uint128 isolationModeTotalDebt;
    }

    event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode);
    event Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount);
    event Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode);
    event Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens);
    event LiquidationCall(address indexed collateralAsset, address indexed debtAsset, address indexed user, uint256 debtToCover, uint256 liquidatedCollateralAmount, address liquidator, bool receiveAToken);

    error AlreadyInitialized();
    error NotAdmin();
    error UnknownReserve();
    error ZeroAmount();
    error BorrowingDisabled();
    error OnlyOwnAccount();
    error NotEnoughCollateral();
    error HealthFactorBelowOne();
    error HealthFactorNotBelowOne();
    error NoDebt();
    error NoCollateral();
    error NotEnoughLiquidity();
    error NotEnoughBalance();

    address public admin;
    address public oracle;
    address[] internal reservesList;
    mapping(address => Reserve) internal reserves;
    mapping(address => mapping(address => uint256)) internal scaledSupplyOf;
    mapping(address => mapping(address => uint256)) internal scaledDebtOf;

    function initialize(address admin_, address oracle_) external {
        if (admin != address(0)) revert AlreadyInitialized();
        admin = admin_;
        oracle = oracle_;
    }

    /// Lists an asset: LTV, liquidation threshold and bonus in basis points (bonus 10_500 = +5%).
    function initReserve(address asset, uint16 ltv, uint16 liquidationThreshold, uint16 liquidationBonus, bool borrowingEnabled, uint128 borrowRateRay) external {
        if (msg.sender != admin) revert NotAdmin();
        Reserve storage r = reserves[asset];
        if (r.aToken != address(0)) revert AlreadyInitialized();
        uint8 decimals = IERC20Metadata(asset).decimals();
        string memory symbol = IERC20Metadata(asset).symbol();
        r.id = uint16(reservesList.length);
        r.decimals = decimals;
        r.ltv = ltv;
        r.liquidationThreshold = liquidationThreshold;
        r.liquidationBonus = liquidationBonus;
        r.borrowingEnabled = borrowingEnabled;
        r.lastUpdate = uint40(block.timestamp);
        r.liquidityIndex = uint128(RAY);
        r.borrowIndex = uint128(RAY);
        r.borrowRate = borrowRateRay;
        r.aToken = address(new LendingReserveToken(asset, false, string.concat("Sibyl Lending ", symbol), string.concat("sl", symbol), decimals));
        r.debtToken = address(new LendingReserveToken(asset, true, string.concat("Sibyl Lending Variable Debt ", symbol), string.concat("slDebt", symbol), decimals));
        reservesList.push(asset);
    }

    // ---- user actions ---------------------------------------------------------------------

    function supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode) external {
        if (amount == 0) revert ZeroAmount();
        Reserve storage r = _accrued(asset);
        uint256 scaled = (amount * RAY) / r.liquidityIndex;
        scaledSupplyOf[asset][onBehalfOf] += scaled;
        r.totalScaledSupply += scaled;
        IERC20(asset).safeTransferFrom(msg.sender, address(this), amount);
        emit Supply(asset, msg.sender, onBehalfOf, amount, referralCode);
    }

    /// `amount` type(uint256).max withdraws the whole balance.
    function withdraw(address asset, uint256 amount, address to) external returns (uint256) {
        Reserve storage r = _accrued(asset);
        uint256 balance = (scaledSupplyOf[asset][msg.sender] * r.liquidityIndex) / RAY;
        if (amount == type(uint256).max) amount = balance;
        if (amount == 0) revert ZeroAmount();
        if (amount > balance) revert NotEnoughBalance();
        uint256 scaled = amount == balance ? scaledSupplyOf[asset][msg.sender] : _ceilDiv(amount * RAY, r.liquidityIndex);
        scaledSupplyOf[asset][msg.sender] -= scaled;
        r.totalScaledSupply -= scaled;
        if (IERC20(asset).balanceOf(address(this)) < amount) revert NotEnoughLiquidity();
        (,,,,, uint256 hf) = getUserAccountData(msg.sender);
        if (hf < HEALTH_FACTOR_ONE) revert HealthFactorBelowOne();
        IERC20(asset).safeTransfer(to, amount);
        emit Withdraw(asset, msg.sender, to, amount);
        return amount;
    }

    /// Variable rate only (interestRateMode 2); no credit delegation: onBehalfOf is the caller.
    function borrow(address asset, uint256 amount, uint256, uint16 referralCode, address onBehalfOf) external {
        if (amount == 0) revert ZeroAmount();
        if (onBehalfOf != msg.sender) revert OnlyOwnAccount();
        Reserve storage r = _accrued(asset);
        if (!r.borrowingEnabled) revert BorrowingDisabled();
        uint256 scaled = _ceilDiv(amount * RAY, r.borrowIndex);
        scaledDebtOf[asset][onBehalfOf] += scaled;
        r.totalScaledDebt += scaled;
        (uint256 collateral, uint256 debt,,, uint256 ltv,) = getUserAccountData(onBehalfOf);
        if (debt > (collateral * ltv) / BPS) revert NotEnoughCollateral();
        if (IERC20(asset).balanceOf(address(this)) < amount) revert NotEnoughLiquidity();
        IERC20(asset).safeTransfer(msg.sender, amount);
        emit Borrow(asset, msg.sender, onBehalfOf, amount, 2, r.borrowRate, referralCode);
    }

    /// `amount` above the debt (e.g. type(uint256).max) repays all of it.
    function repay(address asset, uint256 amount, uint256, address onBehalfOf) external returns (uint256) {
        Reserve storage r = _accrued(asset);
        uint256 debt = _debt(r, scaledDebtOf[asset][onBehalfOf]);
        if (debt == 0) revert NoDebt();
        if (amount > debt) amount = debt;
        if (amount == 0) revert ZeroAmount();
        _burnDebt(asset, r, onBehalfOf, amount, debt);
        IERC20(asset).safeTransferFrom(msg.sender, address(this), amount);
        emit Repay(asset, onBehalfOf, msg.sender, amount, false);
        return amount;
    }

    /// Repays up to the close factor of `user`'s `debtAsset` debt and takes its value plus the
    /// collateral reserve's bonus in `collateralAsset` (as supply with `receiveAToken`).
    function liquidationCall(address collateralAsset, address debtAsset, address user, uint256 debtToCover, bool receiveAToken) external {
        Reserve storage c = _accrued(collateralAsset);
        Reserve storage d = _accrued(debtAsset);
        (,,,,, uint256 hf) = getUserAccountData(user);
        if (hf >= HEALTH_FACTOR_ONE) revert HealthFactorNotBelowOne();
        uint256 userDebt = _debt(d, scaledDebtOf[debtAsset][user]);
        if (userDebt == 0) revert NoDebt();
        uint256 userCollateral = (scaledSupplyOf[collateralAsset][user] * c.liquidityIndex) / RAY;
        if (userCollateral == 0 || c.liquidationThreshold == 0) revert NoCollateral();

        uint256 maxDebt = hf < FULL_CLOSE_BELOW ? userDebt : userDebt / 2;
        uint256 covered = debtToCover < maxDebt ? debtToCover : maxDebt;
        uint256 priceC = ILendingPriceOracle(oracle).getAssetPrice(collateralAsset);
        uint256 priceD = ILendingPriceOracle(oracle).getAssetPrice(debtAsset);
        uint256 seized = (covered * priceD * (10 ** c.decimals) * c.liquidationBonus) / (priceC * (10 ** d.decimals) * BPS);
        if (seized > userCollateral) {
            seized = userCollateral;
            covered = (seized * priceC * (10 ** d.decimals) * BPS) / (priceD * (10 ** c.decimals) * c.liquidationBonus);
        }
        if (covered == 0) revert ZeroAmount();

        _burnDebt(debtAsset, d, user, covered, userDebt);
        uint256 seizedScaled = seized == userCollateral ? scaledSupplyOf[collateralAsset][user] : _ceilDiv(seized * RAY, c.liquidityIndex);
        scaledSupplyOf[collateralAsset][user] -= seizedScaled;
        IERC20(debtAsset).safeTransferFrom(msg.sender, address(this), covered);
        if (receiveAToken) {
            scaledSupplyOf[collateralAsset][msg.sender] += seizedScaled;
        } else {
            c.totalScaledSupply -= seizedScaled;
            IERC20(collateralAsset).safeTransfer(msg.sender, seized);
        }
        emit LiquidationCall(collateralAsset, debtAsset, user, covered, seized, msg.sender, receiveAToken);
    }

    // ---- views ----------------------------------------------------------------------------

    /// Aave v3's account summary: values in USD with 8 decimals (the oracle's), threshold and
    /// LTV in basis points (collateral-weighted), health factor with 18 decimals
    /// (type(uint256).max without debt).
    function getUserAccountData(address user) public view returns (
        uint256 totalCollateralBase, uint256 totalDebtBase, uint256 availableBorrowsBase,
        uint256 currentLiquidationThreshold, uint256 ltv, uint256 healthFactor
    ) {
        uint256 weightedThreshold;
        uint256 weightedLtv;
        for (uint256 i = 0; i < reservesList.length; i++) {
            address asset = reservesList[i];
            Reserve storage r = reserves[asset];
            uint256 scaledSupply = scaledSupplyOf[asset][user];
            uint256 scaledDebt = scaledDebtOf[asset][user];
            if (scaledDebt == 0 && (scaledSupply == 0 || r.liquidationThreshold == 0)) continue;
            uint256 price = ILendingPriceOracle(oracle).getAssetPrice(asset);
            uint256 unit = 10 ** r.decimals;
            if (scaledSupply > 0 && r.liquidationThreshold > 0) {
                (uint256 liquidityIndex,) = _indexesNow(r);
                uint256 value = (((scaledSupply * liquidityIndex) / RAY) * price) / unit;
                totalCollateralBase += value;
                weightedThreshold += value * r.liquidationThreshold;
                weightedLtv += value * r.ltv;
            }
            if (scaledDebt > 0) {
                (, uint256 borrowIndex) = _indexesNow(r);
                totalDebtBase += _ceilDiv(_ceilDiv(scaledDebt * borrowIndex, RAY) * price, unit);
            }
        }
        if (totalCollateralBase > 0) {
            currentLiquidationThreshold = weightedThreshold / totalCollateralBase;
            ltv = weightedLtv / totalCollateralBase;
        }
        uint256 borrowable = (totalCollateralBase * ltv) / BPS;
        availableBorrowsBase = borrowable > totalDebtBase ? borrowable - totalDebtBase : 0;
        healthFactor = totalDebtBase == 0
            ? type(uint256).max
            : (((totalCollateralBase * currentLiquidationThreshold) / BPS) * HEALTH_FACTOR_ONE) / totalDebtBase;
    }

    /// Aave v3's user configuration bitmap: for reserve id i, bit 2i borrowing, bit 2i+1 supplying
    /// it as collateral (here every supplied asset with a liquidation threshold is).
    function getUserConfiguration(address user) external view returns (uint256 data) {
        for (uint256 i = 0; i < reservesList.length; i++) {
            address asset = reservesList[i];
            if (scaledDebtOf[asset][user] > 0) data |= uint256(1) << (2 * i);
            if (scaledSupplyOf[asset][user] > 0 && reserves[asset].liquidationThreshold > 0) data |= uint256(1) << (2 * i + 1);
        }
    }

    function getReservesList() external view returns (address[] memory) {
        return reservesList;
    }

    /// Aave v3's reserve data; `configuration` packs LTV (bits 0-15), liquidation threshold
    /// (16-31), bonus (32-47), decimals (48-55), active (56) and borrowing enabled (58) as Aave's does.
    function getReserveData(address asset) external view returns (ReserveDataLegacy memory data) {
        Reserve storage r = reserves[asset];
        if (r.aToken == address(0)) return data;
        (uint256 liquidityIndex, uint256 borrowIndex) = _indexesNow(r);
        data.configuration = uint256(r.ltv) | (uint256(r.liquidationThreshold) << 16) | (uint256(r.liquidationBonus) << 32)
            | (uint256(r.decimals) << 48) | (uint256(1) << 56) | ((r.borrowingEnabled ? uint256(1) : 0) << 58);
        data.liquidityIndex = uint128(liquidityIndex);
        data.variableBorrowIndex = uint128(borrowIndex);
        data.currentVariableBorrowRate = r.borrowRate;
        data.currentLiquidityRate = r.totalScaledSupply == 0 ? 0 : uint128((uint256(r.borrowRate) * _debt(r, r.totalScaledDebt)) / ((r.totalScaledSupply * liquidityIndex) / RAY + 1));
        data.lastUpdateTimestamp = r.lastUpdate;
        data.id = r.id;
        data.aTokenAddress = r.aToken;
        data.variableDebtTokenAddress = r.debtToken;
    }

    /// A user's balance in a reserve now (supply, or debt with `isDebt`): what the reserve tokens report.
    function reserveBalanceOf(address asset, address user, bool isDebt) external view returns (uint256) {
        Reserve storage r = reserves[asset];
        (uint256 liquidityIndex, uint256 borrowIndex) = _indexesNow(r);
        return isDebt ? _ceilDiv(scaledDebtOf[asset][user] * borrowIndex, RAY) : (scaledSupplyOf[asset][user] * liquidityIndex) / RAY;
    }

    function reserveTotalOf(address asset, bool isDebt) external view returns (uint256) {
        Reserve storage r = reserves[asset];
        (uint256 liquidityIndex, uint256 borrowIndex) = _indexesNow(r);
        return isDebt ? _ceilDiv(r.totalScaledDebt * borrowIndex, RAY) : (r.totalScaledSupply * liquidityIndex) / RAY;
    }

    function getReserveNormalizedIncome(address asset) external view returns (uint256 liquidityIndex) {
        (liquidityIndex,) = _indexesNow(reserves[asset]);
    }

    function getReserveNormalizedVariableDebt(address asset) external view returns (uint256 borrowIndex) {
        (, borrowIndex) = _indexesNow(reserves[asset]);
    }

    // ---- interest -------------------------------------------------------------------------

    /// Indexes as of this block: the borrow index grows linearly since the last touch; the
    /// supply index takes exactly the interest that growth adds to the reserve's debt.
    function _indexesNow(Reserve storage r) internal view returns (uint256 liquidityIndex, uint256 borrowIndex) {
        liquidityIndex = r.liquidityIndex;
        borrowIndex = r.borrowIndex;
        uint256 elapsed = block.timestamp - r.lastUpdate;
        if (elapsed == 0 || r.borrowRate == 0) return (liquidityIndex, borrowIndex);
        uint256 grown = borrowIndex + (borrowIndex * r.borrowRate * elapsed) / (YEAR * RAY);
        if (r.totalScaledSupply > 0 && r.totalScaledDebt > 0) {
            uint256 interest = (r.totalScaledDebt * grown) / RAY - (r.totalScaledDebt * borrowIndex) / RAY;
            liquidityIndex += (interest * RAY) / r.totalScaledSupply;
        }
        borrowIndex = grown;
    }

    function _accrued(address asset) internal returns (Reserve storage r) {
        r = reserves[asset];
        if (r.aToken == address(0)) revert UnknownReserve();
        if (r.lastUpdate == block.timestamp) return r;
        (uint256 liquidityIndex, uint256 borrowIndex) = _indexesNow(r);
        r.liquidityIndex = uint128(liquidityIndex);
        r.borrowIndex = uint128(borrowIndex);
        r.lastUpdate = uint40(block.timestamp);
    }

    function _debt(Reserve storage r, uint256 scaled) internal view returns (uint256) {
        (, uint256 borrowIndex) = _indexesNow(r);
        return _ceilDiv(scaled * borrowIndex, RAY);
    }

    function _burnDebt(address asset, Reserve storage r, address user, uint256 amount, uint256 debt) internal {
        uint256 scaled = amount >= debt ? scaledDebtOf[asset][user] : (amount * RAY) / r.borrowIndex;
        scaledDebtOf[asset][user] -= scaled;
        r.totalScaledDebt -= scaled;
    }

    function _ceilDiv(uint256 a, uint256 b) internal pure returns (uint256) {
        return a == 0 ? 0 : (a - 1) / b + 1;
    }
}

/// @notice A reserve's supply (aToken) or variable-debt token: balances read from the pool,
/// with interest; not transferable (the pool moves positions).
contract LendingReserveToken {
    address public immutable POOL;
    address public immutable UNDERLYING_ASSET_ADDRESS;
    bool public immutable isDebt;
    uint8 public immutable decimals;
    string public name;
    string public symbol;

    constructor(address asset, bool debt, string memory name_, string memory symbol_, uint8 decimals_) {
        POOL = msg.sender;
        UNDERLYING_ASSET_ADDRESS = asset;
        isDebt = debt;
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
    }

    function balanceOf(address user) external view returns (uint256) {
        return LendingPool(POOL).reserveBalanceOf(UNDERLYING_ASSET_ADDRESS, user, isDebt);
    }

    function totalSupply() external view returns (uint256) {
        return LendingPool(POOL).reserveTotalOf(UNDERLYING_ASSET_ADDRESS, isDebt);
    }
}
