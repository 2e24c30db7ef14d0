// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {StockPriceFeed} from "./StockPriceFeed.sol";

/// @title StockFeedTransmitter
/// @notice Posts the rounds of many StockPriceFeeds in one transaction (a forwarder, as oracle
/// networks' transmitters are): each feed still records its own round and emits its own events.
contract StockFeedTransmitter {
    address public immutable operator;

    error NotOperator();
    error LengthMismatch();

    constructor(address operator_) {
        operator = operator_;
    }

    function transmit(StockPriceFeed[] calldata feeds, int256[] calldata answers) external {
        if (msg.sender != operator) revert NotOperator();
        if (feeds.length != answers.length) revert LengthMismatch();
        for (uint256 i = 0; i < feeds.length; i++) feeds[i].transmit(answers[i]);
    }
}
