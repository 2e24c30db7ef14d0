// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {DemoToken} from "./DemoToken.sol";
import {SibylV2Factory} from "./SibylV2Factory.sol";
import {SibylV2Pair} from "./SibylV2Pair.sol";

interface IWrappedNative {
    function deposit() external payable;
    function transfer(address to, uint256 value) external returns (bool);
}

/// @title BondingCurveLaunchpad
/// @notice The `creator` venue: anyone launches a token that trades against ETH on a
/// constant-product curve with virtual reserves (the pump-style design); when the curve's
/// tokens are sold out the token graduates: the raised ETH (wrapped) and the reserved tokens
/// become a V2 pool whose LP tokens are burned.
contract BondingCurveLaunchpad {
    uint256 public constant TOTAL_SUPPLY = 1_000_000_000 ether;
    uint256 public constant CURVE_SUPPLY = 793_100_000 ether;
    uint256 public constant VIRTUAL_TOKEN_START = 1_073_000_000 ether;
    uint256 public constant VIRTUAL_ETH_START = 1.5 ether;
    uint256 public constant FEE_BPS = 100;
    address private constant DEAD = 0x000000000000000000000000000000000000dEaD;

    struct Curve {
        address creator;
        uint256 virtualEth;
        uint256 virtualToken;
        uint256 realEth;
        uint256 tokensSold;
        bool graduated;
    }

    address public immutable factory;
    address public immutable wrappedNative;
    address public immutable feeRecipient;
    mapping(address => Curve) public curves;
    address[] public launched;

    event TokenLaunched(address indexed token, address indexed creator, string name, string symbol);
    event Trade(
        address indexed token, address indexed trader, bool isBuy, uint256 ethAmount, uint256 tokenAmount,
        uint256 virtualEth, uint256 virtualToken, uint256 realEth, uint256 progressBps
    );
    event Graduated(address indexed token, address indexed pair, uint256 ethAmount, uint256 tokenAmount);

    error UnknownToken();
    error AlreadyGraduated();
    error Slippage();
    error NothingToTrade();
    error TransferFailed();

    constructor(address factory_, address wrappedNative_, address feeRecipient_) {
        factory = factory_;
        wrappedNative = wrappedNative_;
        feeRecipient = feeRecipient_;
    }

    function launchedCount() external view returns (uint256) {
        return launched.length;
    }

    function launch(string calldata name, string calldata symbol) external payable returns (address token) {
        token = address(new DemoToken(name, symbol, 18, TOTAL_SUPPLY, address(this)));
        curves[token] = Curve(msg.sender, VIRTUAL_ETH_START, VIRTUAL_TOKEN_START, 0, 0, false);
        launched.push(token);
        emit TokenLaunched(token, msg.sender, name, symbol);
        if (msg.value > 0) _buy(token, msg.sender, msg.value, 0);
    }

    function buy(address token, uint256 minTokensOut) external payable {
        _buy(token, msg.sender, msg.value, minTokensOut);
    }

    function sell(address token, uint256 tokensIn, uint256 minEthOut) external {
        Curve storage c = _live(token);
        if (tokensIn == 0) revert NothingToTrade();
        uint256 k = c.virtualEth * c.virtualToken;
        uint256 ethOut = c.virtualEth - k / (c.virtualToken + tokensIn);
        if (ethOut > c.realEth) ethOut = c.realEth;
        uint256 fee = (ethOut * FEE_BPS) / 10_000;
        if (ethOut - fee < minEthOut) revert Slippage();
        IERC20(token).transferFrom(msg.sender, address(this), tokensIn);
        c.virtualToken += tokensIn;
        c.virtualEth -= ethOut;
        c.realEth -= ethOut;
        c.tokensSold -= tokensIn;
        _send(feeRecipient, fee);
        _send(msg.sender, ethOut - fee);
        emit Trade(token, msg.sender, false, ethOut, tokensIn, c.virtualEth, c.virtualToken, c.realEth, (c.tokensSold * 10_000) / CURVE_SUPPLY);
    }

    function _buy(address token, address buyer, uint256 ethIn, uint256 minTokensOut) private {
        Curve storage c = _live(token);
        if (ethIn == 0) revert NothingToTrade();
        uint256 fee = (ethIn * FEE_BPS) / 10_000;
        uint256 spend = ethIn - fee;
        uint256 k = c.virtualEth * c.virtualToken;
        uint256 tokensOut = c.virtualToken - k / (c.virtualEth + spend);
        uint256 remaining = CURVE_SUPPLY - c.tokensSold;
        uint256 refund;
        if (tokensOut >= remaining) {
            // The last buyer takes what is left and gets the unspent ETH back.
            tokensOut = remaining;
            uint256 needed = k / (c.virtualToken - remaining) - c.virtualEth + 1;
            spend = needed;
            fee = (spend * FEE_BPS) / (10_000 - FEE_BPS);
            refund = ethIn - spend - fee;
        }
        if (tokensOut < minTokensOut) revert Slippage();
        c.virtualEth += spend;
        c.virtualToken -= tokensOut;
        c.realEth += spend;
        c.tokensSold += tokensOut;
        IERC20(token).transfer(buyer, tokensOut);
        _send(feeRecipient, fee);
        if (refund > 0) _send(buyer, refund);
        emit Trade(token, buyer, true, spend, tokensOut, c.virtualEth, c.virtualToken, c.realEth, (c.tokensSold * 10_000) / CURVE_SUPPLY);
        if (c.tokensSold == CURVE_SUPPLY) _graduate(token, c);
    }

    function _graduate(address token, Curve storage c) private {
        c.graduated = true;
        address pair = SibylV2Factory(factory).getPair(token, wrappedNative);
        if (pair == address(0)) pair = SibylV2Factory(factory).createPair(token, wrappedNative);
        uint256 tokens = TOTAL_SUPPLY - CURVE_SUPPLY;
        uint256 eth = c.realEth;
        c.realEth = 0;
        IWrappedNative(wrappedNative).deposit{value: eth}();
        IWrappedNative(wrappedNative).transfer(pair, eth);
        IERC20(token).transfer(pair, tokens);
        SibylV2Pair(pair).mint(DEAD);
        emit Graduated(token, pair, eth, tokens);
    }

    function _live(address token) private view returns (Curve storage c) {
        c = curves[token];
        if (c.creator == address(0)) revert UnknownToken();
        if (c.graduated) revert AlreadyGraduated();
    }

    function _send(address to, uint256 value) private {
        if (value == 0) return;
        (bool ok,) = to.call{value: value}("");
        if (!ok) revert TransferFailed();
    }
}
