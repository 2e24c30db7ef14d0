/** The forecast worker thread (piscina): runs one in-process model on one series. */
import { runInProcess, type InProcessMethod } from './models/index.js';

export default function run(task: { method: InProcessMethod; closes: number[]; horizon: number }) {
  return runInProcess(task.method, task.closes, task.horizon);
}
