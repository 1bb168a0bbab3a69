import { describe, expect, it } from 'vitest';
import { OPERATOR_ROLES, OPS_PERMISSIONS } from '@portal/contracts/api/ops';
import { AUDIT_FIELD_ALIASES, AUDIT_FIELD_LABELS, AUDIT_VALUE_LABELS, auditActionKey, auditFieldKey, auditFields, auditTargetLabelKey, auditValueKey } from './audit-format';
import en from '../../../i18n/locales/en/ops.json';
import ty from '../../../i18n/locales/ty/ops.json';

describe('auditFields', () => {
  it('shows money fields in pesos and marks what changed', () => {
    const before = { status: 'requested', amount: 150000, reason: null };
    const after = { status: 'approved', amount: 150000, reason: null };
    expect(auditFields(after, before)).toEqual([
      { key: 'status', value: 'approved', changed: true },
      { key: 'amount', value: '1,500.00', changed: false },
      { key: 'reason', value: '—', changed: false },
    ]);
  });

  it('shows the money of promotions and red envelopes in pesos, and counts and rates as they are', () => {
    const drop = { totalAmount: 50000, count: 10, minShare: 100, rewardAmount: 10000, rewardCap: 250000, minDeposit: 50000, wageringBonusX: 5, rewardBps: 1000 };
    expect(auditFields(drop, null).map((f) => `${f.key}=${f.value}`)).toEqual([
      'totalAmount=500.00', 'count=10', 'minShare=1.00', 'rewardAmount=100.00', 'rewardCap=2,500.00', 'minDeposit=500.00', 'wageringBonusX=5', 'rewardBps=1000',
    ]);
  });

  it('marks every field changed when the other side has none of them', () => {
    expect(auditFields({ balance: -500 }, {})).toEqual([{ key: 'balance', value: '-5.00', changed: true }]);
  });

  it('does not mark anything when there is no other side', () => {
    expect(auditFields({ ip: '127.0.0.1' }, null)).toEqual([{ key: 'ip', value: '127.0.0.1', changed: false }]);
    // Instants on the console's clock (the page says its times are GMT+8); other strings as they are.
    const gmt8 = (iso: string) => `@${new Date(Date.parse(iso) + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ')}`;
    expect(auditFields({ expiresAt: '2026-12-06T20:53:37Z', note: '2026-12-06' }, null, 2, gmt8).map((f) => f.value)).toEqual(['@2026-12-07 04:53', '2026-12-06']);
  });

  it('reads nothing from null and shows scalars as they are', () => {
    expect(auditFields(null, { a: 1 })).toEqual([]);
    expect(auditFields('x', null)).toEqual([{ key: '', value: 'x', changed: false }]);
  });
});

describe('auditActionKey', () => {
  it('shows a group of settings one pair per setting, marking the ones that changed (no raw JSON)', () => {
    const before = { security: { botCheck: true, captchaAfterFailures: 3 }, manualBank: null };
    const after = { security: { botCheck: false, captchaAfterFailures: 3 }, manualBank: { bankName: 'BPI', accountNumber: '3141-5926-53' } };
    expect(auditFields(before, after)).toEqual([
      { key: 'security.botCheck', value: 'true', changed: true },
      { key: 'security.captchaAfterFailures', value: '3', changed: false },
      { key: 'manualBank', value: '—', changed: true },
    ]);
    expect(auditFields(after, before)).toEqual([
      { key: 'security.botCheck', value: 'false', changed: true },
      { key: 'security.captchaAfterFailures', value: '3', changed: false },
      { key: 'manualBank.bankName', value: 'BPI', changed: true },
      { key: 'manualBank.accountNumber', value: '3141-5926-53', changed: true },
    ]);
    expect(auditFields({ limits: { depositMin: 100_00 } }, null)).toEqual([{ key: 'limits.depositMin', value: '100.00', changed: false }]);
    // 13 module flags, one switched: only that one.
    const flags = Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`F${i}`, true]));
    expect(auditFields({ modules: flags }, { modules: { ...flags, F4: false } })).toEqual([{ key: 'modules.F4', value: 'true', changed: true }]);
  });

  it('makes a flat translation key', () => {
    expect(auditActionKey('withdrawal.reconcile_paid')).toBe('audit_action_withdrawal_reconcile_paid');
  });
});

describe('audit field names and values in the console language', () => {
  it('names the fields and statuses it knows in EN and TY (status: requested read as the API wrote it in TY)', () => {
    expect(auditFieldKey('receivedAmount')).toBe('audit_field_receivedAmount');
    expect(auditFieldKey('somethingNew')).toBeNull();
    // an RG limit's rows ("period: day", "kind: deposit" in TY too)
    expect([auditFieldKey('period'), auditFieldKey('sessionLimitMinutes'), auditValueKey('deposit', 'kind'), auditValueKey('week', 'period')]).toEqual(['audit_field_period', 'audit_field_sessionLimitMinutes', 'audit_value_deposit', 'audit_value_week']);
    // Settings the console names on their own pages, and module flags by their names (raw in TY too).
    expect(auditFieldKey('security.botCheck')).toBe('site_bot_check');
    expect(auditFieldKey('manualBank.accountNumber')).toBe('bank_accountNumber');
    expect(auditFieldKey('modules.TRANSREC3')).toBe('module_TRANSREC3');
    expect(auditFieldKey('withdrawMin')).toBe('audit_field_withdrawMin');
    expect(auditFieldKey('security.somethingNew')).toBeNull();
    expect(auditValueKey('requested')).toBe('audit_value_requested');
    expect(auditValueKey('GCASH')).toBeNull();
    const tyTexts = ty as Record<string, string>;
    const enTexts = en as Record<string, string>;
    for (const f of AUDIT_FIELD_LABELS) {
      expect(enTexts[`audit_field_${f}`], f).toBeTruthy();
      expect(tyTexts[`audit_field_${f}`], f).toBeTruthy();
    }
    for (const k of [...Object.values(AUDIT_FIELD_ALIASES), 'module_TRANSREC3', 'module_AGENTPOLICY3']) {
      expect(enTexts[k], k).toBeTruthy();
      expect(tyTexts[k], k).toBeTruthy();
    }
    for (const v of AUDIT_VALUE_LABELS) {
      expect(enTexts[`audit_value_${v}`], v).toBeTruthy();
      expect(tyTexts[`audit_value_${v}`], v).toBeTruthy();
    }
    expect(tyTexts.audit_value_requested).toBe('hiniling');
    expect(tyTexts.audit_field_status).toBe('Katayuan');
  });
});

describe('a refused call and an operator\'s roles read as words (TY showed #site.update and ["support"])', () => {
  it('names the permission a refused call lacked, in EN and TY', () => {
    expect(auditTargetLabelKey('action', 'site.update')).toBe('perm_site_update');
    expect(auditTargetLabelKey('action', 'not.a.permission')).toBeNull();
    expect(auditTargetLabelKey('member', '12')).toBeNull();
    for (const action of Object.keys(OPS_PERMISSIONS)) {
      const key = auditTargetLabelKey('action', action)!;
      expect((en as Record<string, string>)[key], key).toBeTruthy();
      expect((ty as Record<string, string>)[key], key).toBeTruthy();
      expect((ty as Record<string, string>)[key], key).not.toBe((en as Record<string, string>)[key]);
    }
  });

  it('keeps a list of words apart, each role by the console\'s name for it', () => {
    expect(auditFields({ roles: ['support', 'risk'], path: '/ops/api/site' }, null)).toEqual([
      { key: 'roles', value: '["support","risk"]', changed: false, items: ['support', 'risk'] },
      { key: 'path', value: '/ops/api/site', changed: false },
    ]);
    for (const role of OPERATOR_ROLES) expect(auditValueKey(role, 'roles'), role).toBe(`role_${role}`);
    expect((ty as Record<string, string>)[auditValueKey('support', 'roles')!]).toBe('Suporta');
    // Outside `roles`, "support" is who acted for a player (rg source): its own word.
    expect(auditValueKey('support', 'source')).toBe('audit_value_support');
  });

  it("says a member's disabled status as the player page does: frozen", () => {
    expect(auditValueKey('disabled', 'status', 'member')).toBe('audit_value_member_disabled');
    expect(auditValueKey('disabled', 'status', 'operator')).toBe('audit_value_disabled');
    expect((ty as Record<string, string>).audit_value_member_disabled).toBe((ty as Record<string, string>).player_frozen!.toLowerCase());
    expect((en as Record<string, string>).audit_value_member_disabled).toBe((en as Record<string, string>).player_frozen!.toLowerCase());
  });
});

describe('the audit actions the gateway writes', () => {
  it('each has a name in EN and TY (rg.exclusion.start and others showed as codes in the trail and the player profile)', async () => {
    const { readdirSync, readFileSync, statSync } = await import('node:fs');
    const path = await import('node:path');
    const root = path.resolve(__dirname, '../../../../../gateway/src');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const f of readdirSync(dir)) {
        const p = path.join(dir, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts') && !p.endsWith('.test.ts')) files.push(p);
      }
    };
    walk(root);
    const actions = new Set<string>();
    for (const f of files) {
      const src = readFileSync(f, 'utf8');
      // audit(tx, op, 'x.y', ...) and rgAudit(tx, merchant, actor, 'x.y', ...), over line breaks too
      for (const m of src.matchAll(/\b(?:audit|rgAudit)\(\s*[^;]*?'([a-z_]+(?:\.[a-z_]+)+)'/g)) actions.add(m[1]!);
    }
    expect(actions.size).toBeGreaterThan(40);
    const en = JSON.parse(readFileSync(path.resolve(__dirname, '../../../i18n/locales/en/ops.json'), 'utf8')) as Record<string, string>;
    const ty = JSON.parse(readFileSync(path.resolve(__dirname, '../../../i18n/locales/ty/ops.json'), 'utf8')) as Record<string, string>;
    const missing = [...actions].filter((a) => !en[auditActionKey(a)] || !ty[auditActionKey(a)]);
    expect(missing).toEqual([]);
  });
});
