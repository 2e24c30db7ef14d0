// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SibylV2Pair} from "./SibylV2Pair.sol";

/// @title SibylV2Factory
/// @notice Uniswap-V2-compatible factory: createPair, getPair, allPairs, allPairsLength and
/// the PairCreated(token0, token1, pair, index) event; pairs are created with CREATE2 salted
/// by the sorted token addresses, so pair addresses are predictable as in V2.
contract SibylV2Factory {
    address public feeTo;
    address public feeToSetter;
    mapping(address => mapping(address => address)) public getPair;
    address[] public allPairs;

    event PairCreated(address indexed token0, address indexed token1, address pair, uint256);

    error IdenticalAddresses();
    error ZeroAddress();
    error PairExists();

    constructor(address _feeToSetter) {
        feeToSetter = _feeToSetter;
    }

    function allPairsLength() external view returns (uint256) {
        return allPairs.length;
    }

    function createPair(address tokenA, address tokenB) external returns (address pair) {
        if (tokenA == tokenB) revert IdenticalAddresses();
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        if (token0 == address(0)) revert ZeroAddress();
        if (getPair[token0][token1] != address(0)) revert PairExists();
        pair = address(new SibylV2Pair{salt: keccak256(abi.encodePacked(token0, token1))}());
        SibylV2Pair(pair).initialize(token0, token1);
        getPair[token0][token1] = pair;
        getPair[token1][token0] = pair;
        allPairs.push(pair);
        emit PairCreated(token0, token1, pair, allPairs.length);
    }
}
