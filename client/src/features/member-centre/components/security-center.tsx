import { useMachine } from '@xstate/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { fromPromise } from 'xstate';
import { useTranslation } from 'react-i18next';
import { MEMBER_ICONS, memberIconUrl, type TMemberInfo } from '@portal/contracts/api/auth';
import { errorMessage } from '../../../lib/field-message';
import { openPopup } from '../../../lib/popups';
import { useRgExclusion } from '../../../lib/rg-exclusion';
import { FormField, FormMessage } from '../../../ui/form-field';
import { setMemberIcon } from '../api/member-icon';
import { enableTotp, setupTotp } from '../api/totp';
import { totpEnrolmentMachine } from '../machines/totp-enrolment-machine';
import { TransactionPasswordCard } from './transaction-password-card';
import { EmailForm, MobileForm } from './contact-forms';

/** securityCenter: account facts (the mobile number and e-mail added or changed here), change password (changePassModal), the transaction password and authenticator enrolment. */
export function SecurityCenter({ info }: { info: TMemberInfo }) {
  const { t } = useTranslation('register');
  // The mobile number or e-mail being added or changed (one form at a time).
  const [editing, setEditing] = useState<'mobile' | 'email' | null>(null);
  // A restricted session (an exclusion in force) may change its passwords and authenticator, not its
  // contact details or picture: the server refuses those (RG_EXCLUDED), so no button that fails.
  const isExcluded = useRgExclusion() !== null;
  return (
    <div className="mc-stack" data-security-center>
      <h1 className="mc-title">{t('mc_securityCenter')}</h1>
      <ProfilePicture info={info} canChange={!isExcluded} />
      <dl className="mc-card mc-facts">
        <div>
          <dt>{t('sec_account')}</dt>
          <dd>{info.account}</dd>
        </div>
        {(['mobile', 'email'] as const).map((kind) => {
          const now = kind === 'mobile' ? info.mobileNum : info.email;
          return (
            <div key={kind}>
              <dt>{t(`sec_${kind}`)}</dt>
              <dd>
                <span data-testid={`sec-${kind}`}>{now ?? t('sec_not_set')}</span>
                {!info.isTrial && !isExcluded && editing !== kind && (
                  <button type="button" className="link-btn mc-facts__edit" onClick={() => setEditing(kind)} data-testid={`sec-${kind}-edit`}>
                    {now ? t('sec_change') : t('sec_add')}
                  </button>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
      {isExcluded && <p className="form-notice" data-testid="sec-excluded">{t('sec_excluded')}</p>}
      {editing === 'mobile' && <MobileForm onDone={() => setEditing(null)} />}
      {editing === 'email' && <EmailForm onDone={() => setEditing(null)} />}
      <div className="mc-card mc-row">
        <div>
          <h2 className="mc-subtitle">{t('sec_password')}</h2>
          <p className="form-notice">{t('sec_password_text')}</p>
        </div>
        <button type="button" className="btn btn--outline" onClick={() => openPopup('changePassModal')} data-change-password>
          {t('sec_change')}
        </button>
      </div>
      <TransactionPasswordCard />
      <TotpCard enabled={info.totpEnabled} />
    </div>
  );
}

/** The member's picture (memberInfo.imgUrl) and the twelve to pick from; a pick is saved at once. */
function ProfilePicture({ info, canChange }: { info: TMemberInfo; canChange: boolean }) {
  const { t } = useTranslation('register');
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const save = useMutation({
    mutationFn: setMemberIcon,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['member', 'info'] }),
  });
  return (
    <div className="mc-card mc-avatar" data-testid="profile-picture">
      <div className="mc-row">
        <div className="mc-avatar__now">
          {info.imgUrl ? (
            <img className="mc-avatar__img" src={info.imgUrl} alt={t('avatar_title')} width={64} height={64} data-testid="profile-picture-img" />
          ) : (
            <span className="mc-avatar__img mc-avatar__img--none" aria-hidden="true">{(info.nickname ?? info.account).slice(0, 1).toUpperCase()}</span>
          )}
          <div>
            <h2 className="mc-subtitle">{t('avatar_title')}</h2>
            <p className="form-notice">{t('avatar_text')}</p>
          </div>
        </div>
        {canChange && (
          <button type="button" className="btn btn--outline" aria-expanded={open} onClick={() => setOpen((o) => !o)} data-testid="profile-picture-change">
            {open ? t('avatar_close') : t('sec_change')}
          </button>
        )}
      </div>
      {open && canChange && (
        <div className="mc-avatar__grid" role="radiogroup" aria-label={t('avatar_pick')}>
          {MEMBER_ICONS.map((icon, i) => {
            const url = memberIconUrl(icon);
            return (
              <button
                key={icon} type="button" role="radio" aria-checked={info.imgUrl === url} aria-label={t('avatar_option', { n: i + 1 })}
                className="mc-avatar__option" disabled={save.isPending} onClick={() => save.mutate(icon)} data-testid={`profile-picture-${icon}`}
              >
                <img src={url} alt="" width={56} height={56} loading="lazy" />
              </button>
            );
          })}
        </div>
      )}
      {save.isSuccess && !save.isPending && <p className="form-message form-message--success" role="status">{t('avatar_saved')}</p>}
      {save.error && <FormMessage message={errorMessage(save.error)} />}
    </div>
  );
}

function TotpCard({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation('register');
  const queryClient = useQueryClient();
  const [state, send] = useMachine(
    totpEnrolmentMachine.provide({
      actors: {
        setupTotp: fromPromise(() => setupTotp()),
        enableTotp: fromPromise(({ input }) => enableTotp(input.code)),
      },
      actions: { enrolled: () => void queryClient.invalidateQueries({ queryKey: ['member', 'info'] }) },
    }),
  );
  const isOn = enabled || state.matches('enabled');
  const { setup, code, error } = state.context;
  return (
    <div className="mc-card mc-totp" data-totp={isOn ? 'on' : String(state.value)}>
      <div className="mc-row">
        <div>
          <h2 className="mc-subtitle">
            {t('totp_title')} <span className={`mc-badge${isOn ? ' mc-badge--on' : ''}`}>{isOn ? t('totp_on') : t('totp_off')}</span>
          </h2>
          <p className="form-notice">{t('totp_text')}</p>
        </div>
        {!isOn && (state.matches('idle') || state.matches('settingUp')) && (
          <button type="button" className="btn btn--primary" disabled={state.matches('settingUp')} onClick={() => send({ type: 'START' })}>
            {state.matches('settingUp') ? t('please_wait') : t('totp_start')}
          </button>
        )}
      </div>
      {state.matches('enabled') && (
        <p className="form-message form-message--success" role="status">
          {t('totp_done')}
        </p>
      )}
      {!isOn && setup && (state.matches('awaitingCode') || state.matches('enabling')) && (
        <form
          className="mc-totp__setup"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            send({ type: 'SUBMIT' });
          }}
        >
          <img className="mc-totp__qr" src={setup.qr} alt={t('totp_qr_alt')} width={180} height={180} />
          <div className="form">
            <p className="form-notice">{t('totp_scan')}</p>
            <div className="mc-totp__key">
              <span>{t('totp_key')}</span>
              <code data-totp-secret>{setup.secret}</code>
            </div>
            <FormField
              name="totpCode"
              label={t('totp_code')}
              required
              inputMode="numeric"
              maxLength={6}
              autoComplete="one-time-code"
              value={code}
              onChange={(value) => send({ type: 'CODE.CHANGE', value })}
              error={error ?? undefined}
            />
            <div className="mc-actions">
              <button type="submit" className="btn btn--primary" disabled={state.matches('enabling')}>
                {state.matches('enabling') ? t('please_wait') : t('totp_enable')}
              </button>
              <button type="button" className="btn btn--ghost" onClick={() => send({ type: 'CANCEL' })} disabled={state.matches('enabling')}>
                {t('totp_cancel')}
              </button>
            </div>
          </div>
        </form>
      )}
      {state.matches('idle') && <FormMessage message={error} />}
    </div>
  );
}
