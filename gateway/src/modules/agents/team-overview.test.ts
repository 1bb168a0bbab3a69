import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteDb, type Db } from '../../db/db.ts';
import { migrate } from '../../db/migrate.ts';
import { reference, seedWorld, type World } from './team-overview.fixture.ts';
import { teamOverview, teamOverviewDirect } from './team-stats.ts';

const HOUR = 3600_000;
const BASE = new Date('2026-03-01T00:00:00Z');

describe('teamOverview', () => {
  let db: Db;
  const worlds: World[] = [];
  beforeAll(async () => {
    db = await createPgliteDb(null);
    await migrate(db);
    await db.query(`INSERT INTO merchants (code, name) VALUES ('TT', 'Overview'), ('UU', 'Other')`);
    for (let s = 1; s <= 3; s++) worlds.push(await seedWorld(db, 'TT', s, BASE, 30));
    // Another merchant's world: never counted, and its agents give zeros to TT.
    worlds.push(await seedWorld(db, 'UU', 9, BASE, 10));
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  const ranges = [
    { from: BASE, to: new Date(BASE.getTime() + 72 * HOUR) },
    { from: new Date(BASE.getTime() + 24 * HOUR), to: new Date(BASE.getTime() + 48 * HOUR) },
    // Partial hours at both ends (a half-hour GMT offset).
    { from: new Date(BASE.getTime() + 5.5 * HOUR), to: new Date(BASE.getTime() + 40.5 * HOUR) },
  ];

  it('equals a reference computed from the generated tree, bets, deposits and withdrawals, for every member and range', async () => {
    const m = { code: 'TT', agentTypes: [] as number[] };
    let nonZero = 0;
    for (const w of worlds.slice(0, 3)) {
      for (const mem of w.members) {
        for (const range of ranges) {
          const want = reference(w, mem.id, range.from, range.to);
          expect(await teamOverviewDirect(db, m, mem.id, range)).toEqual(want);
          expect(await teamOverview(db, m, mem.id, range)).toEqual(want);
          if (want.validBets && want.deposits && want.withdrawals && want.activeMembers) nonZero++;
        }
      }
    }
    expect(nonZero).toBeGreaterThan(5);
  });

  it('another merchant\'s agent, an unknown id or a non-id gives zeros; a bad range is a 4xx', async () => {
    const m = { code: 'TT', agentTypes: [] as number[] };
    const other = worlds[3]!.members[0]!.id;
    for (const id of [other, 99_999_999, Number.NaN]) {
      const o = await teamOverview(db, m, id, ranges[0]!);
      expect(Object.values(o).every((v) => v === 0)).toBe(true);
    }
    await expect(teamOverview(db, m, worlds[0]!.members[0]!.id, { from: BASE, to: BASE })).rejects.toMatchObject({ code: 'VALIDATION' });
  });
});
