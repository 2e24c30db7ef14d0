// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title StockFeedDirectory
/// @notice Where each underlying's price feed is found, by ticker. No constructor state: the
/// embedded devnet places its code at a fixed address and writes its registrar into slot 0.
contract StockFeedDirectory {
    address public registrar;
    string[] private _underlyings;
    mapping(string => address) private _feeds;

    event FeedSet(string underlying, address feed);

    error NotRegistrar();

    function setFeed(string calldata underlying, address feedAddress) external {
        if (msg.sender != registrar) revert NotRegistrar();
        if (_feeds[underlying] == address(0)) _underlyings.push(underlying);
        _feeds[underlying] = feedAddress;
        emit FeedSet(underlying, feedAddress);
    }

    function feed(string calldata underlying) external view returns (address) {
        return _feeds[underlying];
    }

    function underlyings() external view returns (string[] memory) {
        return _underlyings;
    }
}
