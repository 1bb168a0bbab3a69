import { afterEach, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { i18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api';
import { MSG } from '../../../lib/field-message';
import { TRANSACTION_PASSWORD_HREF, TRANSACTION_PASSWORD_KEY } from '../../../lib/transaction-password';
import { renderStatic, textOf } from '../../../lib/testing/static-render';
import { TransactionPasswordLink } from '../../../ui/transaction-password-link';
import { TransactionPasswordCard, transactionPasswordErrors, validateTransactionPassword } from './transaction-password-card';

afterEach(async () => {
  await i18n.changeLanguage('EN');
});

const card = (lang: 'EN' | 'TY', isSet: boolean | undefined) => {
  const client = new QueryClient();
  if (isSet !== undefined) client.setQueryData(TRANSACTION_PASSWORD_KEY, { isSet });
  return renderStatic(lang, <TransactionPasswordCard />, { client, namespaces: ['register'] });
};

describe('the security centre item "Transaction password"', () => {
  it('says whether it is set and offers Set or Change, in EN and TY', async () => {
    const notSet = await card('EN', false);
    expect(notSet).toContain('data-txpw="not-set"');
    expect(textOf(notSet)).toContain('Transaction password');
    expect(textOf(notSet)).toContain('Not set');
    expect(notSet).toMatch(/data-testid="txpw-open"[^>]*>Set</);
    const set = await card('EN', true);
    expect(set).toContain('data-txpw="set"');
    expect(set).toMatch(/data-testid="txpw-status"[^>]*>Set</);
    expect(set).toMatch(/data-testid="txpw-open"[^>]*>Change</);
    const ty = await card('TY', true);
    expect(textOf(ty)).toContain('Password sa transaksyon');
    expect(ty).toMatch(/data-testid="txpw-status"[^>]*>Nakatakda</);
    expect(ty).toMatch(/data-testid="txpw-open"[^>]*>Palitan</);
    expect(textOf(await card('TY', false))).toContain('Hindi pa nakatakda');
  });

  it('offers nothing to press while the status loads', async () => {
    const loading = await card('EN', undefined);
    expect(loading).toContain('data-txpw="unknown"');
    expect(loading).toMatch(/<button[^>]*disabled=""[^>]*data-testid="txpw-open"/);
  });
});

describe('the set / change form', () => {
  const ok = { proof: 'secret', newWithdrawPassword: 'pay123456', confirmNewWithdrawPassword: 'pay123456' };
  it('asks the login password to set it and the current one to change it; new one 6 to 64 characters, confirmed', () => {
    expect(validateTransactionPassword('set', ok)).toEqual({});
    expect(validateTransactionPassword('set', { ...ok, proof: '' })).toEqual({ loginPassword: MSG.empty });
    expect(validateTransactionPassword('change', { ...ok, proof: '' })).toEqual({ oldWithdrawPassword: MSG.empty });
    expect(validateTransactionPassword('change', { ...ok, newWithdrawPassword: '12345', confirmNewWithdrawPassword: '12345' }).newWithdrawPassword).toEqual({ key: 'register:txpw_rule' });
    expect(validateTransactionPassword('change', { ...ok, newWithdrawPassword: 'x'.repeat(65), confirmNewWithdrawPassword: 'x'.repeat(65) }).newWithdrawPassword).toBeDefined();
    expect(validateTransactionPassword('change', { ...ok, confirmNewWithdrawPassword: 'pay1234567' })).toEqual({ confirmNewWithdrawPassword: MSG.confirmMismatch });
    // Set with the login password: the new one may not be that password.
    expect(validateTransactionPassword('set', { ...ok, proof: 'pay123456' })).toEqual({ newWithdrawPassword: MSG.passwordsMustDiffer });
  });

  it('puts a refused proof on its field, naming the right password', async () => {
    expect(transactionPasswordErrors('set', new ApiError('OLD_PASSWORD_WRONG', 'x', 400))).toEqual({ fields: { loginPassword: { key: 'register:txpw_login_wrong' } }, form: null });
    expect(transactionPasswordErrors('change', new ApiError('WITHDRAW_PASSWORD_WRONG', 'x', 400))).toEqual({ fields: { oldWithdrawPassword: { key: 'common:error_WITHDRAW_PASSWORD_WRONG' } }, form: null });
    expect(transactionPasswordErrors('change', new ApiError('PASSWORD_MISMATCH', 'x', 400)).fields).toEqual({ confirmNewWithdrawPassword: MSG.confirmMismatch });
    expect(transactionPasswordErrors('change', new ApiError('VALIDATION', 'x', 400, [{ path: 'newWithdrawPassword', message: 'Input cannot be empty' }])).fields).toEqual({ newWithdrawPassword: MSG.empty });
    // The lock after five misses stays a form message.
    expect(transactionPasswordErrors('change', new ApiError('TOO_MANY_REQUESTS', 'x', 429))).toEqual({ fields: {}, form: { key: 'common:error_TOO_MANY_REQUESTS' } });
    await i18n.loadNamespaces(['common', 'register']);
    expect(i18n.getFixedT('EN')('common:error_WITHDRAW_PASSWORD_WRONG')).toBe('The transaction password is not correct');
    expect(i18n.getFixedT('TY')('common:error_WITHDRAW_PASSWORD_WRONG')).toBe('Mali ang password sa transaksyon');
  });
});

describe('a form that asks for the transaction password', () => {
  it('sends the player to the security centre item: to set it when missing, to change it otherwise', async () => {
    expect(TRANSACTION_PASSWORD_HREF).toBe('/member?tab=securityCenter&open=transactionPassword');
    const href = `href="${TRANSACTION_PASSWORD_HREF.replace(/&/g, '&amp;')}"`;
    for (const lang of ['EN', 'TY'] as const) {
      const missing = await renderStatic(lang, <TransactionPasswordLink isSet={false} />);
      expect(missing).toContain('data-testid="txpw-not-set"');
      expect(missing).toContain(href);
      expect(textOf(missing)).toContain(lang === 'EN' ? 'Set it in the Security centre' : 'Itakda ito sa Sentro ng seguridad');
      const set = await renderStatic(lang, <TransactionPasswordLink isSet />);
      expect(set).toContain('data-testid="txpw-change-link"');
      expect(set).toContain(href);
    }
  });
});
