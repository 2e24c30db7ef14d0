// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title StockIssuerDirectory
/// @notice The issuers' registry: the StockIssuers whose tokens are genuine tokenized shares. No
/// constructor state: the embedded devnet places its code at a fixed address and writes its
/// registrar into slot 0.
contract StockIssuerDirectory {
    address public registrar;
    address[] private _issuers;
    mapping(address => string) private _names;

    event IssuerRegistered(address indexed issuer, string name);

    error NotRegistrar();
    error AlreadyRegistered(address issuer);

    function register(address issuer, string calldata issuerName) external {
        if (msg.sender != registrar) revert NotRegistrar();
        if (bytes(_names[issuer]).length != 0) revert AlreadyRegistered(issuer);
        _issuers.push(issuer);
        _names[issuer] = issuerName;
        emit IssuerRegistered(issuer, issuerName);
    }

    function issuers() external view returns (address[] memory) {
        return _issuers;
    }

    function isRegistered(address issuer) external view returns (bool) {
        return bytes(_names[issuer]).length != 0;
    }

    function nameOf(address issuer) external view returns (string memory) {
        return _names[issuer];
    }
}
