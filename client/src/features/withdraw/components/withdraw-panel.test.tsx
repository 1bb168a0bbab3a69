import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api';
import { i18n } from '../../../i18n/i18n';
import { withdrawPasswordSetError } from './withdraw-panel';

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
