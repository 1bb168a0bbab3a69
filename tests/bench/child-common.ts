import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { measuredMemory } from './common.ts';

/**
 * Commands every bench child answers: memory, CPU time, event-loop delay since the last `loop` read,
 * and a V8 CPU profile of one phase (`profStart`, then `profStop` with the .cpuprofile path to write).
 */
export function probeHandlers() {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  let session: Session | null = null;
  return {
    profStart: async () => {
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
      return true;
    },
    profStop: async (file: string) => {
      if (!session) return false;
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      session = null;
      writeFileSync(file, JSON.stringify(profile));
      return true;
    },
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
