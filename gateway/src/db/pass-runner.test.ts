import { describe, expect, it } from 'vitest';
import { createPassRunner, startIdlePoll } from './pass-runner.ts';

/** A pass that waits until released, so a test decides when it ends. */
function gatedPasses() {
  const starts: number[] = [];
  let active = 0;
  let maxActive = 0;
  let release: (() => void) | null = null;
  const pass = async () => {
    starts.push(starts.length + 1);
    active++;
    maxActive = Math.max(maxActive, active);
    await new Promise<void>((r) => (release = r));
    active--;
  };
  const finish = async () => {
    while (!release) await new Promise((r) => setImmediate(r));
    const r = release;
    release = null;
    r();
    await new Promise((r2) => setImmediate(r2));
  };
  return { pass, starts, finish, maxActive: () => maxActive };
}

describe('pass runner (relay and bet stream loop)', () => {
  it('runs one pass at a time; every kick during a pass is served by ONE more pass after it', async () => {
    const g = gatedPasses();
    const runner = createPassRunner({ minGapMs: 0, pass: g.pass, stopped: () => false });
    runner.kick();
    await new Promise((r) => setImmediate(r));
    expect(g.starts).toEqual([1]);
    for (let i = 0; i < 5; i++) runner.kick();
    expect(runner.isRunning()).toBe(true);
    await g.finish();
    await g.finish();
    await runner.idle();
    expect(g.starts).toEqual([1, 2]);
    expect(g.maxActive()).toBe(1);
    expect(runner.isRunning()).toBe(false);
  });

  it('kickSoon: the kicks of one tick share a pass; a stopped runner starts none', async () => {
    let passes = 0;
    let stopped = false;
    const runner = createPassRunner({ minGapMs: 0, pass: async () => { passes++; }, stopped: () => stopped });
    for (let i = 0; i < 10; i++) runner.kickSoon();
    await new Promise((r) => setImmediate(r));
    await runner.idle();
    expect(passes).toBe(1);
    stopped = true;
    runner.kick();
    runner.kickSoon();
    await new Promise((r) => setImmediate(r));
    await runner.idle();
    expect(passes).toBe(1);
  });

  it('a pass that throws does not stop the runner', async () => {
    let calls = 0;
    const runner = createPassRunner({ minGapMs: 0, pass: async () => { calls++; if (calls === 1) throw new Error('boom'); }, stopped: () => false });
    runner.kick();
    await new Promise((r) => setImmediate(r));
    await runner.idle();
    runner.kick();
    await new Promise((r) => setImmediate(r));
    await runner.idle();
    expect(calls).toBe(2);
    expect(runner.isRunning()).toBe(false);
  });
});

describe('idle poll (relay and bet stream)', () => {
  it('slows down while its questions find nothing (doubling up to 2^backoffSteps x pollMs); rearm() and a find bring it back to pollMs', async () => {
    let pending = false;
    let questions = 0;
    let passes = 0;
    let stopped = false;
    const runner = createPassRunner({ minGapMs: 0, pass: async () => { passes++; pending = false; }, stopped: () => stopped });
    const poll = startIdlePoll({
      runner, pollMs: 10, backoffSteps: 3, mustRun: () => false, stopped: () => stopped,
      anyPending: async () => { questions++; return pending; },
    });
    const count = async (ms: number) => {
      const before = questions;
      await new Promise((r) => setTimeout(r, ms));
      return questions - before;
    };
    try {
      // Backed off: 10, 20, 40, then every 80 ms.
      await new Promise((r) => setTimeout(r, 200));
      const slow = await count(800);
      expect(slow).toBeGreaterThanOrEqual(5);
      expect(slow).toBeLessThanOrEqual(13);
      // A local pass: the full rate again (it backs off anew from there).
      poll.rearm();
      expect(await count(35)).toBeGreaterThanOrEqual(1);
      // A row nobody announced: the slowed poll finds it and kicks a pass.
      await new Promise((r) => setTimeout(r, 300));
      const before = passes;
      pending = true;
      for (let i = 0; passes === before; i++) {
        if (i > 100) throw new Error('the poll did not find the pending row');
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(pending).toBe(false);
    } finally {
      stopped = true;
      poll.stop();
      await runner.idle();
    }
  });
});
