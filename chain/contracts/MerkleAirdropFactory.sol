// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MerkleDistributor} from "./MerkleDistributor.sol";

/// @title MerkleAirdropFactory
/// @notice Creates MerkleDistributors and publishes their leaves on chain. Real airdrops publish
/// their trees off chain; here every (index, account, amount) is emitted with the distributor,
/// so an indexer can rebuild the tree (and every proof) from the chain alone and check it
/// against the distributor's merkleRoot(). Placed at a fixed address with no constructor state.
contract MerkleAirdropFactory {
    /// @notice Leaves are emitted in chunks of at most this many per LeavesPublished event.
    uint256 public constant CHUNK = 64;

    event DistributorCreated(address indexed distributor, address indexed token, address indexed creator, bytes32 merkleRoot, uint256 endTime, uint256 leafCount);
    event LeavesPublished(address indexed distributor, uint256[] index, address[] account, uint256[] amount);

    error LengthMismatch();

    /// @notice The distributor's CREATE2 salt: one per (creator, token, root, deadline).
    function saltOf(address creator, address token, bytes32 merkleRoot, uint256 endTime) public pure returns (bytes32) {
        return keccak256(abi.encode(creator, token, merkleRoot, endTime));
    }

    /// @notice Creates a distributor owned by the caller and publishes its leaves. The caller
    /// funds it afterwards with a plain token transfer. The leaves are not checked against the
    /// root here: readers rebuild the tree and compare before trusting them.
    function createDistributor(address token, bytes32 merkleRoot, uint256 endTime, uint256[] calldata index, address[] calldata account, uint256[] calldata amount) external returns (address distributor) {
        uint256 n = index.length;
        if (account.length != n || amount.length != n) revert LengthMismatch();
        distributor = address(new MerkleDistributor{salt: saltOf(msg.sender, token, merkleRoot, endTime)}(token, merkleRoot, endTime, msg.sender));
        emit DistributorCreated(distributor, token, msg.sender, merkleRoot, endTime, n);
        for (uint256 from = 0; from < n; from += CHUNK) {
            uint256 to = from + CHUNK < n ? from + CHUNK : n;
            emit LeavesPublished(distributor, index[from:to], account[from:to], amount[from:to]);
        }
    }
}
