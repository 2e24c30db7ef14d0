// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title OwnerPowersToken
/// @notice A token whose owner keeps the powers scanners look for: mint at will, blacklist
/// holders, and pause every transfer.
contract OwnerPowersToken is ERC20 {
    address public owner;
    bool public paused;
    mapping(address => bool) public blacklisted;

    error NotOwner();
    error Paused();
    error Blacklisted(address account);

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        owner = msg.sender;
        _mint(msg.sender, supply);
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    function setBlacklisted(address account, bool flag) external onlyOwner {
        blacklisted[account] = flag;
    }

    function setPaused(bool flag) external onlyOwner {
        paused = flag;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (paused && from != owner) revert Paused();
        if (blacklisted[from]) revert Blacklisted(from);
        super._update(from, to, value);
    }
}
