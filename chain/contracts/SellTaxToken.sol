// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title SellTaxToken
/// @notice A token whose owner can tax or block sells: a transfer into a registered pool from
/// anyone but the owner pays `sellTaxBps` to the owner, and reverts when sells are blocked
/// (a honeypot). Buys are untouched, which is what makes such tokens look tradeable.
contract SellTaxToken is ERC20 {
    address public immutable owner;
    uint16 public sellTaxBps;
    bool public sellsBlocked;
    mapping(address => bool) public isPool;

    error NotOwner();
    error SellBlocked();

    constructor(string memory name_, string memory symbol_, uint256 supply, uint16 sellTaxBps_, bool sellsBlocked_) ERC20(name_, symbol_) {
        owner = msg.sender;
        sellTaxBps = sellTaxBps_;
        sellsBlocked = sellsBlocked_;
        _mint(msg.sender, supply);
    }

    function setPool(address pool, bool flag) external {
        if (msg.sender != owner) revert NotOwner();
        isPool[pool] = flag;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (isPool[to] && from != owner && from != address(0)) {
            if (sellsBlocked) revert SellBlocked();
            uint256 tax = (value * sellTaxBps) / 10_000;
            if (tax > 0) {
                super._update(from, owner, tax);
                value -= tax;
            }
        }
        super._update(from, to, value);
    }
}
