/**
 * What the world cache and its checkpoints share when they write a folder whole: each file synced
 * before the folder is renamed into place, and a temporary folder left by a writer that no longer
 * runs told apart from one still being written.
 */
import { open } from 'node:fs/promises';

export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Whether the process `pid` still runs (EPERM: it runs as another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
