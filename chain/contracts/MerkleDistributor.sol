// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";
import {BitMaps} from "@openzeppelin/contracts/utils/structs/BitMaps.sol";

/// @title MerkleDistributor
/// @notice A merkle airdrop with a claim deadline, with the interface and events real
/// distributors have (Uniswap's MerkleDistributor and MerkleDistributorWithDeadline): a leaf is
/// keccak256(abi.encodePacked(index, account, amount)), proofs hash sorted pairs (OpenZeppelin
/// MerkleProof), anyone may submit an account's claim and the tokens go to that account. After
/// `endTime` claims revert and the owner may take back what is left.
contract MerkleDistributor {
    using SafeERC20 for IERC20;
    using BitMaps for BitMaps.BitMap;

    address public immutable token;
    bytes32 public immutable merkleRoot;
    uint256 public immutable endTime;
    address public immutable owner;

    BitMaps.BitMap private claimed;

    event Claimed(uint256 index, address account, uint256 amount);

    error AlreadyClaimed();
    error InvalidProof();
    error ClaimWindowFinished();
    error NoWithdrawDuringClaim();
    error NotOwner();

    constructor(address token_, bytes32 merkleRoot_, uint256 endTime_, address owner_) {
        token = token_;
        merkleRoot = merkleRoot_;
        endTime = endTime_;
        owner = owner_;
    }

    function isClaimed(uint256 index) public view returns (bool) {
        return claimed.get(index);
    }

    function claim(uint256 index, address account, uint256 amount, bytes32[] calldata merkleProof) external {
        if (block.timestamp > endTime) revert ClaimWindowFinished();
        if (claimed.get(index)) revert AlreadyClaimed();
        bytes32 leaf = keccak256(abi.encodePacked(index, account, amount));
        if (!MerkleProof.verifyCalldata(merkleProof, merkleRoot, leaf)) revert InvalidProof();
        claimed.set(index);
        IERC20(token).safeTransfer(account, amount);
        emit Claimed(index, account, amount);
    }

    /// @notice What nobody claimed goes back to the owner once the window has closed.
    function withdraw() external {
        if (msg.sender != owner) revert NotOwner();
        if (block.timestamp <= endTime) revert NoWithdrawDuringClaim();
        IERC20(token).safeTransfer(owner, IERC20(token).balanceOf(address(this)));
    }
}
