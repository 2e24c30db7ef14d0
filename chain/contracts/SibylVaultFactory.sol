// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SibylVault} from "./SibylVault.sol";

/// @title SibylVaultFactory
/// @notice Creates SibylVaults and announces each with VaultCreated, by which indexers find them.
/// No constructor state: the embedded devnet places its code at a fixed address.
contract SibylVaultFactory {
    address[] public allVaults;

    event VaultCreated(address indexed vault, address indexed asset, address indexed curator, string name, string symbol);

    function createVault(IERC20 asset, string calldata name, string calldata symbol) external returns (address vault) {
        vault = address(new SibylVault(asset, name, symbol, msg.sender));
        allVaults.push(vault);
        emit VaultCreated(vault, address(asset), msg.sender, name, symbol);
    }

    function allVaultsLength() external view returns (uint256) {
        return allVaults.length;
    }
}
