// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title SibylPrincipalToken
/// @notice The principal half (PT) of a yield-bearing ERC-4626 share split by a SibylYieldToken
/// market: from maturity each unit redeems, at its market, shares worth one unit of the underlying.
/// Before maturity it trades below one unit; the discount is the fixed rate a buyer locks.
/// Only its market mints and burns it.
contract SibylPrincipalToken is ERC20 {
    address public immutable market;
    address public immutable underlying;
    uint256 public immutable maturity;
    uint8 private immutable _decimals;

    error NotMarket();

    constructor(string memory name_, string memory symbol_, uint8 decimals_, address underlying_, uint256 maturity_) ERC20(name_, symbol_) {
        market = msg.sender;
        underlying = underlying_;
        maturity = maturity_;
        _decimals = decimals_;
    }

    modifier onlyMarket() {
        if (msg.sender != market) revert NotMarket();
        _;
    }

    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    function mint(address to, uint256 amount) external onlyMarket {
        _mint(to, amount);
    }

    function burn(address from, uint256 amount) external onlyMarket {
        _burn(from, amount);
    }
}
