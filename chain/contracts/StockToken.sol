// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";

/// @title StockToken
/// @notice A tokenized share: an ERC-20 (18 decimals) with ERC-8056's Scaled UI Amount and its
/// pending-multiplier extension. One raw token stands for `uiMultiplier() / 1e18` shares of its
/// underlying; splits and reinvested dividends move the multiplier at their effective moment and
/// never a balance. Its issuer mints against shares bought and burns on redemption, and may pause
/// every transfer or block an account.
contract StockToken is ERC20, Pausable {
    uint256 private constant ONE = 1e18;

    /// The contract that created it (a StockIssuer, or whoever deployed it outside one).
    address public immutable issuer;
    /// The issuer's operating account, which holds the issuer's powers beside the issuer contract.
    address public owner;
    string private _underlying;

    uint256 private _multiplier = ONE;
    uint256 private _newMultiplier = ONE;
    uint256 private _effectiveAt;
    mapping(address => bool) private _blocklisted;

    event UIMultiplierUpdated(uint256 oldMultiplier, uint256 newMultiplier, uint256 setAt, uint256 effectiveAt);
    event Blocklisted(address indexed account, bool blocked);

    error NotIssuer();
    error AccountBlocklisted(address account);
    error BadMultiplier();
    error EffectiveInPast();

    modifier onlyIssuer() {
        if (msg.sender != issuer && msg.sender != owner) revert NotIssuer();
        _;
    }

    constructor(string memory name_, string memory symbol_, string memory underlying_, address owner_) ERC20(name_, symbol_) {
        issuer = msg.sender;
        owner = owner_;
        _underlying = underlying_;
    }

    /// The ticker of the share it wraps (e.g. AAPL).
    function underlying() external view returns (string memory) {
        return _underlying;
    }

    // ---- ERC-8056 ----

    /// The multiplier in effect now (18 decimals): the pending one once its moment has come.
    function uiMultiplier() public view returns (uint256) {
        return block.timestamp >= _effectiveAt ? _newMultiplier : _multiplier;
    }

    /// The latest multiplier set; in effect from `effectiveAt()`.
    function newUIMultiplier() external view returns (uint256) {
        return _newMultiplier;
    }

    function effectiveAt() external view returns (uint256) {
        return _effectiveAt;
    }

    function balanceOfUI(address account) external view returns (uint256) {
        return (balanceOf(account) * uiMultiplier()) / ONE;
    }

    function toUIAmount(uint256 amount) external view returns (uint256) {
        return (amount * uiMultiplier()) / ONE;
    }

    function fromUIAmount(uint256 uiAmount) external view returns (uint256) {
        return (uiAmount * ONE) / uiMultiplier();
    }

    /// Schedules `newMultiplier` from `effectiveAtTimestamp` (now or later); the one in effect until then stays.
    function setUIMultiplier(uint256 newMultiplier, uint256 effectiveAtTimestamp) external onlyIssuer {
        if (newMultiplier == 0) revert BadMultiplier();
        if (effectiveAtTimestamp < block.timestamp) revert EffectiveInPast();
        uint256 current = uiMultiplier();
        _multiplier = current;
        _newMultiplier = newMultiplier;
        _effectiveAt = effectiveAtTimestamp;
        emit UIMultiplierUpdated(current, newMultiplier, block.timestamp, effectiveAtTimestamp);
    }

    // ---- the issuer's powers ----

    function mint(address to, uint256 amount) external onlyIssuer {
        _mint(to, amount);
    }

    function burn(address from, uint256 amount) external onlyIssuer {
        _burn(from, amount);
    }

    function pause() external onlyIssuer {
        _pause();
    }

    function unpause() external onlyIssuer {
        _unpause();
    }

    function setBlocklisted(address account, bool blocked) external onlyIssuer {
        _blocklisted[account] = blocked;
        emit Blocklisted(account, blocked);
    }

    function isBlocklisted(address account) external view returns (bool) {
        return _blocklisted[account];
    }

    function _update(address from, address to, uint256 value) internal override {
        // Transfers stop while paused and for a blocked account; the issuer still burns (a seizure) and
        // mints, though never to a blocked account.
        if (from != address(0) && to != address(0)) {
            _requireNotPaused();
            if (_blocklisted[from]) revert AccountBlocklisted(from);
        }
        if (to != address(0) && _blocklisted[to]) revert AccountBlocklisted(to);
        super._update(from, to, value);
    }
}
