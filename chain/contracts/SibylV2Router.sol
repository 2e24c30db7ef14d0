// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SibylV2Factory} from "./SibylV2Factory.sol";
import {SibylV2Pair} from "./SibylV2Pair.sol";

/// @title SibylV2Router
/// @notice The Uniswap V2 router's core functions (addLiquidity, removeLiquidity,
/// swapExactTokensForTokens, getAmountsOut) over one SibylV2Factory, written from the V2
/// description. Traders that use it appear in Swap events with the router as `sender`.
contract SibylV2Router {
    using SafeERC20 for IERC20;

    address public immutable factory;

    error Expired();
    error InvalidPath();
    error InsufficientOutputAmount();
    error InsufficientAAmount();
    error InsufficientBAmount();
    error InsufficientLiquidity();

    constructor(address factory_) {
        factory = factory_;
    }

    modifier ensure(uint256 deadline) {
        if (deadline < block.timestamp) revert Expired();
        _;
    }

    function getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) public pure returns (uint256) {
        if (reserveIn == 0 || reserveOut == 0) revert InsufficientLiquidity();
        uint256 amountInWithFee = amountIn * 997;
        return (amountInWithFee * reserveOut) / (reserveIn * 1000 + amountInWithFee);
    }

    function _reserves(address tokenA, address tokenB) private view returns (address pair, uint256 reserveA, uint256 reserveB) {
        pair = SibylV2Factory(factory).getPair(tokenA, tokenB);
        if (pair == address(0)) revert InvalidPath();
        (uint112 r0, uint112 r1,) = SibylV2Pair(pair).getReserves();
        (reserveA, reserveB) = tokenA < tokenB ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
    }

    function getAmountsOut(uint256 amountIn, address[] memory path) public view returns (uint256[] memory amounts) {
        if (path.length < 2) revert InvalidPath();
        amounts = new uint256[](path.length);
        amounts[0] = amountIn;
        for (uint256 i; i < path.length - 1; i++) {
            (, uint256 reserveIn, uint256 reserveOut) = _reserves(path[i], path[i + 1]);
            amounts[i + 1] = getAmountOut(amounts[i], reserveIn, reserveOut);
        }
    }

    function addLiquidity(
        address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired,
        uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline
    ) external ensure(deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity) {
        address pair;
        (pair, amountA, amountB) = _liquidityAmounts(tokenA, tokenB, amountADesired, amountBDesired, amountAMin, amountBMin);
        IERC20(tokenA).safeTransferFrom(msg.sender, pair, amountA);
        IERC20(tokenB).safeTransferFrom(msg.sender, pair, amountB);
        liquidity = SibylV2Pair(pair).mint(to);
    }

    /// The pair (created when missing) and the amounts that keep its price, as V2 computes them.
    function _liquidityAmounts(
        address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin
    ) private returns (address pair, uint256 amountA, uint256 amountB) {
        pair = SibylV2Factory(factory).getPair(tokenA, tokenB);
        if (pair == address(0)) pair = SibylV2Factory(factory).createPair(tokenA, tokenB);
        (, uint256 reserveA, uint256 reserveB) = _reserves(tokenA, tokenB);
        if (reserveA == 0 && reserveB == 0) return (pair, amountADesired, amountBDesired);
        uint256 amountBOptimal = (amountADesired * reserveB) / reserveA;
        if (amountBOptimal <= amountBDesired) {
            if (amountBOptimal < amountBMin) revert InsufficientBAmount();
            return (pair, amountADesired, amountBOptimal);
        }
        uint256 amountAOptimal = (amountBDesired * reserveA) / reserveB;
        if (amountAOptimal < amountAMin) revert InsufficientAAmount();
        return (pair, amountAOptimal, amountBDesired);
    }

    function removeLiquidity(
        address tokenA, address tokenB, uint256 liquidity, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline
    ) external ensure(deadline) returns (uint256 amountA, uint256 amountB) {
        (address pair,,) = _reserves(tokenA, tokenB);
        IERC20(pair).safeTransferFrom(msg.sender, pair, liquidity);
        (uint256 amount0, uint256 amount1) = SibylV2Pair(pair).burn(to);
        (amountA, amountB) = tokenA < tokenB ? (amount0, amount1) : (amount1, amount0);
        if (amountA < amountAMin) revert InsufficientAAmount();
        if (amountB < amountBMin) revert InsufficientBAmount();
    }

    function swapExactTokensForTokens(
        uint256 amountIn, uint256 amountOutMin, address[] calldata path, address to, uint256 deadline
    ) external ensure(deadline) returns (uint256[] memory amounts) {
        amounts = getAmountsOut(amountIn, path);
        if (amounts[amounts.length - 1] < amountOutMin) revert InsufficientOutputAmount();
        (address firstPair,,) = _reserves(path[0], path[1]);
        IERC20(path[0]).safeTransferFrom(msg.sender, firstPair, amounts[0]);
        _swap(amounts, path, to);
    }

    /// Each hop sends its output straight to the next pair, the last one to `to`.
    function _swap(uint256[] memory amounts, address[] calldata path, address to) private {
        for (uint256 i; i < path.length - 1; i++) {
            address pair = SibylV2Factory(factory).getPair(path[i], path[i + 1]);
            (uint256 amount0Out, uint256 amount1Out) =
                path[i] < path[i + 1] ? (uint256(0), amounts[i + 1]) : (amounts[i + 1], uint256(0));
            address recipient = i < path.length - 2 ? SibylV2Factory(factory).getPair(path[i + 1], path[i + 2]) : to;
            SibylV2Pair(pair).swap(amount0Out, amount1Out, recipient, new bytes(0));
        }
    }
}
