import { describe, expect, it } from 'vitest';
import { createPassRunner } from './pass-runner.ts';

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
