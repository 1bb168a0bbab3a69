import { monitorEventLoopDelay } from 'node:perf_hooks';
import { measuredMemory } from './common.ts';

/** Commands every bench child answers: memory, CPU time and event-loop delay since the last `loop` read. */
export function probeHandlers() {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  return {
    mem: () => measuredMemory(),
    cpu: () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1e6;
    },
    loop: () => {
      const r = { p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 };
      h.reset();
      return r;
    },
  };
}
