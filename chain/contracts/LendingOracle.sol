// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title LendingOracle
/// @notice The lending market's price source with Aave v3's oracle interface: getAssetPrice(asset)
/// in the base currency, USD with 8 decimals (BASE_CURRENCY 0x0, BASE_CURRENCY_UNIT 1e8). Its
/// owner, and a poster the owner names (the world's price feed), post prices; each change is
/// logged, so a price as of a past block can be read from the logs where a node keeps no
/// historical state. Placed with anvil_setCode: `initialize` sets the owner once.
contract LendingOracle {
    address public owner;
    address public poster;
    mapping(address => uint256) internal prices;

    event AssetPriceUpdated(address indexed asset, uint256 price, uint256 timestamp);

    error AlreadyInitialized();
    error NotOwner();
    error NotPoster();
    error NoPrice(address asset);
    error LengthMismatch();

    function initialize(address owner_) external {
        if (owner != address(0)) revert AlreadyInitialized();
        owner = owner_;
    }

    function setPoster(address poster_) external {
        if (msg.sender != owner) revert NotOwner();
        poster = poster_;
    }

    function setAssetPrices(address[] calldata assets, uint256[] calldata newPrices) external {
        if (msg.sender != owner && msg.sender != poster) revert NotPoster();
        if (assets.length != newPrices.length) revert LengthMismatch();
        for (uint256 i = 0; i < assets.length; i++) {
            prices[assets[i]] = newPrices[i];
            emit AssetPriceUpdated(assets[i], newPrices[i], block.timestamp);
        }
    }

    function getAssetPrice(address asset) public view returns (uint256 price) {
        price = prices[asset];
        if (price == 0) revert NoPrice(asset);
    }

    function getAssetsPrices(address[] calldata assets) external view returns (uint256[] memory out) {
        out = new uint256[](assets.length);
        for (uint256 i = 0; i < assets.length; i++) out[i] = getAssetPrice(assets[i]);
    }

    function BASE_CURRENCY() external pure returns (address) {
        return address(0);
    }

    function BASE_CURRENCY_UNIT() external pure returns (uint256) {
        return 1e8;
    }
}
