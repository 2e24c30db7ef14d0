// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title DemoSmartWallet
/// @notice A minimal contract wallet answering EIP-1271 for its owner's ECDSA signatures, so
/// payments from contract wallets can be exercised on the devnet.
contract DemoSmartWallet {
    bytes4 private constant MAGIC = 0x1626ba7e;
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address recovered, ECDSA.RecoverError err,) = ECDSA.tryRecover(hash, signature);
        return err == ECDSA.RecoverError.NoError && recovered == owner ? MAGIC : bytes4(0xffffffff);
    }
}
