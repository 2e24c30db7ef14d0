// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {IERC4626} from "@openzeppelin/contracts/interfaces/IERC4626.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SibylPrincipalToken} from "./SibylPrincipalToken.sol";

/// @title SibylYieldToken
/// @notice One fixed-rate market: the yield token (YT) of one ERC-4626 share and one maturity, and
/// the splitter that makes it. `split` takes shares and mints, per unit of the underlying they are
/// worth, one principal token (PT) and one YT. The YT holder earns the shares' yield until
/// maturity: as the share index (underlying per 1e18 share units) rises, the shares backing the
/// principal shrink and the difference is owed to YT holders, claimable in shares. Before
/// maturity PT + YT merge back into shares; from maturity PT alone redeems shares worth its face
/// value in the underlying. Interest stops at the index first seen at or after maturity; what the
/// shares earn after that stays here (a real protocol sends it to a treasury).
contract SibylYieldToken is ERC20 {
    using SafeERC20 for IERC20;

    uint256 private constant ONE = 1e18;

    IERC4626 public immutable share;
    address public immutable underlying;
    uint256 public immutable maturity;
    SibylPrincipalToken public immutable principal;
    uint8 private immutable _decimals;

    /// The highest share index seen before maturity; YT interest accrues on its rises.
    uint256 public lastIndex;
    /// The index interest stops at: the first seen at or after maturity (0 until then).
    uint256 public maturityIndex;
    /// Each holder's index at its last accrual, and the shares it is owed.
    mapping(address => uint256) public userIndex;
    mapping(address => uint256) public owedShares;

    event Split(address indexed caller, address indexed receiver, uint256 shares, uint256 amount);
    event Merged(address indexed caller, address indexed receiver, uint256 amount, uint256 shares);
    event PrincipalRedeemed(address indexed caller, address indexed receiver, uint256 amount, uint256 shares);
    event InterestClaimed(address indexed holder, address indexed receiver, uint256 shares);

    error Matured();
    error NotMatured();
    error ZeroAmount();

    constructor(IERC4626 share_, uint256 maturity_, string memory ytName, string memory ytSymbol, string memory ptName, string memory ptSymbol) ERC20(ytName, ytSymbol) {
        share = share_;
        underlying = share_.asset();
        maturity = maturity_;
        _decimals = IERC20Metadata(underlying).decimals();
        principal = new SibylPrincipalToken(ptName, ptSymbol, _decimals, underlying, maturity_);
        lastIndex = shareIndex();
    }

    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    function isMatured() public view returns (bool) {
        return block.timestamp >= maturity;
    }

    /// Underlying units 1e18 share units redeem for now.
    function shareIndex() public view returns (uint256) {
        return share.convertToAssets(ONE);
    }

    /// The index interest is counted to now, without storing it.
    function currentIndex() public view returns (uint256) {
        return maturityIndex != 0 ? maturityIndex : Math.max(lastIndex, shareIndex());
    }

    /// Shares a holder could claim now.
    function pendingInterest(address user) external view returns (uint256) {
        uint256 prev = userIndex[user];
        uint256 idx = currentIndex();
        return owedShares[user] + (prev != 0 && idx > prev ? _interest(balanceOf(user), prev, idx) : 0);
    }

    /// Splits `shares` into PT and YT, one each per underlying unit the shares are worth.
    function split(uint256 shares, address receiver) external returns (uint256 amount) {
        if (isMatured()) revert Matured();
        uint256 idx = _index();
        amount = Math.mulDiv(shares, idx, ONE);
        if (amount == 0) revert ZeroAmount();
        IERC20(address(share)).safeTransferFrom(msg.sender, address(this), shares);
        _mint(receiver, amount);
        principal.mint(receiver, amount);
        emit Split(msg.sender, receiver, shares, amount);
    }

    /// Before maturity: `amount` PT and `amount` YT back into the shares they are worth now.
    function merge(uint256 amount, address receiver) external returns (uint256 shares) {
        if (isMatured()) revert Matured();
        if (amount == 0) revert ZeroAmount();
        uint256 idx = _index();
        _burn(msg.sender, amount);
        principal.burn(msg.sender, amount);
        shares = Math.mulDiv(amount, ONE, idx);
        IERC20(address(share)).safeTransfer(receiver, shares);
        emit Merged(msg.sender, receiver, amount, shares);
    }

    /// From maturity: `amount` PT into shares worth `amount` of the underlying.
    function redeemPrincipal(uint256 amount, address receiver) external returns (uint256 shares) {
        if (!isMatured()) revert NotMatured();
        if (amount == 0) revert ZeroAmount();
        uint256 idx = Math.max(_index(), shareIndex());
        principal.burn(msg.sender, amount);
        shares = Math.mulDiv(amount, ONE, idx);
        IERC20(address(share)).safeTransfer(receiver, shares);
        emit PrincipalRedeemed(msg.sender, receiver, amount, shares);
    }

    /// The shares the caller's YT has earned so far.
    function claimInterest(address receiver) external returns (uint256 shares) {
        _accrue(msg.sender, _index());
        shares = owedShares[msg.sender];
        owedShares[msg.sender] = 0;
        if (shares != 0) IERC20(address(share)).safeTransfer(receiver, shares);
        emit InterestClaimed(msg.sender, receiver, shares);
    }

    /// The index interest is counted to, stored: the running maximum before maturity, frozen after.
    function _index() internal returns (uint256 idx) {
        if (maturityIndex != 0) return maturityIndex;
        idx = Math.max(lastIndex, shareIndex());
        if (isMatured()) maturityIndex = idx;
        else lastIndex = idx;
    }

    /// Shares released from the principal of `balance` as the index went from `prev` to `idx`.
    function _interest(uint256 balance, uint256 prev, uint256 idx) private pure returns (uint256) {
        return Math.mulDiv(balance * ONE, idx - prev, prev * idx);
    }

    function _accrue(address user, uint256 idx) private {
        uint256 prev = userIndex[user];
        if (prev != 0 && idx > prev) owedShares[user] += _interest(balanceOf(user), prev, idx);
        userIndex[user] = idx;
    }

    /// Interest is settled on both sides before any YT balance changes.
    function _update(address from, address to, uint256 value) internal override {
        uint256 idx = _index();
        if (from != address(0)) _accrue(from, idx);
        if (to != address(0)) _accrue(to, idx);
        super._update(from, to, value);
    }
}
