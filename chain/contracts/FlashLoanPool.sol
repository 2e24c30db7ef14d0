// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

interface IERC3156FlashBorrower {
    function onFlashLoan(address initiator, address token, uint256 amount, uint256 fee, bytes calldata data) external returns (bytes32);
}

/// @title FlashLoanPool
/// @notice An ERC-3156 lender over whatever tokens it holds, 0.09% fee, emitting FlashLoan
/// for each loan so indexers can follow flash-loan activity.
contract FlashLoanPool {
    using SafeERC20 for IERC20;

    bytes32 private constant CALLBACK_SUCCESS = keccak256("ERC3156FlashBorrower.onFlashLoan");
    uint256 public constant FEE_BPS = 9;

    event FlashLoan(address indexed receiver, address indexed token, uint256 amount, uint256 fee);

    error CallbackFailed();

    function maxFlashLoan(address token) external view returns (uint256) {
        return IERC20(token).balanceOf(address(this));
    }

    function flashFee(address, uint256 amount) public pure returns (uint256) {
        return (amount * FEE_BPS) / 10_000;
    }

    function flashLoan(IERC3156FlashBorrower receiver, address token, uint256 amount, bytes calldata data) external returns (bool) {
        uint256 fee = flashFee(token, amount);
        IERC20(token).safeTransfer(address(receiver), amount);
        if (receiver.onFlashLoan(msg.sender, token, amount, fee, data) != CALLBACK_SUCCESS) revert CallbackFailed();
        IERC20(token).safeTransferFrom(address(receiver), address(this), amount + fee);
        emit FlashLoan(address(receiver), token, amount, fee);
        return true;
    }
}
