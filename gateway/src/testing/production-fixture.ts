import { randomBytes } from 'node:crypto';
import type { Db } from '../db/db.ts';
import { loadSeed } from '../db/seed.ts';
import type { PasswordHasher } from '../modules/auth/password-hasher.ts';
import { OPS_TOTP_SECRET } from './ops-totp.ts';

/** The production test merchant's only domain (and main_domain): links it sends point here. */
export const PRODUCTION_TEST_DOMAIN = 'portal.test';
export const PRODUCTION_TEST_MERCHANT = 'PROD';

export type FixtureAccount = { account: string; password: string; memberId: number };
export type ProductionFixture = {
  merchant: string;
  domain: string;
  /** type 1 agent with players `players[0]` and `players[1]` below it. */
  agent: FixtureAccount;
  players: [FixtureAccount, FixtureAccount];
  /** A player in no one's tree. */
  outsider: FixtureAccount;
  admin: { username: string; password: string };
  auditor: { username: string; password: string };
};

/**
 * What a production portal holds before anyone uses it, without the demo seed: one merchant on
 * PRODUCTION_TEST_DOMAIN and a few accounts, each with a password made for this run (production never
 * has an account with a known password). The slider bot check is off for this merchant so tests log in
 * over HTTP without the dev routes; every other security setting keeps its default.
 */
export async function insertProductionFixture(db: Db, hasher: PasswordHasher): Promise<ProductionFixture> {
  const seed = (await loadSeed()).merchant;
  const merchant = PRODUCTION_TEST_MERCHANT;
  const secret = () => `Pw-${randomBytes(12).toString('base64url')}`;
  return db.tx(async (tx) => {
    await tx.query(
      `INSERT INTO merchants (code, name, is_default, domains, main_domain, module_flags, whitelabel, brand, currency, security)
       VALUES ($1, $2, true, $3, $4, $5, $6, $7, $8, $9)`,
      [merchant, 'Portal Test', [PRODUCTION_TEST_DOMAIN], PRODUCTION_TEST_DOMAIN, JSON.stringify(seed.modules), JSON.stringify(seed.whitelabel),
        JSON.stringify(seed.brand), seed.currency, JSON.stringify({ botCheck: false })],
    );
    async function member(account: string, type: number, parentId: number | null, extra: { email?: string; invitationCode?: string } = {}): Promise<FixtureAccount> {
      const password = secret();
      const r = await tx.query<{ id: number }>(
        `INSERT INTO members (merchant_code, account, account_lower, nickname, type, password_hash, password_changed_at, email, invitation_code, parent_id)
         VALUES ($1, $2, lower($2), $2, $3, $4, now(), $5, $6, $7) RETURNING id`,
        [merchant, account, type, await hasher.hash(password), extra.email ?? null, extra.invitationCode ?? null, parentId],
      );
      return { account, password, memberId: Number(r.rows[0]!.id) };
    }
    const agent = await member('agentp1', 1, null, { invitationCode: 'PRODAG1' });
    const players: [FixtureAccount, FixtureAccount] = [
      await member('playerp1', 0, agent.memberId, { email: 'playerp1@portal.test' }),
      await member('playerp2', 0, agent.memberId),
    ];
    const outsider = await member('outsiderp1', 0, null);
    const admin = { username: 'adminp1', password: secret() };
    const auditor = { username: 'auditp1', password: secret() };
    for (const [op, role] of [[admin, 'administrator'], [auditor, 'risk']] as const) {
      await tx.query(
        `INSERT INTO operators (merchant_code, username, password_hash, roles, totp_secret) VALUES ($1, $2, $3, $4, $5)`,
        [merchant, op.username, await hasher.hash(op.password), [role], OPS_TOTP_SECRET],
      );
    }
    return { merchant, domain: PRODUCTION_TEST_DOMAIN, agent, players, outsider, admin, auditor };
  });
}
