// Worker bootstrap for thread.ts: on Node 20, tsx's loader reaches a worker's require() of a
// .ts file but not its import(), so the TypeScript entry is required from this CommonJS file.
const { workerData } = require('node:worker_threads');
require(workerData.entry);
