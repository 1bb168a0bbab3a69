import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../db/db.ts';
import { migratedPgliteDb } from '../../testing/pglite-snapshot.ts';
import { createSessionStore } from './session-store.ts';

let db: Db;
beforeAll(async () => {
  db = await migratedPgliteDb();
  await db.query(`INSERT INTO merchants (code, name) VALUES ('SX', 'Sessions') ON CONFLICT DO NOTHING`);
});
afterAll(async () => {
  await db.close();
});

async function members(n: number, prefix: string): Promise<number[]> {
  const r = await db.query<{ id: number }>(
    `INSERT INTO members (merchant_code, account, account_lower, nickname) SELECT 'SX', $1 || g::text, $1 || g::text, 'x' FROM generate_series(1, $2::int) g RETURNING id`,
    [prefix, n],
  );
  return r.rows.map((x) => Number(x.id));
}

/** The store on a database that counts the handshake statements it runs. */
function countingStore() {
  const counted = { handshakeStatements: 0, largestBatch: 0 };
  const q: Queryable = {
    query: (sql: string, params?: readonly unknown[]) => {
      if (sql.includes('WITH live AS')) {
        counted.handshakeStatements++;
        counted.largestBatch = Math.max(counted.largestBatch, (params![0] as string[]).length);
      }
      return db.query(sql, params);
    },
  } as Queryable;
  return { store: createSessionStore(q), counted };
}

describe('socket handshake sessions (resolveForSocket)', () => {
  it('answers concurrent handshakes from a few statements, each token with its own member, ended sessions refused', async () => {
    const ids = await members(60, 'hs_batch_');
    const { store, counted } = countingStore();
    const tokens = await Promise.all(ids.map((id) => store.create(id, 'SX')));
    // every third session ends (a logout), in a committed statement before the handshakes
    for (let i = 0; i < tokens.length; i += 3) await store.revoke(tokens[i]!);
    // the same token twice in one burst (two tabs) gets the same answer
    const burst = [...tokens, tokens[1]!, tokens[0]!, 'not-a-token', 'x'.repeat(43)];
    const answers = await Promise.all(burst.map((t) => store.resolveForSocket(t)));
    ids.forEach((id, i) => {
      expect(answers[i]).toEqual(i % 3 === 0 ? null : { memberId: id, merchantCode: 'SX', memberType: expect.any(Number), passwordChangeRequired: false });
    });
    expect(answers[60]).toEqual({ memberId: ids[1], merchantCode: 'SX', memberType: expect.any(Number), passwordChangeRequired: false });
    expect(answers.slice(61)).toEqual([null, null, null]);
    // 63 well-formed tokens: the first two handshakes start a statement each at once, the rest share one
    expect(counted.handshakeStatements).toBeLessThanOrEqual(3);
    expect(counted.largestBatch).toBeGreaterThan(50);
    // quiet: one handshake alone is answered by its own statement, without waiting for a batch
    expect(await store.resolveForSocket(tokens[2]!)).toEqual({ memberId: ids[2], merchantCode: 'SX', memberType: expect.any(Number), passwordChangeRequired: false });
  });

  it('follows the same rules as an HTTP call: revoked, expired, idle, disabled member, RG session limit', async () => {
    const ids = await members(6, 'hs_rules_');
    const store = createSessionStore(db);
    const tokens = await Promise.all(ids.map((id) => store.create(id, 'SX')));
    for (const t of tokens) expect(await store.resolveForSocket(t)).not.toBeNull();
    await store.revokeAll(ids[0]!);
    await db.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE member_id = $1`, [ids[1]]);
    await db.query(`UPDATE sessions SET last_seen_at = now() - interval '31 minutes' WHERE member_id = $1`, [ids[2]]);
    await db.query(`UPDATE members SET status = 'disabled' WHERE id = $1`, [ids[3]]);
    await db.query(`UPDATE sessions SET created_at = now() - interval '16 minutes' WHERE member_id = $1`, [ids[4]]);
    await db.query(`INSERT INTO rg_session_settings (member_id, session_limit_minutes) VALUES ($1, 15)`, [ids[4]]);
    const socket = await Promise.all(tokens.map((t) => store.resolveForSocket(t)));
    const http = await Promise.all(tokens.map((t) => store.resolve(t)));
    expect(socket.map((s) => s !== null)).toEqual([false, false, false, false, false, true]);
    expect(http.map((s) => s !== null)).toEqual([false, false, false, false, false, true]);
  });

  it('writes last_seen_at of a session not seen for a minute, as an HTTP call does', async () => {
    const [id] = await members(1, 'hs_touch_');
    const store = createSessionStore(db);
    const token = await store.create(id!, 'SX');
    await db.query(`UPDATE sessions SET last_seen_at = now() - interval '5 minutes' WHERE member_id = $1`, [id]);
    expect(await store.resolveForSocket(token)).toEqual({ memberId: id, merchantCode: 'SX', memberType: expect.any(Number), passwordChangeRequired: false });
    const r = await db.query<{ fresh: boolean }>(`SELECT last_seen_at > now() - interval '10 seconds' AS fresh FROM sessions WHERE member_id = $1`, [id]);
    expect(r.rows[0]!.fresh).toBe(true);
    // A session opened with a password that must change says so (the socket grab refuses it).
    const mustChange = await store.create(id!, 'SX', null, { passwordChangeRequired: true });
    expect((await store.resolveForSocket(mustChange))?.passwordChangeRequired).toBe(true);
  });
});
