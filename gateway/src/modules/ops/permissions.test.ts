import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_ROLES, OPS_PERMISSIONS, opsCalls, type OperatorRole, type OpsAction } from '@portal/contracts/api/ops';
import { opsAgentCalls } from '@portal/contracts/api/ops-agents';
import { opsAgentApplicationCalls } from '@portal/contracts/api/agent-applications';
import { opsAgentDisputeCalls } from '@portal/contracts/api/agent-payouts';
import { opsRgCalls, opsRgListCalls } from '@portal/contracts/api/rg';
import { opsFeedbackCalls } from '@portal/contracts/api/feedback';
import { opsChatCalls } from '@portal/contracts/api/chat';
import { opsPlayerCalls } from '@portal/contracts/api/ops-players';
import { opsPromotionCalls } from '@portal/contracts/api/promotions';
import { opsMissionCalls } from '@portal/contracts/api/missions';
import { opsContentCalls } from '@portal/contracts/api/ops-content';
import { opsRedEnvelopeCalls } from '@portal/contracts/api/red-envelopes';
import { opsPointCalls } from '@portal/contracts/api/points';
import { opsProviderCalls } from '@portal/contracts/api/ops-providers';
import { startTestPortal, type TestPortal } from '../../testing/test-portal.ts';
import { apiOn } from '../../testing/test-members.ts';
import { OPS_TOTP_SECRET, opsTotp } from '../../testing/ops-totp.ts';

/**
 * The operator permission matrix: every /ops/api route (but the session's own calls) x every role.
 * The table below is the expectation written out by hand; it must agree with OPS_PERMISSIONS and
 * cover every route the contracts define. Allowed: anything but 403 (the empty bodies used here fail
 * validation with 400, or a missing id answers 404, so nothing changes). Refused: 403 FORBIDDEN and one
 * more `permission.denied` audit row for that operator and action.
 */
const A = 'administrator', F = 'finance', S = 'support', C = 'content', R = 'risk';
type Route = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; action: OpsAction; roles: OperatorRole[]; body?: unknown };
const ROUTES: Route[] = [
  { method: 'GET', path: opsCalls.deposits.path, action: 'deposits.read', roles: [A, F, R] },
  { method: 'POST', path: opsCalls.confirmDeposit.path, action: 'deposits.decide', roles: [A, F], body: { bogus: 1 } },
  { method: 'POST', path: opsCalls.rejectDeposit.path, action: 'deposits.decide', roles: [A, F], body: {} },
  { method: 'GET', path: opsCalls.withdrawals.path, action: 'withdrawals.read', roles: [A, F, R] },
  { method: 'GET', path: opsCalls.withdrawal.path, action: 'withdrawals.read', roles: [A, F, R] },
  { method: 'GET', path: opsCalls.withdrawalProofPath, action: 'withdrawals.read', roles: [A, F, R] },
  { method: 'POST', path: opsCalls.approveWithdrawal.path, action: 'withdrawals.decide', roles: [A, F], body: { bogus: 1 } },
  { method: 'POST', path: opsCalls.rejectWithdrawal.path, action: 'withdrawals.decide', roles: [A, F], body: {} },
  { method: 'POST', path: opsCalls.payWithdrawal.path, action: 'withdrawals.decide', roles: [A, F], body: { bogus: 1 } },
  { method: 'POST', path: opsCalls.unknownWithdrawal.path, action: 'withdrawals.decide', roles: [A, F], body: {} },
  { method: 'POST', path: opsCalls.reconcileWithdrawal.path, action: 'withdrawals.decide', roles: [A, F], body: {} },
  { method: 'POST', path: opsCalls.adjust.path, action: 'balance.adjust', roles: [A, F], body: {} },
  { method: 'GET', path: opsCalls.adjustments.path, action: 'balance.adjust', roles: [A, F] },
  { method: 'GET', path: opsCalls.settings.path, action: 'cashier.settings.read', roles: [A, F] },
  { method: 'PUT', path: opsCalls.updateSettings.path, action: 'cashier.settings.update', roles: [A], body: { bogus: 1 } },
  { method: 'POST', path: opsCalls.memberStatus.path, action: 'members.status', roles: [A, R], body: {} },
  { method: 'GET', path: opsCalls.audit.path, action: 'audit.read', roles: [A, R] },
  { method: 'GET', path: opsCalls.auditExportPath, action: 'audit.read', roles: [A, R] },
  { method: 'GET', path: opsCalls.operators.path, action: 'operators.manage', roles: [A] },
  { method: 'POST', path: opsCalls.createOperator.path, action: 'operators.manage', roles: [A], body: {} },
  { method: 'POST', path: opsCalls.updateOperator.path, action: 'operators.manage', roles: [A], body: {} },
  { method: 'GET', path: opsCalls.site.path, action: 'site.read', roles: [A, C, S, R] },
  { method: 'PUT', path: opsCalls.updateSite.path, action: 'site.update', roles: [A], body: { bogus: 1 } },
  { method: 'GET', path: opsCalls.vendors.path, action: 'games.read', roles: [A, C, S] },
  { method: 'POST', path: opsCalls.updateVendor.path, action: 'games.manage', roles: [A, C], body: {} },
  { method: 'GET', path: opsCalls.games.path, action: 'games.read', roles: [A, C, S] },
  { method: 'POST', path: opsCalls.updateGame.path, action: 'games.manage', roles: [A, C], body: {} },
  { method: 'GET', path: opsProviderCalls.providers.path, action: 'games.read', roles: [A, C, S] },
  { method: 'POST', path: opsProviderCalls.connect.path, action: 'providers.manage', roles: [A], body: {} },
  { method: 'POST', path: opsProviderCalls.rotateSecret.path, action: 'providers.manage', roles: [A], body: {} },
  { method: 'POST', path: opsProviderCalls.disconnect.path, action: 'providers.manage', roles: [A], body: {} },
  { method: 'GET', path: opsAgentCalls.tree.path, action: 'agents.read', roles: [A, F, R, S] },
  { method: 'GET', path: opsAgentCalls.contracts.path, action: 'agents.read', roles: [A, F, R, S] },
  { method: 'POST', path: opsAgentCalls.grantHouseContract.path, action: 'agents.manage', roles: [A], body: {} },
  { method: 'POST', path: opsAgentCalls.terminate.path, action: 'agents.manage', roles: [A], body: {} },
  { method: 'POST', path: opsAgentCalls.makeTopAgent.path, action: 'agents.manage', roles: [A], body: {} },
  { method: 'GET', path: opsAgentApplicationCalls.list.path, action: 'agents.read', roles: [A, F, R, S] },
  { method: 'POST', path: opsAgentApplicationCalls.decide.path, action: 'agents.manage', roles: [A], body: {} },
  { method: 'GET', path: opsAgentDisputeCalls.list.path, action: 'disputes.read', roles: [A, F, R] },
  { method: 'GET', path: opsAgentDisputeCalls.payouts.path, action: 'disputes.read', roles: [A, F, R] },
  { method: 'POST', path: opsAgentDisputeCalls.resolve.path, action: 'disputes.resolve', roles: [A, F], body: {} },
  { method: 'POST', path: opsRgCalls.exclude.path, action: 'rg.exclude', roles: [A, R], body: {} },
  { method: 'POST', path: opsRgCalls.lift.path, action: 'rg.exclude', roles: [A, R], body: {} },
  { method: 'GET', path: opsFeedbackCalls.list.path, action: 'feedback.read', roles: [A, S] },
  { method: 'GET', path: opsFeedbackCalls.image.path, action: 'feedback.read', roles: [A, S] },
  { method: 'POST', path: opsFeedbackCalls.answer.path, action: 'feedback.answer', roles: [A, S], body: {} },
  { method: 'GET', path: opsChatCalls.list.path, action: 'chat.answer', roles: [A, S] },
  { method: 'GET', path: opsChatCalls.messages.path, action: 'chat.answer', roles: [A, S] },
  { method: 'POST', path: opsChatCalls.reply.path, action: 'chat.answer', roles: [A, S], body: {} },
  { method: 'POST', path: opsChatCalls.read.path, action: 'chat.answer', roles: [A, S], body: {} },
  { method: 'POST', path: opsChatCalls.close.path, action: 'chat.answer', roles: [A, S], body: {} },
  { method: 'GET', path: opsPlayerCalls.players.path, action: 'players.read', roles: [A, F, S, R] },
  { method: 'GET', path: opsPlayerCalls.player.path, action: 'players.read', roles: [A, F, S, R] },
  { method: 'GET', path: opsPlayerCalls.playerMoney.path, action: 'players.money', roles: [A, F, R] },
  { method: 'GET', path: opsPlayerCalls.playerDeposits.path, action: 'players.money', roles: [A, F, R] },
  { method: 'GET', path: opsPlayerCalls.playerWithdrawals.path, action: 'players.money', roles: [A, F, R] },
  { method: 'GET', path: opsPlayerCalls.playerBets.path, action: 'players.money', roles: [A, F, R] },
  { method: 'GET', path: opsPlayerCalls.playerLedger.path, action: 'players.money', roles: [A, F, R] },
  { method: 'GET', path: opsPlayerCalls.notes.path, action: 'players.notes', roles: [A, S, R] },
  { method: 'POST', path: opsPlayerCalls.addNote.path, action: 'players.notes', roles: [A, S, R], body: {} },
  { method: 'GET', path: opsPlayerCalls.brand.path, action: 'site.read', roles: [A, C, S, R] },
  { method: 'PUT', path: opsPlayerCalls.updateBrand.path, action: 'brand.update', roles: [A, C], body: {} },
  { method: 'GET', path: opsPlayerCalls.registration.path, action: 'site.read', roles: [A, C, S, R] },
  { method: 'PUT', path: opsPlayerCalls.updateRegistration.path, action: 'registration.update', roles: [A], body: {} },
  { method: 'GET', path: opsPromotionCalls.list.path, action: 'promotions.read', roles: [A, C, F] },
  { method: 'POST', path: opsPromotionCalls.create.path, action: 'promotions.manage', roles: [A, C], body: {} },
  { method: 'PUT', path: opsPromotionCalls.update.path, action: 'promotions.manage', roles: [A, C], body: {} },
  { method: 'GET', path: opsPromotionCalls.requests.path, action: 'promotions.read', roles: [A, C, F] },
  { method: 'POST', path: opsPromotionCalls.decide.path, action: 'promotions.decide', roles: [A, F], body: {} },
  { method: 'GET', path: opsPromotionCalls.drops.path, action: 'promotions.read', roles: [A, C, F] },
  { method: 'POST', path: opsPromotionCalls.scheduleDrop.path, action: 'promotions.drops', roles: [A, C], body: {} },
  { method: 'POST', path: opsPromotionCalls.cancelDrop.path, action: 'promotions.drops', roles: [A, C], body: {} },
  { method: 'GET', path: opsPromotionCalls.owed.path, action: 'promotions.read', roles: [A, C, F] },
  { method: 'GET', path: opsMissionCalls.list.path, action: 'missions.read', roles: [A, C, F] },
  { method: 'POST', path: opsMissionCalls.create.path, action: 'missions.manage', roles: [A, C], body: {} },
  { method: 'PUT', path: opsMissionCalls.update.path, action: 'missions.manage', roles: [A, C], body: {} },
  { method: 'GET', path: opsContentCalls.announcements.path, action: 'content.read', roles: [A, C, S] },
  { method: 'POST', path: opsContentCalls.createAnnouncement.path, action: 'content.manage', roles: [A, C], body: {} },
  { method: 'PUT', path: opsContentCalls.updateAnnouncement.path, action: 'content.manage', roles: [A, C], body: {} },
  { method: 'DELETE', path: opsContentCalls.deleteAnnouncement.path, action: 'content.manage', roles: [A, C] },
  { method: 'GET', path: opsContentCalls.banners.path, action: 'content.read', roles: [A, C, S] },
  { method: 'POST', path: opsContentCalls.createBanner.path, action: 'content.manage', roles: [A, C], body: {} },
  { method: 'PUT', path: opsContentCalls.updateBanner.path, action: 'content.manage', roles: [A, C], body: {} },
  { method: 'DELETE', path: opsContentCalls.deleteBanner.path, action: 'content.manage', roles: [A, C] },
  // The raw image upload: an allowed role's empty JSON body is not an image (415).
  { method: 'POST', path: opsContentCalls.uploadImagePath, action: 'content.manage', roles: [A, C], body: {} },
  { method: 'GET', path: opsContentCalls.help.path, action: 'content.read', roles: [A, C, S] },
  { method: 'PUT', path: opsContentCalls.saveHelp.path, action: 'content.manage', roles: [A, C], body: {} },
  { method: 'DELETE', path: opsContentCalls.deleteHelp.path, action: 'content.manage', roles: [A, C] },
  { method: 'GET', path: opsContentCalls.articles.path, action: 'content.read', roles: [A, C, S] },
  { method: 'POST', path: opsContentCalls.createArticle.path, action: 'content.manage', roles: [A, C], body: {} },
  { method: 'PUT', path: opsContentCalls.updateArticle.path, action: 'content.manage', roles: [A, C], body: {} },
  { method: 'DELETE', path: opsContentCalls.deleteArticle.path, action: 'content.manage', roles: [A, C] },
  { method: 'GET', path: opsContentCalls.campaigns.path, action: 'content.read', roles: [A, C, S] },
  { method: 'POST', path: opsContentCalls.sendCampaign.path, action: 'messages.send', roles: [A, C], body: {} },
  { method: 'POST', path: opsRgListCalls.restrictedImport.path, action: 'rg.restricted.import', roles: [A, R], body: {} },
  { method: 'GET', path: opsRgListCalls.restrictedSummary.path, action: 'rg.read', roles: [A, R, S] },
  { method: 'GET', path: opsRgListCalls.restrictedMatches.path, action: 'rg.read', roles: [A, R, S] },
  { method: 'GET', path: opsRgListCalls.familyRequests.path, action: 'rg.read', roles: [A, R, S] },
  { method: 'POST', path: opsRgListCalls.createFamilyRequest.path, action: 'rg.family.request', roles: [A, R, S], body: {} },
  { method: 'POST', path: opsRgListCalls.decideFamilyRequest.path, action: 'rg.family.decide', roles: [A, R], body: {} },
  { method: 'GET', path: opsRedEnvelopeCalls.list.path, action: 'envelopes.read', roles: [A, C, F] },
  { method: 'POST', path: opsRedEnvelopeCalls.drop.path, action: 'envelopes.drop', roles: [A, C], body: {} },
  { method: 'GET', path: opsPointCalls.rewards.path, action: 'points.read', roles: [A, C, F] },
  { method: 'POST', path: opsPointCalls.createReward.path, action: 'points.manage', roles: [A, C], body: {} },
  { method: 'PUT', path: opsPointCalls.updateReward.path, action: 'points.manage', roles: [A, C], body: {} },
  { method: 'GET', path: opsPointCalls.redeems.path, action: 'points.read', roles: [A, C, F] },
  { method: 'POST', path: opsPointCalls.decide.path, action: 'points.decide', roles: [A, F], body: {} },
  { method: 'GET', path: opsPointCalls.config.path, action: 'points.read', roles: [A, C, F] },
  { method: 'PUT', path: opsPointCalls.updateConfig.path, action: 'points.manage', roles: [A, C], body: {} },
];
/** The operator's own session calls: any role (the gate before them is the session itself). */
const SESSION_PATHS = [opsCalls.login, opsCalls.logout, opsCalls.me, opsCalls.changePassword, opsCalls.keepSession, opsCalls.restoreSession, opsCalls.totpSetup, opsCalls.totpConfirm].map((c) => `${c.method} ${c.path}`);

let t: TestPortal;
const call = apiOn(() => t.url);
const tokens = new Map<OperatorRole, string>();
const ids = new Map<OperatorRole, number>();
beforeAll(async () => {
  t = await startTestPortal();
  for (const role of OPERATOR_ROLES) {
    const op = await t.portal.cashier.operators.createOperator('DEMO', `perm_${role}`, 'Perm12345678', [role], { totpSecret: OPS_TOTP_SECRET });
    ids.set(role, op.id);
    const r = await call<{ token: string }>('/ops/api/session/login', { body: { username: `perm_${role}`, password: 'Perm12345678', totp: await opsTotp(`perm_${role}`, t.url) } });
    expect(r.status, r.text).toBe(200);
    tokens.set(role, r.json!.value!.token);
  }
});
afterAll(async () => {
  await t.stop();
});

const denials = async (role: OperatorRole, action: OpsAction) =>
  Number((await t.portal.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM audit_log WHERE operator_id = $1 AND action = 'permission.denied' AND target_type = 'action' AND target_id = $2`,
    [ids.get(role), action])).rows[0]!.n);

describe('operator permission matrix', () => {
  it('the table agrees with OPS_PERMISSIONS and covers every back-office route', () => {
    for (const r of ROUTES) expect([...r.roles].sort(), `${r.method} ${r.path}`).toEqual([...OPS_PERMISSIONS[r.action]].sort());
    const defined = [...Object.values(opsCalls), ...Object.values(opsAgentCalls), ...Object.values(opsAgentDisputeCalls), ...Object.values(opsRgCalls), ...Object.values(opsRgListCalls), ...Object.values(opsRedEnvelopeCalls), ...Object.values(opsFeedbackCalls), ...Object.values(opsPlayerCalls), ...Object.values(opsPromotionCalls), ...Object.values(opsMissionCalls)]
      .map((c) => (typeof c === 'string' ? `GET ${c}` : `${c.method} ${c.path}`))
      .concat(Object.values(opsPointCalls).map((c) => `${c.method} ${c.path}`))
      .concat(Object.values(opsProviderCalls).map((c) => `${c.method} ${c.path}`))
      .concat(Object.values(opsChatCalls).map((c) => `${c.method} ${c.path}`))
      // the content section's one path without a call object is the (POST) image upload
      .concat(Object.values(opsContentCalls).map((c) => (typeof c === 'string' ? `POST ${c}` : `${c.method} ${c.path}`)));
    const covered = new Set([...ROUTES.map((r) => `${r.method} ${r.path}`), ...SESSION_PATHS]);
    expect(defined.filter((d) => !covered.has(d))).toEqual([]);
    // every action of the table is used by some route
    expect(Object.keys(OPS_PERMISSIONS).filter((a) => !ROUTES.some((r) => r.action === a))).toEqual([]);
  });

  const cases = ROUTES.flatMap((r) => OPERATOR_ROLES.map((role) => ({ ...r, role, allowed: r.roles.includes(role) })));
  it.each(cases)('$role $method $path -> allowed: $allowed', async ({ role, method, path, action, allowed, body }) => {
    const url = path.replace(':id', '999999').replace(':n', '0');
    const before = await denials(role, action);
    const res = await call(url, { method, token: tokens.get(role)!, ...(method === 'GET' ? {} : { body: body ?? {} }) });
    if (allowed) {
      expect(res.status, res.text).not.toBe(403);
      expect(res.status).toBeLessThan(500);
      expect(await denials(role, action)).toBe(before);
    } else {
      expect(res.status, res.text).toBe(403);
      expect(res.json).toMatchObject({ success: false, code: 'FORBIDDEN' });
      expect(await denials(role, action)).toBe(before + 1);
    }
  });
});
