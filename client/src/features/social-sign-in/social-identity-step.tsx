import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorCode } from '@portal/contracts/api/errors';
import { ageOn, identityNameProblem, merchantClock, type FieldRule } from '@portal/contracts/domain/registration';
import { isApiError } from '../../lib/api';
import { problemMessage, serverDetailMessage, type FieldMessage } from '../../lib/field-message';
import { closePopup } from '../../lib/popups';
import { ruleOf, useRegisterSettings } from '../../lib/register-settings';
import { setSessionToken } from '../../lib/session';
import { useBrandOffset, useWhitelabel } from '../../lib/whitelabel';
import { FormField } from '../../ui/form-field';
import { Modal } from '../../ui/modal';
import { completeOidcIdentity } from './api/complete-oidc-identity';
import { asErrorCode, endOidcIdentity } from './use-oidc-handoff';
import './social-sign-in.css';

export type IdentityDraft = { payeeName: string; birthday: string; ageConfirmed: boolean };
export type IdentityField = 'payeeName' | 'birthday' | 'ageConfirmed';

/**
 * What the identity step refuses before sending, as translatable messages: the full name against
 * the merchant's payeeName rule with the server's own check (identityNameProblem, contracts), no real
 * birth date, an age under the market's minimum on the merchant's calendar (`today`), the age box
 * not ticked. The server checks the same and the restricted-persons list.
 */
export function identityProblems(d: IdentityDraft, nameRule: FieldRule, minAge: number, today: Date): Partial<Record<IdentityField, FieldMessage>> {
  const out: Partial<Record<IdentityField, FieldMessage>> = {};
  const name = identityNameProblem(nameRule, d.payeeName.trim());
  if (name) out.payeeName = name.kind === 'required' ? { key: 'social:identity_name_required' } : problemMessage(name);
  const age = /^\d{4}-\d{2}-\d{2}$/.test(d.birthday) && !Number.isNaN(Date.parse(`${d.birthday}T00:00:00Z`)) ? ageOn(d.birthday, today) : null;
  if (age === null || age > 130) out.birthday = { key: 'social:identity_birthday_required' };
  else if (age < minAge) out.birthday = { key: 'social:identity_underage', values: { age: minAge } };
  if (!d.ageConfirmed) out.ageConfirmed = { key: 'social:identity_age_confirm', values: { age: minAge } };
  return out;
}

/** Answers that use the code up: the person must sign in with the provider again. */
const ENDS_THE_STEP = new Set<string>([ErrorCode.UNDERAGE, ErrorCode.RESTRICTED_PERSON, ErrorCode.OIDC_FAILED, ErrorCode.ACCOUNT_DISABLED, ErrorCode.NON_MEMBER]);

/**
 * The login popup while a social sign-in waits for its identity step: only the step, no login form;
 * "Back to login" (or closing) drops the step and the ordinary login form comes back.
 */
export function SocialIdentityPopup({ code }: { code: string }) {
  const { t } = useTranslation('social');
  const close = () => {
    endOidcIdentity();
    closePopup();
  };
  return (
    <Modal name="loginPopupModal" open onClose={close} title={t('identity_title')} width={420} height={320} className="auth-modal">
      <SocialIdentityStep code={code} />
    </Modal>
  );
}

/**
 * The identity step of a social sign-in in a market that screens players (the Philippines): the
 * provider gives no full name or birth date, so the account becomes usable only after they are given
 * and checked like a registration (the name rule, minimum age, restricted-persons list).
 */
export function SocialIdentityStep({ code }: { code: string }) {
  const { t } = useTranslation('social');
  const today = merchantClock(useBrandOffset());
  const minAge = useWhitelabel().data?.brand.minAge ?? 18;
  const settings = useRegisterSettings();
  const nameRule = ruleOf(settings.data, 'payeeName');
  const [draft, setDraft] = useState<IdentityDraft>({ payeeName: '', birthday: '', ageConfirmed: false });
  const [isTried, setTried] = useState(false);
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorCode | null>(null);
  const [serverName, setServerName] = useState<FieldMessage | undefined>(undefined);
  const problems = identityProblems(draft, nameRule, minAge, today);
  const shown = isTried ? problems : {};
  const submit = () => {
    setTried(true);
    if (Object.keys(problems).length || isBusy) return;
    setBusy(true);
    setError(null);
    setServerName(undefined);
    completeOidcIdentity({ code, payeeName: draft.payeeName.trim(), birthday: draft.birthday, ageConfirmed: true })
      .then((login) => {
        endOidcIdentity();
        setSessionToken(login.token);
        closePopup();
      })
      .catch((err: unknown) => {
        const c = asErrorCode(isApiError(err) ? err.code : null);
        if (ENDS_THE_STEP.has(c)) {
          endOidcIdentity(c);
          return;
        }
        const detail = isApiError(err) ? err.details.find((x) => x.path === 'payeeName') : undefined;
        if (detail) setServerName(serverDetailMessage(detail.message));
        setError(isApiError(err) && err.code === ErrorCode.VALIDATION ? ErrorCode.VALIDATION : c);
      })
      .finally(() => setBusy(false));
  };
  return (
    <form
      className="social-identity"
      aria-labelledby="social-identity-title"
      data-testid="social-identity-step"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <p className="social-identity__intro" id="social-identity-title">{t('identity_intro')}</p>
      <FormField name="payeeName" label={t('identity_full_name')} value={draft.payeeName} onChange={(v) => { setServerName(undefined); setDraft((d) => ({ ...d, payeeName: v })); }}
        required autoComplete="name" maxLength={Math.min(100, nameRule.maxLength || 100)} error={shown.payeeName ?? serverName} />
      <FormField name="birthday" type="date" label={t('identity_birthday')} value={draft.birthday} onChange={(v) => setDraft((d) => ({ ...d, birthday: v }))}
        required autoComplete="bday" error={shown.birthday} />
      <label className="form-check">
        <input type="checkbox" name="ageConfirmed" checked={draft.ageConfirmed} onChange={(e) => setDraft((d) => ({ ...d, ageConfirmed: e.target.checked }))} />
        <span>{t('identity_age_label', { age: minAge })}</span>
      </label>
      {shown.ageConfirmed && <p className="form-field__error" role="alert">{t(shown.ageConfirmed.key, shown.ageConfirmed.values)}</p>}
      {error && <p className="notice-box" role="alert" data-testid="social-identity-error">{t(`common:error_${error}`)}</p>}
      <button type="submit" className="btn btn--primary btn--block" disabled={isBusy} data-testid="social-identity-submit">
        {t('identity_submit')}
      </button>
      <button type="button" className="link-btn" onClick={() => endOidcIdentity()} data-testid="social-identity-cancel">{t('identity_back')}</button>
    </form>
  );
}
