// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title SibylVault
/// @notice An ERC-4626 vault whose assets are lent to one strategy (set by its curator). The
/// strategy pays its income back into the vault in the underlying, so each share redeems more
/// over time. Its curator can pause deposits or deprecate the vault (deposits stop for good; the
/// strategy is expected to repay). Withdrawals are served from what the vault holds (idle).
contract SibylVault is ERC4626 {
    using SafeERC20 for IERC20;

    address public immutable curator;
    address public strategy;
    /// Assets out with the strategy: counted in totalAssets.
    uint256 public lent;
    bool public depositsPaused;
    bool public deprecated;

    event StrategySet(address indexed strategy);
    event Lent(address indexed strategy, uint256 assets);
    event Repaid(address indexed strategy, uint256 assets);
    event IncomePaid(address indexed payer, uint256 assets);
    event DepositsPaused(bool paused);
    event VaultDeprecated();

    error NotCurator();
    error NotStrategy();
    error VaultIsDeprecated();
    error ExceedsIdle(uint256 idle);
    error ExceedsLent(uint256 lent);
    error StrategyHasDebt(uint256 lent);

    constructor(IERC20 asset_, string memory name_, string memory symbol_, address curator_) ERC20(name_, symbol_) ERC4626(asset_) {
        curator = curator_;
    }

    modifier onlyCurator() {
        if (msg.sender != curator) revert NotCurator();
        _;
    }

    /// What the vault holds itself: the part of totalAssets a withdrawal can take now.
    function idle() public view returns (uint256) {
        return IERC20(asset()).balanceOf(address(this));
    }

    function totalAssets() public view override returns (uint256) {
        return idle() + lent;
    }

    function maxDeposit(address) public view override returns (uint256) {
        return depositsPaused || deprecated ? 0 : type(uint256).max;
    }

    function maxMint(address) public view override returns (uint256) {
        return depositsPaused || deprecated ? 0 : type(uint256).max;
    }

    function maxWithdraw(address owner) public view override returns (uint256) {
        return Math.min(super.maxWithdraw(owner), idle());
    }

    function maxRedeem(address owner) public view override returns (uint256) {
        return Math.min(super.maxRedeem(owner), _convertToShares(idle(), Math.Rounding.Floor));
    }

    function setStrategy(address strategy_) external onlyCurator {
        if (lent != 0) revert StrategyHasDebt(lent);
        strategy = strategy_;
        emit StrategySet(strategy_);
    }

    function lend(uint256 assets) external onlyCurator {
        if (deprecated) revert VaultIsDeprecated();
        uint256 available = idle();
        if (assets > available) revert ExceedsIdle(available);
        lent += assets;
        IERC20(asset()).safeTransfer(strategy, assets);
        emit Lent(strategy, assets);
    }

    /// The strategy returns principal.
    function repay(uint256 assets) external {
        if (msg.sender != strategy) revert NotStrategy();
        if (assets > lent) revert ExceedsLent(lent);
        lent -= assets;
        IERC20(asset()).safeTransferFrom(msg.sender, address(this), assets);
        emit Repaid(msg.sender, assets);
    }

    /// Income paid into the vault: every share redeems more from now on.
    function payIncome(uint256 assets) external {
        IERC20(asset()).safeTransferFrom(msg.sender, address(this), assets);
        emit IncomePaid(msg.sender, assets);
    }

    function setDepositsPaused(bool paused) external onlyCurator {
        depositsPaused = paused;
        emit DepositsPaused(paused);
    }

    function deprecate() external onlyCurator {
        deprecated = true;
        emit VaultDeprecated();
    }
}
