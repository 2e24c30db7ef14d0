// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title ServiceToken
/// @notice Sibyl's service token on the embedded Base: holders call the forecast endpoint under
/// a daily free quota set by their balance. Name and symbol are constants, so the runtime code
/// can be placed at a fixed address with anvil_setCode and the supply minted once by initialize.
contract ServiceToken is ERC20 {
    bool private _initialized;

    error AlreadyInitialized();

    constructor() ERC20("", "") {}

    function name() public pure override returns (string memory) {
        return "Sibyl";
    }

    function symbol() public pure override returns (string memory) {
        return "SIBYL";
    }

    function initialize(address holder, uint256 supply) external {
        if (_initialized) revert AlreadyInitialized();
        _initialized = true;
        _mint(holder, supply);
    }
}
