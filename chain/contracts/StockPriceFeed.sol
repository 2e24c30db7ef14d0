// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title StockPriceFeed
/// @notice An underlying's USD price in Chainlink's AggregatorV3Interface shape (8 decimals),
/// posted round by round by its transmitter, with Chainlink's AnswerUpdated and NewRound events.
contract StockPriceFeed {
    struct Round {
        int256 answer;
        uint64 startedAt;
        uint64 updatedAt;
    }

    uint8 public constant decimals = 8;
    uint256 public constant version = 4;
    string public description;
    address public transmitter;
    uint80 public latestRound;
    mapping(uint80 => Round) private _rounds;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);
    event NewRound(uint256 indexed roundId, address indexed startedBy, uint256 startedAt);

    error NotTransmitter();
    error NoData();

    constructor(string memory description_, address transmitter_) {
        description = description_;
        transmitter = transmitter_;
    }

    /// A new round at this block's time.
    function transmit(int256 answer) external {
        if (msg.sender != transmitter) revert NotTransmitter();
        uint80 roundId = latestRound + 1;
        latestRound = roundId;
        _rounds[roundId] = Round(answer, uint64(block.timestamp), uint64(block.timestamp));
        emit NewRound(roundId, msg.sender, block.timestamp);
        emit AnswerUpdated(answer, roundId, block.timestamp);
    }

    function getRoundData(uint80 roundId) public view returns (uint80, int256, uint256, uint256, uint80) {
        Round memory r = _rounds[roundId];
        if (r.updatedAt == 0) revert NoData();
        return (roundId, r.answer, r.startedAt, r.updatedAt, roundId);
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        return getRoundData(latestRound);
    }

    function latestAnswer() external view returns (int256) {
        return _rounds[latestRound].answer;
    }

    function latestTimestamp() external view returns (uint256) {
        return _rounds[latestRound].updatedAt;
    }
}
