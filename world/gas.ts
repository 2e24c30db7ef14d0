/** Gas limits of the world's own transactions (anvil charges what is used: a limit only has to suffice). */
export const GAS = { swap: 300_000n, approve: 80_000n, transfer: 100_000n, deploy: 3_000_000n, addLiquidity: 4_000_000n, remove: 400_000n, launch: 2_500_000n, curve: 250_000n };

/** A router deadline no block of the world reaches. */
export const FAR_DEADLINE = 2n ** 40n;
