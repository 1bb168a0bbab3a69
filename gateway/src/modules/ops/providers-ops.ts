import { randomBytes } from 'node:crypto';
import { merchantAudience } from '@portal/contracts/events/events';
import { opsProviderCalls, type ProviderState, type TOpsProvider } from '@portal/contracts/api/ops-providers';
import { launchUrlProblem } from '@portal/contracts/domain/launch-url';
import type { Db, Queryable, Tx } from '../../db/db.ts';
import { emitEvent } from '../../bus/outbox.ts';
import { AppError, ErrorCode } from '../../app/errors.ts';
import { HOUSE_VENDOR_CODE } from '../games/connected-vendors.ts';
import { audit } from './operators.ts';
import { SITE_CHANGED_EVENT } from './site-ops.ts';
import type { OpsCall } from './ops-router.ts';
import { iso } from '../../db/iso.ts';

type AccountRow = {
  vendor: string; launch_url: string; active: boolean; simulated: boolean;
  changed_at: Date | string | null; secret_set_at: Date | string | null; disconnect_reason: string | null;
};
type VendorRow = { vassalage: string; display_name: string; game_types: string[]; games: number; hot_games: number };


function stateOf(vendor: string, a: AccountRow | undefined): ProviderState {
  if (vendor === HOUSE_VENDOR_CODE) return 'house';
  if (!a) return 'not_connected';
  if (!a.active) return 'disconnected';
  return a.simulated ? 'simulated' : 'connected';
}

function toProvider(v: VendorRow, a: AccountRow | undefined): TOpsProvider {
  const state = stateOf(v.vassalage, a);
  return {
    vendor: v.vassalage, displayName: v.display_name, gameTypes: v.game_types, games: Number(v.games), hotGames: Number(v.hot_games), state,
    launchUrl: a?.launch_url ?? null,
    secretSetAt: iso(a?.secret_set_at ?? null), changedAt: iso(a?.changed_at ?? null),
    disconnectReason: state === 'disconnected' ? a?.disconnect_reason ?? null : null,
  };
}

/** The merchant's vendors (one per code, over its product lines) with their catalogue counts. */
const VENDORS_SQL = `
  SELECT v.vassalage, (array_agg(v.display_name ORDER BY v.sort, v.game_type))[1] AS display_name,
         array_agg(v.game_type ORDER BY v.sort, v.game_type) AS game_types,
         coalesce(max(g.n), 0)::int AS games, coalesce(max(g.hot), 0)::int AS hot_games
  FROM vendors v
  LEFT JOIN (SELECT vassalage, count(*)::int AS n, count(hot_rank)::int AS hot FROM games WHERE merchant_code = $1 GROUP BY vassalage) g
    ON g.vassalage = v.vassalage
  WHERE v.merchant_code = $1 AND ($2::text IS NULL OR v.vassalage = $2)
  GROUP BY v.vassalage`;
const ACCOUNT_COLUMNS = 'vendor, launch_url, active, simulated, changed_at, secret_set_at, disconnect_reason';

/** A signing secret for the seamless-wallet API: 256 random bits as 64 hex digits (the house's form). */
const newSecret = () => randomBytes(32).toString('hex');

/** What an audit row keeps of a connection: its state and launch URL, never the secret. */
const auditState = (p: TOpsProvider) => ({ state: p.state, launchUrl: p.launchUrl, secretSetAt: p.secretSetAt });

/**
 * Game providers in the operator console (/ops/providers): an administrator connects a provider
 * (its launch URL; the server makes its signing secret and answers it once), changes its launch URL,
 * rotates its secret, or disconnects it with a reason. The secret is never read back out. Each change
 * is one transaction with an audit row and, when what players see changes, `system.changed` (part
 * `games`): every node drops its cached vendor lanes, hot games and menus, and open pages re-read them.
 * The vendor API keeps a secret for at most 5 s per node (vendor-routes.ts), so a rotation or a
 * disconnection is in force everywhere within seconds.
 */
export function mountOpsProviderRoutes(call: OpsCall, deps: { db: Db; httpsOnly: boolean }) {
  const { db, httpsOnly } = deps;

  async function list(q: Queryable, merchant: string, vendor: string | null = null): Promise<TOpsProvider[]> {
    const vendors = (await q.query<VendorRow>(`${VENDORS_SQL} ORDER BY (v.vassalage <> '${HOUSE_VENDOR_CODE}'), display_name, v.vassalage`, [merchant, vendor])).rows;
    const accounts = (await q.query<AccountRow>(
      `SELECT ${ACCOUNT_COLUMNS} FROM vendor_accounts WHERE merchant_code = $1 AND ($2::text IS NULL OR vendor = $2)`, [merchant, vendor])).rows;
    const byVendor = new Map(accounts.map((a) => [a.vendor, a]));
    return vendors.map((v) => toProvider(v, byVendor.get(v.vassalage)));
  }

  /**
   * The provider, changes to it serialized (its vendors rows locked: they exist before any connection
   * row does): NOT_FOUND for a vendor the merchant does not have; the house provider is built in.
   */
  async function lockProvider(tx: Tx, merchant: string, vendor: string) {
    if (vendor === HOUSE_VENDOR_CODE) throw new AppError(ErrorCode.CONFLICT, 'The house provider is built in');
    await tx.query('SELECT 1 FROM vendors WHERE merchant_code = $1 AND vassalage = $2 FOR UPDATE', [merchant, vendor]);
    const [p] = await list(tx, merchant, vendor);
    if (!p) throw new AppError(ErrorCode.NOT_FOUND);
    return p;
  }

  const announce = (tx: Tx, merchant: string) => emitEvent(tx, merchant, merchantAudience(merchant), SITE_CHANGED_EVENT, { parts: ['games'] });
  const reread = async (tx: Tx, merchant: string, vendor: string) => (await list(tx, merchant, vendor))[0]!;

  call(opsProviderCalls.providers, 'games.read', async ({ ctx }) => ({ list: await list(db, ctx.merchant.code), httpsOnly }));

  call(opsProviderCalls.connect, 'providers.manage', async ({ ctx, body }) => {
    const problem = launchUrlProblem(body.launchUrl, { httpsOnly });
    if (problem) {
      throw new AppError(ErrorCode.VALIDATION, problem === 'https' ? 'The launch URL must be https' : 'Invalid launch URL',
        [{ path: 'launchUrl', message: problem === 'https' ? 'must start with https://' : 'an http(s) address with a host, without credentials, query or fragment' }]);
    }
    const launchUrl = body.launchUrl.trim();
    return db.tx(async (tx) => {
      const merchant = ctx.merchant.code;
      const before = await lockProvider(tx, merchant, body.vendor);
      if (before.state === 'connected') {
        // Connected from the console already: a new launch URL, the same secret.
        if (before.launchUrl === launchUrl) return { provider: before, secret: null };
        await tx.query('UPDATE vendor_accounts SET launch_url = $3, changed_at = now() WHERE merchant_code = $1 AND vendor = $2', [merchant, body.vendor, launchUrl]);
        const after = await reread(tx, merchant, body.vendor);
        await audit(tx, ctx.operator, 'provider.update', { type: 'vendor', id: body.vendor }, auditState(before), auditState(after));
        return { provider: after, secret: null };
      }
      // Not connected, disconnected, or played by the simulator: a connection of its own with a new
      // secret (the simulator's rows are left alone by it from now on, simulated = false).
      const secret = newSecret();
      await tx.query(
        `INSERT INTO vendor_accounts (merchant_code, vendor, secret, launch_url, active, simulated, free_play, changed_at, secret_set_at, disconnect_reason)
         VALUES ($1, $2, $3, $4, true, false, false, now(), now(), NULL)
         ON CONFLICT (merchant_code, vendor) DO UPDATE SET secret = EXCLUDED.secret, launch_url = EXCLUDED.launch_url, active = true, simulated = false,
           free_play = false, changed_at = now(), secret_set_at = now(), disconnect_reason = NULL`,
        [merchant, body.vendor, secret, launchUrl],
      );
      const after = await reread(tx, merchant, body.vendor);
      await audit(tx, ctx.operator, 'provider.connect', { type: 'vendor', id: body.vendor }, auditState(before), auditState(after));
      await announce(tx, merchant);
      return { provider: after, secret };
    });
  });

  call(opsProviderCalls.rotateSecret, 'providers.manage', async ({ ctx, body }) => db.tx(async (tx) => {
    const merchant = ctx.merchant.code;
    const before = await lockProvider(tx, merchant, body.vendor);
    // The simulator derives its vendors' secrets: connect such a vendor for real to give it one.
    if (before.state !== 'connected') throw new AppError(ErrorCode.CONFLICT, 'Only a provider connected from the console has a secret to rotate');
    const secret = newSecret();
    await tx.query('UPDATE vendor_accounts SET secret = $3, secret_set_at = now(), changed_at = now() WHERE merchant_code = $1 AND vendor = $2', [merchant, body.vendor, secret]);
    const after = await reread(tx, merchant, body.vendor);
    await audit(tx, ctx.operator, 'provider.secret_rotate', { type: 'vendor', id: body.vendor }, auditState(before), auditState(after));
    return { provider: after, secret };
  }));

  call(opsProviderCalls.disconnect, 'providers.manage', async ({ ctx, body }) => db.tx(async (tx) => {
    const merchant = ctx.merchant.code;
    const before = await lockProvider(tx, merchant, body.vendor);
    if (before.state !== 'connected' && before.state !== 'simulated') throw new AppError(ErrorCode.CONFLICT, 'The provider is not connected');
    // simulated = false: the operator's decision stands at the next start (ensureSimulatedVendors skips the row).
    await tx.query(
      'UPDATE vendor_accounts SET active = false, simulated = false, free_play = false, changed_at = now(), disconnect_reason = $3 WHERE merchant_code = $1 AND vendor = $2',
      [merchant, body.vendor, body.reason],
    );
    const after = await reread(tx, merchant, body.vendor);
    await audit(tx, ctx.operator, 'provider.disconnect', { type: 'vendor', id: body.vendor }, auditState(before), { ...auditState(after), reason: body.reason });
    await announce(tx, merchant);
    return after;
  }));
}
