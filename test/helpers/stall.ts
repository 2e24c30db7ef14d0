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

/**
 * How many turns the event loop took while `work` ran: work done in pieces lets it turn between
 * them (dozens of turns), work done in one synchronous step gives it none. Counted, not timed, so
 * the machine's load and the process's garbage collector cannot change the verdict.
 */
export async function loopTurns(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let running = true;
  const turn = () => {
    if (!running) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  try {
    await work();
  } finally {
    running = false;
  }
  return turns;
}
