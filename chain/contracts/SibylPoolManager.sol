// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

/// A pool's identity, laid out as Uniswap v4's PoolKey (so its id, keccak256(abi.encode(key)), is v4's PoolId).
struct PoolKey {
    address currency0;
    address currency1;
    /// LP fee in hundredths of a basis point (3000 = 0.3%), or DYNAMIC_FEE for a fee the hook sets.
    uint24 fee;
    int24 tickSpacing;
    address hooks;
}

struct ModifyLiquidityParams {
    int24 tickLower;
    int24 tickUpper;
    int256 liquidityDelta;
    bytes32 salt;
}

struct SwapParams {
    bool zeroForOne;
    /// Negative: exact input (the only kind this manager serves).
    int256 amountSpecified;
    uint160 sqrtPriceLimitX96;
}

/// The callbacks a hook answers, with v4's function signatures. Deltas are two int128 packed in an
/// int256 (upper half: amount0 or the specified currency; lower half: amount1 or the unspecified one),
/// from the hook's side: positive is what the hook takes.
interface IPoolHooks {
    function beforeInitialize(address sender, PoolKey calldata key, uint160 sqrtPriceX96) external returns (bytes4);
    function afterInitialize(address sender, PoolKey calldata key, uint160 sqrtPriceX96, int24 tick) external returns (bytes4);
    function beforeAddLiquidity(address sender, PoolKey calldata key, ModifyLiquidityParams calldata params, bytes calldata hookData) external returns (bytes4);
    function afterAddLiquidity(address sender, PoolKey calldata key, ModifyLiquidityParams calldata params, int256 delta, int256 feesAccrued, bytes calldata hookData) external returns (bytes4, int256);
    function beforeRemoveLiquidity(address sender, PoolKey calldata key, ModifyLiquidityParams calldata params, bytes calldata hookData) external returns (bytes4);
    function afterRemoveLiquidity(address sender, PoolKey calldata key, ModifyLiquidityParams calldata params, int256 delta, int256 feesAccrued, bytes calldata hookData) external returns (bytes4, int256);
    function beforeSwap(address sender, PoolKey calldata key, SwapParams calldata params, bytes calldata hookData) external returns (bytes4, int256, uint24);
    function afterSwap(address sender, PoolKey calldata key, SwapParams calldata params, int256 delta, bytes calldata hookData) external returns (bytes4, int128);
    function beforeDonate(address sender, PoolKey calldata key, uint256 amount0, uint256 amount1, bytes calldata hookData) external returns (bytes4);
    function afterDonate(address sender, PoolKey calldata key, uint256 amount0, uint256 amount1, bytes calldata hookData) external returns (bytes4);
}

/// @title SibylPoolManager
/// @notice A singleton pool manager with hooks, written for Sibyl's embedded chain. It keeps
/// Uniswap v4's outward conventions so an indexer of v4 reads it unchanged: the PoolKey and its
/// PoolId, the Initialize / ModifyLiquidity / Swap / Donate events with v4's signatures, and the
/// hook permissions carried by the lowest 14 bits of the hook's address (bit 13 before-initialize
/// ... bit 0 after-remove-liquidity-returns-delta), checked when a pool is initialized and obeyed
/// on every call. Its AMM is simpler than v4's: one full-range constant-product position book per
/// pool (reserves, with the price and liquidity expressed as sqrtPriceX96 and L), exact-input swaps
/// only, each call settled at once with the caller's tokens (no unlock / flash accounting), and a
/// hook's returned deltas may only take (never pay). ERC-20 currencies only.
contract SibylPoolManager is ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    uint160 internal constant BEFORE_INITIALIZE = 1 << 13;
    uint160 internal constant AFTER_INITIALIZE = 1 << 12;
    uint160 internal constant BEFORE_ADD_LIQUIDITY = 1 << 11;
    uint160 internal constant AFTER_ADD_LIQUIDITY = 1 << 10;
    uint160 internal constant BEFORE_REMOVE_LIQUIDITY = 1 << 9;
    uint160 internal constant AFTER_REMOVE_LIQUIDITY = 1 << 8;
    uint160 internal constant BEFORE_SWAP = 1 << 7;
    uint160 internal constant AFTER_SWAP = 1 << 6;
    uint160 internal constant BEFORE_DONATE = 1 << 5;
    uint160 internal constant AFTER_DONATE = 1 << 4;
    uint160 internal constant BEFORE_SWAP_RETURNS_DELTA = 1 << 3;
    uint160 internal constant AFTER_SWAP_RETURNS_DELTA = 1 << 2;
    uint160 internal constant AFTER_ADD_LIQUIDITY_RETURNS_DELTA = 1 << 1;
    uint160 internal constant AFTER_REMOVE_LIQUIDITY_RETURNS_DELTA = 1 << 0;
    uint160 internal constant ALL_PERMISSIONS = (1 << 14) - 1;

    /// The fee of a pool whose hook sets it (v4's flag value).
    uint24 public constant DYNAMIC_FEE = 0x800000;
    /// Set on a beforeSwap fee to use it for that swap (v4's flag value).
    uint24 public constant OVERRIDE_FEE = 0x400000;
    uint24 public constant MAX_FEE = 1_000_000;
    int24 public constant MIN_TICK = -887272;
    int24 public constant MAX_TICK = 887272;
    uint160 public constant MIN_SQRT_PRICE = 4295128739;
    uint160 public constant MAX_SQRT_PRICE = 1461446703485210103287273052203988822378723970342;
    /// log2(1.0001) as a 64.64 fixed-point number: a tick's width in log2 of the price.
    int256 private constant LOG2_TICK_X64 = 2661169563308229;

    struct Pool {
        uint160 sqrtPriceX96;
        int24 tick;
        uint24 lpFee;
        uint128 liquidity;
        uint256 reserve0;
        uint256 reserve1;
    }

    mapping(bytes32 => Pool) internal pools;
    /// Liquidity of each position: keccak256(owner, tickLower, tickUpper, salt).
    mapping(bytes32 => mapping(bytes32 => uint128)) public positions;

    event Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick);
    event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt);
    event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee);
    event Donate(bytes32 indexed id, address indexed sender, uint256 amount0, uint256 amount1);

    error CurrenciesOutOfOrder();
    error NativeCurrencyUnsupported();
    error TickSpacingOutOfRange();
    error FeeTooLarge();
    error HookAddressNotValid(address hooks);
    error PoolAlreadyInitialized();
    error PoolNotInitialized();
    error PriceOutOfRange();
    error HookCallFailed(bytes4 selector);
    error FullRangeOnly();
    error NotEnoughLiquidity();
    error ExactInputOnly();
    error PriceLimitExceeded();
    error HookDeltaNotTaken();
    error NotDynamicFee();
    error OnlyHook();

    // ---- reads ----------------------------------------------------------------------------------

    function poolId(PoolKey memory key) public pure returns (bytes32) {
        return keccak256(abi.encode(key));
    }

    function getSlot0(bytes32 id) external view returns (uint160 sqrtPriceX96, int24 tick, uint24 lpFee) {
        Pool storage p = pools[id];
        return (p.sqrtPriceX96, p.tick, p.lpFee);
    }

    function getLiquidity(bytes32 id) external view returns (uint128) {
        return pools[id].liquidity;
    }

    function getReserves(bytes32 id) external view returns (uint256 reserve0, uint256 reserve1) {
        return (pools[id].reserve0, pools[id].reserve1);
    }

    // ---- pools ----------------------------------------------------------------------------------

    function initialize(PoolKey memory key, uint160 sqrtPriceX96) external nonReentrant returns (int24 tick) {
        if (key.currency0 == address(0)) revert NativeCurrencyUnsupported();
        if (key.currency0 >= key.currency1) revert CurrenciesOutOfOrder();
        if (key.tickSpacing < 1 || key.tickSpacing > type(int16).max) revert TickSpacingOutOfRange();
        if (key.fee != DYNAMIC_FEE && key.fee > MAX_FEE) revert FeeTooLarge();
        if (!validHookAddress(key.hooks, key.fee)) revert HookAddressNotValid(key.hooks);
        if (sqrtPriceX96 < MIN_SQRT_PRICE || sqrtPriceX96 >= MAX_SQRT_PRICE) revert PriceOutOfRange();
        bytes32 id = poolId(key);
        Pool storage p = pools[id];
        if (p.sqrtPriceX96 != 0) revert PoolAlreadyInitialized();

        if (has(key, BEFORE_INITIALIZE)) {
            expect(IPoolHooks.beforeInitialize.selector, IPoolHooks(key.hooks).beforeInitialize(msg.sender, key, sqrtPriceX96));
        }
        tick = tickAt(sqrtPriceX96);
        p.sqrtPriceX96 = sqrtPriceX96;
        p.tick = tick;
        p.lpFee = key.fee == DYNAMIC_FEE ? 0 : key.fee;
        emit Initialize(id, key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks, sqrtPriceX96, tick);
        if (has(key, AFTER_INITIALIZE)) {
            expect(IPoolHooks.afterInitialize.selector, IPoolHooks(key.hooks).afterInitialize(msg.sender, key, sqrtPriceX96, tick));
        }
    }

    /// A hook's address is its permissions: a hooked pool's hook enables at least one callback or
    /// sets a dynamic fee, and every returns-delta permission comes with the callback it belongs to.
    function validHookAddress(address hooks, uint24 fee) public pure returns (bool) {
        uint160 bits = uint160(hooks) & ALL_PERMISSIONS;
        if (hooks == address(0)) return fee != DYNAMIC_FEE;
        if (bits == 0 && fee != DYNAMIC_FEE) return false;
        if (bits & BEFORE_SWAP_RETURNS_DELTA != 0 && bits & BEFORE_SWAP == 0) return false;
        if (bits & AFTER_SWAP_RETURNS_DELTA != 0 && bits & AFTER_SWAP == 0) return false;
        if (bits & AFTER_ADD_LIQUIDITY_RETURNS_DELTA != 0 && bits & AFTER_ADD_LIQUIDITY == 0) return false;
        if (bits & AFTER_REMOVE_LIQUIDITY_RETURNS_DELTA != 0 && bits & AFTER_REMOVE_LIQUIDITY == 0) return false;
        return true;
    }

    /// A dynamic-fee pool's hook sets its LP fee (used by every swap that does not override it).
    function updateDynamicLPFee(PoolKey memory key, uint24 newDynamicLPFee) external {
        if (key.fee != DYNAMIC_FEE) revert NotDynamicFee();
        if (msg.sender != key.hooks) revert OnlyHook();
        if (newDynamicLPFee > MAX_FEE) revert FeeTooLarge();
        Pool storage p = pools[poolId(key)];
        if (p.sqrtPriceX96 == 0) revert PoolNotInitialized();
        p.lpFee = newDynamicLPFee;
    }

    // ---- liquidity ------------------------------------------------------------------------------

    /// Adds (liquidityDelta > 0) or removes full-range liquidity, paid or received at once.
    /// Returns the caller's delta (negative: paid in) and fees accrued (always zero: fees stay in the reserves).
    function modifyLiquidity(PoolKey memory key, ModifyLiquidityParams memory params, bytes calldata hookData)
        external
        nonReentrant
        returns (int256 callerDelta, int256 feesAccrued)
    {
        bytes32 id = poolId(key);
        Pool storage p = pools[id];
        if (p.sqrtPriceX96 == 0) revert PoolNotInitialized();
        if (params.tickLower != (MIN_TICK / key.tickSpacing) * key.tickSpacing || params.tickUpper != (MAX_TICK / key.tickSpacing) * key.tickSpacing) revert FullRangeOnly();
        bool adding = params.liquidityDelta > 0;
        if (adding ? has(key, BEFORE_ADD_LIQUIDITY) : has(key, BEFORE_REMOVE_LIQUIDITY)) {
            bytes4 answer = adding
                ? IPoolHooks(key.hooks).beforeAddLiquidity(msg.sender, key, params, hookData)
                : IPoolHooks(key.hooks).beforeRemoveLiquidity(msg.sender, key, params, hookData);
            expect(adding ? IPoolHooks.beforeAddLiquidity.selector : IPoolHooks.beforeRemoveLiquidity.selector, answer);
        }

        (uint256 amount0, uint256 amount1) = adding ? _add(id, p, params) : _remove(id, p, params);
        emit ModifyLiquidity(id, msg.sender, params.tickLower, params.tickUpper, params.liquidityDelta, params.salt);
        callerDelta = adding ? pack(-int256(amount0), -int256(amount1)) : pack(int256(amount0), int256(amount1));

        (int256 take0, int256 take1) = _afterLiquidity(key, params, callerDelta, hookData, adding);
        if (adding) {
            _pull(key.currency0, amount0 + uint256(take0));
            _pull(key.currency1, amount1 + uint256(take1));
        } else {
            if (uint256(take0) > amount0 || uint256(take1) > amount1) revert HookDeltaNotTaken();
            _send(key.currency0, msg.sender, amount0 - uint256(take0));
            _send(key.currency1, msg.sender, amount1 - uint256(take1));
        }
        _send(key.currency0, key.hooks, uint256(take0));
        _send(key.currency1, key.hooks, uint256(take1));
        callerDelta = pack(amount0Of(callerDelta) - take0, amount1Of(callerDelta) - take1);
        feesAccrued = 0;
    }

    function _add(bytes32 id, Pool storage p, ModifyLiquidityParams memory params) private returns (uint256 amount0, uint256 amount1) {
        uint128 delta = uint128(uint256(params.liquidityDelta));
        if (p.liquidity == 0) {
            // An empty pool takes the amounts its price asks: L / sqrtP of currency0, L * sqrtP of currency1.
            amount0 = Math.mulDiv(delta, 1 << 96, p.sqrtPriceX96, Math.Rounding.Ceil);
            amount1 = Math.mulDiv(delta, p.sqrtPriceX96, 1 << 96, Math.Rounding.Ceil);
        } else {
            amount0 = Math.mulDiv(delta, p.reserve0, p.liquidity, Math.Rounding.Ceil);
            amount1 = Math.mulDiv(delta, p.reserve1, p.liquidity, Math.Rounding.Ceil);
        }
        p.reserve0 += amount0;
        p.reserve1 += amount1;
        p.liquidity += delta;
        positions[id][positionKey(msg.sender, params)] += delta;
    }

    function _remove(bytes32 id, Pool storage p, ModifyLiquidityParams memory params) private returns (uint256 amount0, uint256 amount1) {
        uint128 delta = uint128(uint256(-params.liquidityDelta));
        bytes32 position = positionKey(msg.sender, params);
        if (delta == 0 || positions[id][position] < delta) revert NotEnoughLiquidity();
        amount0 = Math.mulDiv(delta, p.reserve0, p.liquidity);
        amount1 = Math.mulDiv(delta, p.reserve1, p.liquidity);
        positions[id][position] -= delta;
        p.liquidity -= delta;
        p.reserve0 -= amount0;
        p.reserve1 -= amount1;
    }

    function _afterLiquidity(PoolKey memory key, ModifyLiquidityParams memory params, int256 callerDelta, bytes calldata hookData, bool adding)
        private
        returns (int256 take0, int256 take1)
    {
        if (adding ? !has(key, AFTER_ADD_LIQUIDITY) : !has(key, AFTER_REMOVE_LIQUIDITY)) return (0, 0);
        (bytes4 answer, int256 hookDelta) = adding
            ? IPoolHooks(key.hooks).afterAddLiquidity(msg.sender, key, params, callerDelta, 0, hookData)
            : IPoolHooks(key.hooks).afterRemoveLiquidity(msg.sender, key, params, callerDelta, 0, hookData);
        expect(adding ? IPoolHooks.afterAddLiquidity.selector : IPoolHooks.afterRemoveLiquidity.selector, answer);
        if (!has(key, adding ? AFTER_ADD_LIQUIDITY_RETURNS_DELTA : AFTER_REMOVE_LIQUIDITY_RETURNS_DELTA)) return (0, 0);
        (take0, take1) = (amount0Of(hookDelta), amount1Of(hookDelta));
        if (take0 < 0 || take1 < 0) revert HookDeltaNotTaken();
    }

    // ---- swaps ----------------------------------------------------------------------------------

    /// An exact-input swap: the caller pays -amountSpecified of the input currency and receives the
    /// output. A before-swap-returns-delta hook may take part (or all) of the input before the pool
    /// trades; an after-swap-returns-delta hook part of the output. Swap reports the pool's own trade.
    function swap(PoolKey memory key, SwapParams memory params, bytes calldata hookData) external nonReentrant returns (int256 callerDelta) {
        if (params.amountSpecified >= 0) revert ExactInputOnly();
        bytes32 id = poolId(key);
        Pool storage p = pools[id];
        if (p.sqrtPriceX96 == 0) revert PoolNotInitialized();
        uint256 amountIn = uint256(-params.amountSpecified);

        uint24 fee = p.lpFee;
        int256 takeIn;
        int256 takeOut;
        if (has(key, BEFORE_SWAP)) {
            (bytes4 answer, int256 beforeDelta, uint24 feeOverride) = IPoolHooks(key.hooks).beforeSwap(msg.sender, key, params, hookData);
            expect(IPoolHooks.beforeSwap.selector, answer);
            if (key.fee == DYNAMIC_FEE && feeOverride & OVERRIDE_FEE != 0) {
                fee = feeOverride & ~OVERRIDE_FEE;
                if (fee > MAX_FEE) revert FeeTooLarge();
            }
            if (has(key, BEFORE_SWAP_RETURNS_DELTA)) (takeIn, takeOut) = (amount0Of(beforeDelta), amount1Of(beforeDelta));
        }
        if (takeIn < 0 || takeOut < 0 || uint256(takeIn) > amountIn) revert HookDeltaNotTaken();

        uint256 traded = amountIn - uint256(takeIn);
        uint256 out = traded == 0 ? 0 : _trade(p, params, traded, fee);
        int256 swapDelta = params.zeroForOne ? pack(-int256(traded), int256(out)) : pack(int256(out), -int256(traded));
        emit Swap(id, msg.sender, int128(amount0Of(swapDelta)), int128(amount1Of(swapDelta)), p.sqrtPriceX96, p.liquidity, p.tick, fee);

        if (has(key, AFTER_SWAP)) {
            (bytes4 answer, int128 afterDelta) = IPoolHooks(key.hooks).afterSwap(msg.sender, key, params, swapDelta, hookData);
            expect(IPoolHooks.afterSwap.selector, answer);
            if (has(key, AFTER_SWAP_RETURNS_DELTA)) takeOut += afterDelta;
        }
        if (takeOut < 0 || uint256(takeOut) > out) revert HookDeltaNotTaken();

        (address tokenIn, address tokenOut) = params.zeroForOne ? (key.currency0, key.currency1) : (key.currency1, key.currency0);
        _pull(tokenIn, amountIn);
        _send(tokenIn, key.hooks, uint256(takeIn));
        _send(tokenOut, key.hooks, uint256(takeOut));
        uint256 received = out - uint256(takeOut);
        _send(tokenOut, msg.sender, received);
        callerDelta = params.zeroForOne ? pack(-int256(amountIn), int256(received)) : pack(int256(received), -int256(amountIn));
    }

    /// Constant product on the reserves; the fee stays in the pool (the LPs' share grows).
    function _trade(Pool storage p, SwapParams memory params, uint256 amountIn, uint24 fee) private returns (uint256 out) {
        if (p.liquidity == 0) revert NotEnoughLiquidity();
        (uint256 reserveIn, uint256 reserveOut) = params.zeroForOne ? (p.reserve0, p.reserve1) : (p.reserve1, p.reserve0);
        uint256 afterFee = Math.mulDiv(amountIn, MAX_FEE - fee, MAX_FEE);
        out = Math.mulDiv(reserveOut, afterFee, reserveIn + afterFee);
        if (out == 0 || out >= reserveOut) revert NotEnoughLiquidity();
        if (params.zeroForOne) (p.reserve0, p.reserve1) = (reserveIn + amountIn, reserveOut - out);
        else (p.reserve0, p.reserve1) = (reserveOut - out, reserveIn + amountIn);
        uint160 price = sqrtPriceOf(p.reserve0, p.reserve1);
        // zeroForOne lowers the price; a limit of zero means none.
        if (params.sqrtPriceLimitX96 != 0 && (params.zeroForOne ? price < params.sqrtPriceLimitX96 : price > params.sqrtPriceLimitX96)) revert PriceLimitExceeded();
        p.sqrtPriceX96 = price;
        p.tick = tickAt(price);
    }

    // ---- donations ------------------------------------------------------------------------------

    function donate(PoolKey memory key, uint256 amount0, uint256 amount1, bytes calldata hookData) external nonReentrant returns (int256) {
        bytes32 id = poolId(key);
        Pool storage p = pools[id];
        if (p.sqrtPriceX96 == 0) revert PoolNotInitialized();
        if (p.liquidity == 0) revert NotEnoughLiquidity();
        if (has(key, BEFORE_DONATE)) expect(IPoolHooks.beforeDonate.selector, IPoolHooks(key.hooks).beforeDonate(msg.sender, key, amount0, amount1, hookData));
        _pull(key.currency0, amount0);
        _pull(key.currency1, amount1);
        p.reserve0 += amount0;
        p.reserve1 += amount1;
        emit Donate(id, msg.sender, amount0, amount1);
        if (has(key, AFTER_DONATE)) expect(IPoolHooks.afterDonate.selector, IPoolHooks(key.hooks).afterDonate(msg.sender, key, amount0, amount1, hookData));
        return pack(-int256(amount0), -int256(amount1));
    }

    // ---- helpers --------------------------------------------------------------------------------

    function has(PoolKey memory key, uint160 permission) private pure returns (bool) {
        return uint160(key.hooks) & permission != 0;
    }

    function expect(bytes4 wanted, bytes4 answer) private pure {
        if (answer != wanted) revert HookCallFailed(wanted);
    }

    function positionKey(address owner, ModifyLiquidityParams memory params) private pure returns (bytes32) {
        return keccak256(abi.encodePacked(owner, params.tickLower, params.tickUpper, params.salt));
    }

    function _pull(address token, uint256 amount) private {
        if (amount > 0) IERC20(token).safeTransferFrom(msg.sender, address(this), amount);
    }

    function _send(address token, address to, uint256 amount) private {
        if (amount > 0) IERC20(token).safeTransfer(to, amount);
    }

    function pack(int256 a, int256 b) internal pure returns (int256) {
        return (int256(int128(a)) << 128) | int256(uint256(uint128(int128(b))));
    }

    function amount0Of(int256 delta) internal pure returns (int256) {
        return int256(int128(delta >> 128));
    }

    function amount1Of(int256 delta) internal pure returns (int256) {
        return int256(int128(delta));
    }

    /// sqrt(reserve1 / reserve0) as a Q64.96 number, within the v4 price range.
    function sqrtPriceOf(uint256 reserve0, uint256 reserve1) internal pure returns (uint160) {
        uint256 ratioX128 = Math.mulDiv(reserve1, 1 << 128, reserve0);
        uint256 root = ratioX128 < 1 << 192 ? Math.sqrt(ratioX128 << 64) : Math.sqrt(ratioX128) << 32;
        if (root < MIN_SQRT_PRICE) return MIN_SQRT_PRICE;
        if (root >= MAX_SQRT_PRICE) return MAX_SQRT_PRICE - 1;
        return uint160(root);
    }

    /// floor(log base 1.0001 of the price) for a Q64.96 square-root price: log2 by repeated squaring
    /// (64 fractional bits), divided by log2(1.0001). May differ from v4's TickMath by one at a boundary.
    function tickAt(uint160 sqrtPriceX96) internal pure returns (int24) {
        uint256 x = sqrtPriceX96;
        uint256 msb = Math.log2(x);
        int256 log2X64 = (int256(msb) - 96) << 64;
        uint256 r = msb >= 127 ? x >> (msb - 127) : x << (127 - msb);
        for (int256 bit = 1 << 63; bit > 0; bit >>= 1) {
            r = (r * r) >> 127;
            if (r >= 1 << 128) {
                r >>= 1;
                log2X64 += bit;
            }
        }
        int256 scaled = 2 * log2X64;
        int256 tick = scaled / LOG2_TICK_X64;
        if (scaled < 0 && scaled % LOG2_TICK_X64 != 0) tick -= 1; // floor, not toward zero
        if (tick < MIN_TICK) return MIN_TICK;
        if (tick > MAX_TICK) return MAX_TICK;
        return int24(tick);
    }
}
