/**
 * The most CPU the process spent between two 5 ms ticks while `work` runs: a step holding the
 * event loop, measured so that the machine's other load (this process waiting for a core) does
 * not count.
 */
export async function longestStall(work: () => Promise<unknown>): Promise<number> {
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  let last = cpu();
  let longest = 0;
  const probe = setInterval(() => {
    const now = cpu();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(probe);
  }
  return longest;
}
