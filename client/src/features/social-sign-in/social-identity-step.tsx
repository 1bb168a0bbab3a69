import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorCode } from '@portal/contracts/api/errors';
import { ageOn, merchantClock } from '@portal/contracts/domain/registration';
import { isApiError } from '../../lib/api';
import { closePopup } from '../../lib/popups';
import { setSessionToken } from '../../lib/session';
import { useBrandOffset } from '../../lib/whitelabel';
import { FormField } from '../../ui/form-field';
import { completeOidcIdentity } from './api/complete-oidc-identity';
import { asErrorCode, endOidcIdentity } from './use-oidc-handoff';

export type IdentityDraft = { payeeName: string; birthday: string; ageConfirmed: boolean };
export type IdentityProblem = 'name_required' | 'birthday_required' | 'underage' | 'age_confirm';

/**
 * What the identity step refuses before sending (the server checks the same and more: the name rule,
 * the restricted-persons list): an empty name, no real birth date, an age under the market's
 * minimum on the merchant's calendar (`today`), the age box not ticked.
 */
export function identityProblems(d: IdentityDraft, minAge: number, today: Date): Partial<Record<'payeeName' | 'birthday' | 'ageConfirmed', IdentityProblem>> {
  const out: Partial<Record<'payeeName' | 'birthday' | 'ageConfirmed', IdentityProblem>> = {};
  if (!/\p{L}/u.test(d.payeeName)) out.payeeName = 'name_required';
  const age = /^\d{4}-\d{2}-\d{2}$/.test(d.birthday) && !Number.isNaN(Date.parse(`${d.birthday}T00:00:00Z`)) ? ageOn(d.birthday, today) : null;
  if (age === null || age > 130) out.birthday = 'birthday_required';
  else if (age < minAge) out.birthday = 'underage';
  if (!d.ageConfirmed) out.ageConfirmed = 'age_confirm';
  return out;
}

/** Answers that use the code up: the person must sign in with the provider again. */
const ENDS_THE_STEP = new Set<string>([ErrorCode.UNDERAGE, ErrorCode.RESTRICTED_PERSON, ErrorCode.OIDC_FAILED, ErrorCode.ACCOUNT_DISABLED, ErrorCode.NON_MEMBER]);

/**
 * The identity step of a social sign-in in a market that screens players (the Philippines): the
 * provider gives no full name or birth date, so the account becomes usable only after they are given
 * and checked like a registration (minimum age, restricted-persons list).
 */
export function SocialIdentityStep({ code, minAge }: { code: string; minAge: number }) {
  const { t } = useTranslation('social');
  const today = merchantClock(useBrandOffset());
  const [draft, setDraft] = useState<IdentityDraft>({ payeeName: '', birthday: '', ageConfirmed: false });
  const [isTried, setTried] = useState(false);
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorCode | null>(null);
  const problems = identityProblems({ ...draft, payeeName: draft.payeeName.trim() }, minAge, today);
  const shown = isTried ? problems : {};
  const msg = (p: IdentityProblem | undefined) => (p ? { key: `social:identity_${p}`, values: { age: minAge } } : undefined);
  const submit = () => {
    setTried(true);
    if (Object.keys(problems).length || isBusy) return;
    setBusy(true);
    setError(null);
    completeOidcIdentity({ code, payeeName: draft.payeeName.trim(), birthday: draft.birthday, ageConfirmed: true })
      .then((login) => {
        endOidcIdentity();
        setSessionToken(login.token);
        closePopup();
      })
      .catch((err: unknown) => {
        const c = asErrorCode(isApiError(err) ? err.code : null);
        if (ENDS_THE_STEP.has(c)) endOidcIdentity(c);
        else setError(isApiError(err) && err.code === ErrorCode.VALIDATION ? ErrorCode.VALIDATION : c);
      })
      .finally(() => setBusy(false));
  };
  // Not a <form>: the step sits inside the login popup's form, and forms do not nest. Enter in a
  // field sends this step, not the login form.
  return (
    <div
      className="social-identity"
      role="group"
      aria-labelledby="social-identity-title"
      data-testid="social-identity-step"
      onKeyDown={(e) => {
        if (e.key === 'Enter' && e.target instanceof HTMLInputElement && e.target.type !== 'checkbox') {
          e.preventDefault();
          submit();
        }
      }}
    >
      <h3 className="social-identity__title" id="social-identity-title">{t('identity_title')}</h3>
      <p className="social-identity__intro">{t('identity_intro')}</p>
      <FormField name="payeeName" label={t('identity_full_name')} value={draft.payeeName} onChange={(v) => setDraft((d) => ({ ...d, payeeName: v }))}
        required autoComplete="name" maxLength={100} error={msg(shown.payeeName)} />
      <FormField name="birthday" type="date" label={t('identity_birthday')} value={draft.birthday} onChange={(v) => setDraft((d) => ({ ...d, birthday: v }))}
        required autoComplete="bday" error={msg(shown.birthday)} />
      <label className="form-check">
        <input type="checkbox" name="ageConfirmed" checked={draft.ageConfirmed} onChange={(e) => setDraft((d) => ({ ...d, ageConfirmed: e.target.checked }))} />
        <span>{t('identity_age_label', { age: minAge })}</span>
      </label>
      {shown.ageConfirmed && <p className="form-field__error" role="alert">{t('identity_age_confirm', { age: minAge })}</p>}
      {error && <p className="notice-box" role="alert" data-testid="social-identity-error">{t(`common:error_${error}`)}</p>}
      <button type="button" className="btn btn--primary btn--block" disabled={isBusy} onClick={submit} data-testid="social-identity-submit">
        {t('identity_submit')}
      </button>
      <button type="button" className="link-btn" onClick={() => endOidcIdentity()} data-testid="social-identity-cancel">{t('identity_cancel')}</button>
    </div>
  );
}
