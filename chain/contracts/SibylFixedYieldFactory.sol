// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {IERC4626} from "@openzeppelin/contracts/interfaces/IERC4626.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {SibylYieldToken} from "./SibylYieldToken.sol";

/// @title SibylFixedYieldFactory
/// @notice Creates fixed-rate markets, one per (ERC-4626 share, maturity): each a SibylYieldToken
/// (the splitter and its YT) with its SibylPrincipalToken, announced with MarketCreated, by which
/// indexers find them. Names carry the maturity date (UTC, yyyymmdd), e.g. PT-syUSDC-20260315.
/// No constructor state: the embedded devnet places its code at a fixed address.
contract SibylFixedYieldFactory {
    address[] public allMarkets;
    mapping(address => mapping(uint256 => address)) public marketOf;

    event MarketCreated(address indexed share, address indexed underlying, uint256 indexed maturity, address pt, address yt);

    error MaturityPassed();
    error MarketExists(address market);

    function createMarket(IERC4626 share, uint256 maturity) external returns (address yt, address pt) {
        if (maturity <= block.timestamp) revert MaturityPassed();
        if (marketOf[address(share)][maturity] != address(0)) revert MarketExists(marketOf[address(share)][maturity]);
        string memory tag = string.concat(IERC20Metadata(address(share)).symbol(), "-", _date(maturity));
        SibylYieldToken market = new SibylYieldToken(share, maturity, string.concat("YT ", tag), string.concat("YT-", tag), string.concat("PT ", tag), string.concat("PT-", tag));
        yt = address(market);
        pt = address(market.principal());
        marketOf[address(share)][maturity] = yt;
        allMarkets.push(yt);
        emit MarketCreated(address(share), market.underlying(), maturity, pt, yt);
    }

    function allMarketsLength() external view returns (uint256) {
        return allMarkets.length;
    }

    /// yyyymmdd of a unix time (UTC), by the days-to-civil-date algorithm (proleptic Gregorian).
    function _date(uint256 ts) private pure returns (string memory) {
        uint256 z = ts / 86400 + 719468;
        uint256 era = z / 146097;
        uint256 doe = z - era * 146097;
        uint256 yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        uint256 doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        uint256 mp = (5 * doy + 2) / 153;
        uint256 d = doy - (153 * mp + 2) / 5 + 1;
        uint256 m = mp < 10 ? mp + 3 : mp - 9;
        uint256 y = yoe + era * 400 + (m <= 2 ? 1 : 0);
        return string.concat(Strings.toString(y), m < 10 ? "0" : "", Strings.toString(m), d < 10 ? "0" : "", Strings.toString(d));
    }
}
