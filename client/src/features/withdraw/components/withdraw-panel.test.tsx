import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api';
import { i18n } from '../../../i18n/i18n';
import { requestedNoticeAfter, withdrawPasswordSetError } from './withdraw-panel';

describe('withdraw password set: a wrong login password', () => {
  it('is shown on the login-password field and names the login password (not the "old password"), EN and TY', async () => {
    const failed = withdrawPasswordSetError(new ApiError('OLD_PASSWORD_WRONG', 'The old password is not correct', 400));
    expect(failed).toEqual({ fields: { loginPassword: { key: 'wallet:login_password_wrong' } }, form: null });
    await i18n.changeLanguage('EN');
    await i18n.loadNamespaces('wallet');
    expect(i18n.getFixedT('EN')('wallet:login_password_wrong')).toBe('The login password is not correct');
    await i18n.changeLanguage('TY');
    await i18n.loadNamespaces('wallet');
    expect(i18n.getFixedT('TY')('wallet:login_password_wrong')).toBe('Mali ang password sa pag-login');
    await i18n.changeLanguage('EN');
  });
  it('other failures stay a form message', () => {
    const failed = withdrawPasswordSetError(new ApiError('PASSWORD_MISMATCH', 'x', 400));
    expect(failed.fields).toEqual({});
    expect(failed.form).not.toBeNull();
  });
});

describe("the form's 'withdrawal requested' notice", () => {
  const done = { id: '7', amount: 300_00 };
  it('goes once that withdrawal is decided (rejected, approved, paid), so it no longer promises a payment', () => {
    expect(requestedNoticeAfter(done, { withdrawalId: '7', status: 'rejected' })).toBeNull();
    expect(requestedNoticeAfter(done, { withdrawalId: '7', status: 'approved' })).toBeNull();
    expect(requestedNoticeAfter(done, { withdrawalId: '7', status: 'paid' })).toBeNull();
  });
  it('stays for a change of another withdrawal or while it is still requested', () => {
    expect(requestedNoticeAfter(done, { withdrawalId: '6', status: 'rejected' })).toBe(done);
    expect(requestedNoticeAfter(done, { withdrawalId: '7', status: 'requested' })).toBe(done);
    expect(requestedNoticeAfter(null, { withdrawalId: '7', status: 'rejected' })).toBeNull();
  });
});
