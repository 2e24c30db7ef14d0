/**
 * Where a process allocates, garbage included: preloaded into the service
 * (`SOAK_NODE_OPTIONS="--import ./test/bench/heap-sampler.ts"` with soak.ts), it runs V8's
 * sampling heap profiler through an in-process inspector session (no --inspect port), counting
 * objects the collector has since freed too. `kill -USR2 <pid>` writes the bytes allocated since
 * the last signal, by allocating function and by the first frame in Sibyl's own code, to
 * HEAP_SAMPLE_OUT (default /tmp/sibyl-heap-<pid>-<n>.txt), and starts counting again.
 */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';

interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
}

const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
const start = () => session.post('HeapProfiler.startSampling', { samplingInterval: 32 * 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
await start();
let n = 0;
let since = Date.now();

const own = (url: string) => url.includes('/work/') && !url.includes('node_modules') ? url.replace(/^.*\/work\/[^/]+\//, '') : undefined;
const where = (f: Node['callFrame']) => `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '~/').replace(/^file:\/\/\/work\/[^/]+\//, '')}:${f.lineNumber + 1}`;

process.on('SIGUSR2', () => {
  void (async () => {
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: Node } };
    const seconds = (Date.now() - since) / 1000;
    await start();
    since = Date.now();
    const bySelf = new Map<string, number>();
    const byOwn = new Map<string, number>();
    const byLibrary = new Map<string, number>();
    let total = 0;
    const walk = (node: Node, stack: Node['callFrame'][]) => {
      const frames = [...stack, node.callFrame];
      if (node.selfSize) {
        total += node.selfSize;
        const self = where(node.callFrame);
        bySelf.set(self, (bySelf.get(self) ?? 0) + node.selfSize);
        const mine = [...frames].reverse().find((f) => own(f.url));
        const key = mine ? `${mine.functionName || '(anonymous)'} ${own(mine.url)}:${mine.lineNumber + 1}` : '(no Sibyl frame)';
        byOwn.set(key, (byOwn.get(key) ?? 0) + node.selfSize);
        if (!mine) {
          // Allocated with no Sibyl frame on the stack: named by the innermost library frame that is not the allocator's own package.
          const pkg = (f: Node['callFrame']) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f.url)?.[1];
          const inner = pkg(node.callFrame);
          const caller = [...frames].reverse().find((f) => pkg(f) && pkg(f) !== inner);
          const lib = caller ? where(caller) : where(node.callFrame);
          byLibrary.set(lib, (byLibrary.get(lib) ?? 0) + node.selfSize);
        }
      }
      for (const c of node.children) walk(c, frames);
    };
    walk(profile.head, []);
    const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([k, v]) => `${(v / 1024 / 1024).toFixed(1).padStart(9)} MB ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`).join('\n');
    const out = process.env.HEAP_SAMPLE_OUT ?? `/tmp/sibyl-heap-${process.pid}-${++n}.txt`;
    writeFileSync(out, `${(total / 1024 / 1024).toFixed(0)} MB allocated (sampled) in ${seconds.toFixed(0)} s\n\nby allocating function:\n${top(bySelf)}\n\nby the innermost frame in Sibyl's code:\n${top(byOwn)}\n\nwith no Sibyl frame, by the calling library frame:\n${top(byLibrary)}\n`);
  })();
});
