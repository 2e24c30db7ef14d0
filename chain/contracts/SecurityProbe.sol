// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC20Like {
    function balanceOf(address) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
}

interface IWrappedNativeLike {
    function deposit() external payable;
}

interface IV2PairLike {
    function token0() external view returns (address);
    function getReserves() external view returns (uint112, uint112, uint32);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

/// @title SecurityProbe
/// @notice Never deployed: Sibyl places its code at a random address with an eth_call state
/// override and calls `probe`, which buys a token with native coin straight through its V2
/// pairs and sells it back, measuring what each transfer really delivered. Pairs are used
/// directly (not a router) so fee-on-transfer tokens are measured instead of reverting.
contract SecurityProbe {
    struct Result {
        uint256 buyExpected; // what the last pair's curve owed for what arrived
        uint256 buyReceived; // what reached the probe
        uint256 sellSent;
        uint256 sellArrived; // what reached the pair
        uint256 sellExpected; // what the pair's curve owed for what arrived
        uint256 sellReceived; // what reached the probe
        bool sellReverted;
        bytes sellError;
    }

    /// @param path tokens from the wrapped native to the probed token
    /// @param pairs the V2 pair of each hop of `path`
    function probe(address wrappedNative, address[] calldata path, address[] calldata pairs, uint256 nativeIn)
        external
        returns (Result memory r)
    {
        IWrappedNativeLike(wrappedNative).deposit{value: nativeIn}();
        uint256 amount = nativeIn;
        for (uint256 i; i < pairs.length; i++) {
            (uint256 owed, uint256 received) = _hop(pairs[i], path[i], path[i + 1], amount);
            amount = received;
            if (i == pairs.length - 1) {
                r.buyExpected = owed;
                r.buyReceived = received;
            }
        }
        address token = path[path.length - 1];
        address quote = path[path.length - 2];
        r.sellSent = amount;
        try this.sellLeg(pairs[pairs.length - 1], token, quote, amount) returns (uint256 arrived, uint256 owed, uint256 received) {
            r.sellArrived = arrived;
            r.sellExpected = owed;
            r.sellReceived = received;
        } catch (bytes memory reason) {
            r.sellReverted = true;
            r.sellError = reason;
        }
    }

    /// External so that `probe` can catch its revert; only the probe itself may call it.
    function sellLeg(address pair, address token, address quote, uint256 amount) external returns (uint256 arrived, uint256 owed, uint256 received) {
        require(msg.sender == address(this), "self only");
        (uint256 reserveIn,) = _reserves(pair, token);
        (owed, received) = _hop(pair, token, quote, amount);
        arrived = IERC20Like(token).balanceOf(pair) - reserveIn;
    }

    /// Sends `amount` of `tokenIn` to the pair, swaps what arrived, returns (owed, received).
    function _hop(address pair, address tokenIn, address tokenOut, uint256 amount) private returns (uint256 owed, uint256 received) {
        (uint256 reserveIn, uint256 reserveOut) = _reserves(pair, tokenIn);
        IERC20Like(tokenIn).transfer(pair, amount);
        uint256 arrived = IERC20Like(tokenIn).balanceOf(pair) - reserveIn;
        owed = (arrived * 997 * reserveOut) / (reserveIn * 1000 + arrived * 997);
        uint256 before = IERC20Like(tokenOut).balanceOf(address(this));
        (uint256 out0, uint256 out1) = IV2PairLike(pair).token0() == tokenIn ? (uint256(0), owed) : (owed, uint256(0));
        IV2PairLike(pair).swap(out0, out1, address(this), new bytes(0));
        received = IERC20Like(tokenOut).balanceOf(address(this)) - before;
    }

    function _reserves(address pair, address tokenIn) private view returns (uint256 reserveIn, uint256 reserveOut) {
        (uint112 r0, uint112 r1,) = IV2PairLike(pair).getReserves();
        (reserveIn, reserveOut) = IV2PairLike(pair).token0() == tokenIn ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
    }
}
