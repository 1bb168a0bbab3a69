import { describe, expect, it } from 'vitest';
import { createTableClock, type TableStep } from './table-clock.ts';
import { startTestPortal } from '../../testing/test-portal.ts';

/** The house tables' clock (table-clock.ts): a table is looked at in the database only when it is due. */
describe('house table clock', () => {
  function fixture(answers: Array<{ dueInMs: number | null; open: number } | Error>) {
    let now = 0;
    const calls: number[] = [];
    const step: TableStep = async () => {
      calls.push(now);
      const a = answers.shift() ?? { dueInMs: 1_000_000, open: 0 };
      if (a instanceof Error) throw a;
      return a;
    };
    const warned: unknown[] = [];
    const clock = createTableClock([step], { tickMs: 500, log: { warn: (o) => warned.push(o) }, now: () => now });
    /** Poll every 500 ms of the fake clock for `ms`. */
    const run = async (ms: number) => {
      for (const end = now + ms; now < end; now += 500) await clock.poll();
    };
    return { calls, warned, run };
  }

  it('ticks a table at its deadlines only, not every poll', async () => {
    // Opened: bets close in 15 s; dealt: the result shows 6 s; then the next round.
    const f = fixture([{ dueInMs: 15_000, open: 0 }, { dueInMs: 6_000, open: 0 }, { dueInMs: 15_000, open: 0 }]);
    await f.run(30_000);
    expect(f.calls).toEqual([0, 15_000, 21_000]);
  });

  it('ticks every poll while the deadline is unknown (another node held the table), bets are still open, or a tick failed', async () => {
    const f = fixture([
      { dueInMs: null, open: 0 },
      { dueInMs: 6_000, open: 2 },
      new Error('database away'),
      { dueInMs: 4_000, open: 0 },
    ]);
    await f.run(8_000);
    expect(f.calls).toEqual([0, 500, 1_000, 1_500, 5_500]);
    expect(f.warned).toHaveLength(1);
  });

  it("a portal's clock runs its tables without a tick from anyone, moving them only at their deadlines", async () => {
    const t = await startTestPortal();
    try {
      const rounds = () =>
        t.portal.db.query<{ round_no: number; phase: string }>(`SELECT round_no, phase FROM house_table_rounds WHERE merchant_code = 'DEMO' AND table_code = 'BACC1' ORDER BY round_no`);
      // Every call the node's clock makes to move DEMO's baccarat table: `step` (and `tick`, which an
      // older clock called every 500 ms), counted on the table object the clock calls through.
      const table = t.portal.house.baccarat;
      let calls = 0;
      const step = table.step;
      const tick = table.tick;
      table.step = (code, ...rest) => {
        if (code === 'DEMO') calls++;
        return step(code, ...rest);
      };
      table.tick = (code, ...rest) => {
        if (code === 'DEMO') calls++;
        return tick(code, ...rest);
      };
      // Round 1 opens on the first poll (every table of every merchant).
      for (let i = 0; !(await rounds()).rows.length; i++) {
        if (i > 100) throw new Error('round 1 never opened');
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 600));
      // Then the table is left alone until its bets close 15 s later (the clock polls every 500 ms: 6 polls).
      const before = calls;
      await new Promise((r) => setTimeout(r, 3_000));
      expect(calls - before).toBe(0);
      // At its close the round is dealt, and when its result has shown the next one opens.
      for (let i = 0; (await rounds()).rows.length < 2; i++) {
        if (i > 200) throw new Error('the table never moved on');
        await new Promise((r) => setTimeout(r, 200));
      }
      expect((await rounds()).rows).toEqual([{ round_no: 1, phase: 'result' }, { round_no: 2, phase: 'betting' }]);
      // Opened, dealt, next opened: three moves in about 21 s where an every-poll clock made 42.
      expect(calls).toBeLessThanOrEqual(4);
    } finally {
      await t.stop();
    }
  }, 40_000);
});
