import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { LEDGER_RECORD_KINDS, recordKindOf } from '@portal/contracts/api/wallet';
import { agentPayoutLedgerKind, CONTRACT_KINDS } from '@portal/contracts/domain/agent-contracts';
import { buildResources } from '../i18n/resources';
import { recordKindName } from './code-labels';

const resources = buildResources(import.meta.glob<unknown>('../i18n/locales/*/*.json', { eager: true, import: 'default' }));

async function tIn(lng: 'EN' | 'TY') {
  const i = i18next.createInstance();
  await i.init({ lng, resources, ns: ['wallet'], defaultNS: 'wallet', interpolation: { escapeValue: false } });
  return i.t.bind(i);
}

describe('account record kinds', () => {
  it('points transfers (convert, cash redeem) and the other dotted ledger kinds have record kinds of their own', () => {
    expect(recordKindOf('points.convert')).toBe('points_convert');
    expect(recordKindOf('points.redeem')).toBe('points_redeem');
    expect(recordKindOf('promo.bonus.revert')).toBe('bonus_revert');
    expect(recordKindOf('deposit')).toBe('deposit');
    for (const kind of Object.values(LEDGER_RECORD_KINDS)) expect(kind).not.toContain('.');
    // An agent's contract payouts have their own kinds (they read "Other").
    for (const k of CONTRACT_KINDS) expect(LEDGER_RECORD_KINDS, k).toHaveProperty([agentPayoutLedgerKind(k)]);
    expect(recordKindOf('agent.realtimeSalary')).toBe('realtime_salary');
  });

  it('each has its own label in EN and in TY, not the generic "Other", and TY differs from EN', async () => {
    const en = await tIn('EN');
    const ty = await tIn('TY');
    const otherEn = recordKindName(en, 'no_such_kind');
    const otherTy = recordKindName(ty, 'no_such_kind');
    expect(otherEn).toBe('Other');
    for (const kind of Object.values(LEDGER_RECORD_KINDS)) {
      const e = recordKindName(en, kind);
      const y = recordKindName(ty, kind);
      expect(e, kind).not.toBe(otherEn);
      expect(y, kind).not.toBe(otherTy);
      expect(y, kind).not.toBe(e);
    }
    expect(recordKindName(en, recordKindOf('points.convert'))).toBe('Points converted to balance');
    expect(recordKindName(ty, recordKindOf('points.redeem'))).toBe('Gantimpala ng puntos (cash)');
  });
});
