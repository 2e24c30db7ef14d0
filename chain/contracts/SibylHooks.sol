// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {StorageSlot} from "@openzeppelin/contracts/utils/StorageSlot.sol";
import {SibylPoolManager, PoolKey, ModifyLiquidityParams, SwapParams, IPoolHooks} from "./SibylPoolManager.sol";

/// The hooks the embedded world attaches to SibylPoolManager pools. Each is deployed with CREATE2
/// at an address whose lowest 14 bits are exactly the callbacks it implements; every callback it
/// does not implement reverts. Some are benign, some give their owner powers over the pools that
/// use them, one takes the whole input of every swap.
abstract contract SibylHookBase is IPoolHooks {
    SibylPoolManager public immutable manager;

    error NotManager();
    error HookNotImplemented();

    modifier onlyManager() {
        if (msg.sender != address(manager)) revert NotManager();
        _;
    }

    constructor(SibylPoolManager manager_) {
        manager = manager_;
    }

    function beforeInitialize(address, PoolKey calldata, uint160) external virtual returns (bytes4) {
        revert HookNotImplemented();
    }

    function afterInitialize(address, PoolKey calldata, uint160, int24) external virtual returns (bytes4) {
        revert HookNotImplemented();
    }

    function beforeAddLiquidity(address, PoolKey calldata, ModifyLiquidityParams calldata, bytes calldata) external virtual returns (bytes4) {
        revert HookNotImplemented();
    }

    function afterAddLiquidity(address, PoolKey calldata, ModifyLiquidityParams calldata, int256, int256, bytes calldata) external virtual returns (bytes4, int256) {
        revert HookNotImplemented();
    }

    function beforeRemoveLiquidity(address, PoolKey calldata, ModifyLiquidityParams calldata, bytes calldata) external virtual returns (bytes4) {
        revert HookNotImplemented();
    }

    function afterRemoveLiquidity(address, PoolKey calldata, ModifyLiquidityParams calldata, int256, int256, bytes calldata) external virtual returns (bytes4, int256) {
        revert HookNotImplemented();
    }

    function beforeSwap(address, PoolKey calldata, SwapParams calldata, bytes calldata) external virtual returns (bytes4, int256, uint24) {
        revert HookNotImplemented();
    }

    function afterSwap(address, PoolKey calldata, SwapParams calldata, int256, bytes calldata) external virtual returns (bytes4, int128) {
        revert HookNotImplemented();
    }

    function beforeDonate(address, PoolKey calldata, uint256, uint256, bytes calldata) external virtual returns (bytes4) {
        revert HookNotImplemented();
    }

    function afterDonate(address, PoolKey calldata, uint256, uint256, bytes calldata) external virtual returns (bytes4) {
        revert HookNotImplemented();
    }

    function idOf(PoolKey calldata key) internal pure returns (bytes32) {
        return keccak256(abi.encode(key));
    }

    function abs(int256 x) internal pure returns (uint256) {
        return uint256(x >= 0 ? x : -x);
    }
}

/// Benign: an on-chain volume and liquidity-activity oracle (after add/remove liquidity, after swap).
contract VolumeOracleHook is SibylHookBase {
    struct Observation {
        uint256 volume0;
        uint256 volume1;
        uint64 swaps;
        uint64 liquidityChanges;
        uint64 updatedAt;
    }

    mapping(bytes32 => Observation) public observations;

    constructor(SibylPoolManager manager_) SibylHookBase(manager_) {}

    function afterAddLiquidity(address, PoolKey calldata key, ModifyLiquidityParams calldata, int256, int256, bytes calldata) external override onlyManager returns (bytes4, int256) {
        _touch(idOf(key));
        return (this.afterAddLiquidity.selector, 0);
    }

    function afterRemoveLiquidity(address, PoolKey calldata key, ModifyLiquidityParams calldata, int256, int256, bytes calldata) external override onlyManager returns (bytes4, int256) {
        _touch(idOf(key));
        return (this.afterRemoveLiquidity.selector, 0);
    }

    function afterSwap(address, PoolKey calldata key, SwapParams calldata, int256 delta, bytes calldata) external override onlyManager returns (bytes4, int128) {
        Observation storage o = observations[idOf(key)];
        o.volume0 += abs(delta >> 128);
        o.volume1 += abs(int256(int128(delta)));
        o.swaps += 1;
        o.updatedAt = uint64(block.timestamp);
        return (this.afterSwap.selector, 0);
    }

    function _touch(bytes32 id) private {
        observations[id].liquidityChanges += 1;
        observations[id].updatedAt = uint64(block.timestamp);
    }
}

/// Benign: a dynamic fee by rule, no owner. 0.3% at initialization; then each swap pays 0.05%,
/// or 1% when the pool already traded in the same block (what a sandwich's second leg would pay).
contract DynamicFeeHook is SibylHookBase {
    uint24 public constant BASE_FEE = 3_000;
    uint24 public constant CALM_FEE = 500;
    uint24 public constant BUSY_FEE = 10_000;

    mapping(bytes32 => uint256) public lastSwapBlock;

    error DynamicFeeRequired();

    constructor(SibylPoolManager manager_) SibylHookBase(manager_) {}

    function afterInitialize(address, PoolKey calldata key, uint160, int24) external override onlyManager returns (bytes4) {
        if (key.fee != manager.DYNAMIC_FEE()) revert DynamicFeeRequired();
        manager.updateDynamicLPFee(key, BASE_FEE);
        return this.afterInitialize.selector;
    }

    function beforeSwap(address, PoolKey calldata key, SwapParams calldata, bytes calldata) external override onlyManager returns (bytes4, int256, uint24) {
        bytes32 id = idOf(key);
        uint24 fee = lastSwapBlock[id] == block.number ? BUSY_FEE : CALM_FEE;
        lastSwapBlock[id] = block.number;
        return (this.beforeSwap.selector, 0, fee | manager.OVERRIDE_FEE());
    }
}

/// Risky: its owner sets the swap fee of every pool using it, up to 100% of the input, and can
/// pause swaps and deposits (before initialize, before add liquidity, before swap).
contract OwnerFeeHook is SibylHookBase, Ownable {
    uint24 public fee = 3_000;
    bool public paused;

    error DynamicFeeRequired();
    error Paused();
    error FeeTooLarge();

    event FeeSet(uint24 fee);
    event PausedSet(bool paused);

    constructor(SibylPoolManager manager_, address owner_) SibylHookBase(manager_) Ownable(owner_) {}

    function setFee(uint24 newFee) external onlyOwner {
        if (newFee > 1_000_000) revert FeeTooLarge();
        fee = newFee;
        emit FeeSet(newFee);
    }

    function pause() external onlyOwner {
        paused = true;
        emit PausedSet(true);
    }

    function unpause() external onlyOwner {
        paused = false;
        emit PausedSet(false);
    }

    function beforeInitialize(address, PoolKey calldata key, uint160) external view override onlyManager returns (bytes4) {
        if (key.fee != manager.DYNAMIC_FEE()) revert DynamicFeeRequired();
        return this.beforeInitialize.selector;
    }

    function beforeAddLiquidity(address, PoolKey calldata, ModifyLiquidityParams calldata, bytes calldata) external view override onlyManager returns (bytes4) {
        if (paused) revert Paused();
        return this.beforeAddLiquidity.selector;
    }

    function beforeSwap(address, PoolKey calldata, SwapParams calldata, bytes calldata) external view override onlyManager returns (bytes4, int256, uint24) {
        if (paused) revert Paused();
        return (this.beforeSwap.selector, 0, fee | manager.OVERRIDE_FEE());
    }
}

/// The logic behind an upgradeable hook: counts each pool's swaps (after initialize, after swap).
contract SwapCounterHook is SibylHookBase {
    mapping(bytes32 => uint256) public swapCount;
    mapping(bytes32 => bool) public known;

    constructor(SibylPoolManager manager_) SibylHookBase(manager_) {}

    function afterInitialize(address, PoolKey calldata key, uint160, int24) external override onlyManager returns (bytes4) {
        known[idOf(key)] = true;
        return this.afterInitialize.selector;
    }

    function afterSwap(address, PoolKey calldata key, SwapParams calldata, int256, bytes calldata) external override onlyManager returns (bytes4, int128) {
        swapCount[idOf(key)] += 1;
        return (this.afterSwap.selector, 0);
    }
}

/// Risky: a hook behind a proxy whose admin can swap its code for any other (the implementation
/// address sits in the EIP-1967 slot; every call is delegated to it).
contract HookProxy {
    /// bytes32(uint256(keccak256("eip1967.proxy.implementation")) - 1)
    bytes32 internal constant IMPLEMENTATION_SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
    /// bytes32(uint256(keccak256("eip1967.proxy.admin")) - 1)
    bytes32 internal constant ADMIN_SLOT = 0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103;

    event Upgraded(address indexed implementation);
    event AdminChanged(address previousAdmin, address newAdmin);

    error NotAdmin();
    error NoCode();

    constructor(address implementation, address admin) {
        _setImplementation(implementation);
        StorageSlot.getAddressSlot(ADMIN_SLOT).value = admin;
        emit AdminChanged(address(0), admin);
    }

    function upgradeTo(address implementation) external {
        if (msg.sender != StorageSlot.getAddressSlot(ADMIN_SLOT).value) revert NotAdmin();
        _setImplementation(implementation);
    }

    function _setImplementation(address implementation) private {
        if (implementation.code.length == 0) revert NoCode();
        StorageSlot.getAddressSlot(IMPLEMENTATION_SLOT).value = implementation;
        emit Upgraded(implementation);
    }

    fallback() external payable {
        address implementation = StorageSlot.getAddressSlot(IMPLEMENTATION_SLOT).value;
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), implementation, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 { revert(0, returndatasize()) }
            default { return(0, returndatasize()) }
        }
    }
}

/// Risky: loyalty points per swapper (after swap; before remove liquidity logs exits), and its
/// owner can retire it with SELFDESTRUCT.
contract LoyaltyHook is SibylHookBase, Ownable {
    mapping(address => uint256) public points;
    mapping(bytes32 => uint256) public exits;

    constructor(SibylPoolManager manager_, address owner_) SibylHookBase(manager_) Ownable(owner_) {}

    function beforeRemoveLiquidity(address, PoolKey calldata key, ModifyLiquidityParams calldata, bytes calldata) external override onlyManager returns (bytes4) {
        exits[idOf(key)] += 1;
        return this.beforeRemoveLiquidity.selector;
    }

    function afterSwap(address sender, PoolKey calldata, SwapParams calldata, int256, bytes calldata) external override onlyManager returns (bytes4, int128) {
        points[sender] += 1;
        return (this.afterSwap.selector, 0);
    }

    function retire() external onlyOwner {
        selfdestruct(payable(owner()));
    }
}

/// Malicious: advertised as a zero-fee swap hook, it answers before-swap with a delta that takes
/// the swap's whole input (before-swap-returns-delta): the pool never trades, the swapper gets
/// nothing, and the input stays with the hook.
contract ZeroFeeSwapHook is SibylHookBase {
    constructor(SibylPoolManager manager_) SibylHookBase(manager_) {}

    function beforeSwap(address, PoolKey calldata, SwapParams calldata params, bytes calldata) external view override onlyManager returns (bytes4, int256, uint24) {
        int256 input = -params.amountSpecified;
        return (this.beforeSwap.selector, int256(int128(input)) << 128, 0);
    }
}
