// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {StockToken} from "./StockToken.sol";

/// @title StockIssuer
/// @notice One issuer of tokenized shares: its own registry of the tokens it lists (each a
/// StockToken naming this contract as its issuer) and its attestations of the shares it holds in
/// reserve behind each, in shares of the underlying (18 decimals, the tokens' UI units).
contract StockIssuer {
    struct Attestation {
        uint256 reserveShares;
        uint256 asOf;
        uint256 attestedAt;
    }

    string public name;
    address public owner;
    address[] private _tokens;
    mapping(address => bool) public listed;
    mapping(address => Attestation) private _attestations;

    event StockTokenListed(address indexed token, string underlying, string symbol);
    event ReservesAttested(address indexed token, uint256 reserveShares, uint256 asOf);

    error NotOwner();
    error NotListed(address token);

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    constructor(string memory name_, address owner_) {
        name = name_;
        owner = owner_;
    }

    function listToken(string calldata underlying, string calldata tokenName, string calldata tokenSymbol) external onlyOwner returns (address token) {
        token = address(new StockToken(tokenName, tokenSymbol, underlying, owner));
        _tokens.push(token);
        listed[token] = true;
        emit StockTokenListed(token, underlying, tokenSymbol);
    }

    function tokens() external view returns (address[] memory) {
        return _tokens;
    }

    /// The shares held in reserve behind `token` as of `asOf` (unix seconds).
    function attest(address token, uint256 reserveShares, uint256 asOf) external onlyOwner {
        if (!listed[token]) revert NotListed(token);
        _attestations[token] = Attestation(reserveShares, asOf, block.timestamp);
        emit ReservesAttested(token, reserveShares, asOf);
    }

    function attestation(address token) external view returns (uint256 reserveShares, uint256 asOf, uint256 attestedAt) {
        Attestation memory a = _attestations[token];
        return (a.reserveShares, a.asOf, a.attestedAt);
    }
}
