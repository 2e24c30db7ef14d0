/**
 * Sibyl as `npm start` runs it: server/main.ts in a process of its own, its JSON log lines
 * collected. The process leads its own process group, as a shell's foreground job does, so a
 * signal can go to the whole group the way Ctrl-C in a terminal sends it (the chains' nodes
 * get it too).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface LogLine {
  readonly msg: string;
  readonly [field: string]: unknown;
}

export interface ServiceProcess {
  readonly pid: number;
  /** Every JSON log line so far. */
  readonly lines: readonly LogLine[];
  /** Resolves with the exit code (null when a signal ended it) and that signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The first line (so far or to come) that matches; fails when the process exits first or time runs out. */
  waitFor(match: RegExp | ((line: LogLine) => boolean), timeoutMs: number): Promise<LogLine>;
  /** Sends `signal` to the process alone, or to its whole group (as a terminal's Ctrl-C does). */
  signal(signal: NodeJS.Signals, to: 'process' | 'group'): void;
  /** Kills the whole group if anything of it still runs, and waits for the process to go. */
  kill(): Promise<void>;
}

const ROOT = join(import.meta.dirname, '..', '..');

/** Starts `node --import tsx server/main.ts` with JSON logs, the in-memory store, and `env` over this process's environment. */
export function startServiceProcess(env: Record<string, string>): ServiceProcess {
  const { REDIS_URL: _redis, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...inherited, LOG_FORMAT: 'json', ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  let pending = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const text = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      try {
        lines.push(JSON.parse(text) as LogLine);
      } catch {
        lines.push({ msg: text });
      }
    }
    for (const w of waiters) w();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => void (stderr = (stderr + chunk).slice(-4_000)));
  let gone = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      gone = true;
      for (const w of waiters) w();
      resolve({ code, signal });
    });
  });
  const toGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group is gone already
    }
  };
  return {
    pid: child.pid!,
    lines,
    exited,
    waitFor(match, timeoutMs) {
      const test = typeof match === 'function' ? match : (l: LogLine) => match.test(l.msg);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`no log line matching ${match} within ${timeoutMs} ms; last lines:\n${tail()}`)), timeoutMs);
        const tail = () => [...lines.slice(-15).map((l) => l.msg), stderr.trim()].join('\n');
        const finish = (err?: Error, line?: LogLine) => {
          clearTimeout(timer);
          waiters.delete(check);
          if (err) reject(err);
          else resolve(line!);
        };
        const check = () => {
          const line = lines.find(test);
          if (line) finish(undefined, line);
          else if (gone) finish(new Error(`the service exited before a log line matching ${match}; last lines:\n${tail()}`));
        };
        waiters.add(check);
        check();
      });
    },
    signal(signal, to) {
      if (to === 'group') toGroup(signal);
      else child.kill(signal);
    },
    async kill() {
      toGroup('SIGKILL');
      await exited;
    },
  };
}
