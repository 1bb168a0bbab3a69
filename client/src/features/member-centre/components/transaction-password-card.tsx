import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ErrorCode } from '@portal/contracts/api/errors';
import { isApiError } from '../../../lib/api';
import { errorMessage, MSG, serverDetailMessage, type FieldErrors, type FieldMessage } from '../../../lib/field-message';
import { TRANSACTION_PASSWORD_KEY, TRANSACTION_PASSWORD_OPEN, useSetTransactionPassword, useTransactionPasswordStatus } from '../../../lib/transaction-password';
import { FormField, FormMessage } from '../../../ui/form-field';
import { Modal } from '../../../ui/modal';

/** Set: the first one, proven with the login password. Change: proven with the current one. */
export type TxPasswordMode = 'set' | 'change';
export type TxPasswordValues = { proof: string; newWithdrawPassword: string; confirmNewWithdrawPassword: string };
/** The field that proves it is the player: the login password (set) or the current transaction password (change). */
export const proofField = (mode: TxPasswordMode) => (mode === 'set' ? 'loginPassword' : 'oldWithdrawPassword');

/** The server's rule (ZWithdrawPasswordBody): 6 to 64 characters, confirmation equal; the proof is required. */
export function validateTransactionPassword(mode: TxPasswordMode, v: TxPasswordValues): FieldErrors {
  const errors: FieldErrors = {};
  if (!v.proof) errors[proofField(mode)] = MSG.empty;
  if (v.newWithdrawPassword.length < 6 || v.newWithdrawPassword.length > 64) errors.newWithdrawPassword = { key: 'register:txpw_rule' };
  // Set with the login password as proof: the new one may not be that password (the server checks it too).
  else if (mode === 'set' && v.proof && v.newWithdrawPassword === v.proof) errors.newWithdrawPassword = MSG.passwordsMustDiffer;
  if (!v.confirmNewWithdrawPassword) errors.confirmNewWithdrawPassword = MSG.empty;
  else if (v.confirmNewWithdrawPassword !== v.newWithdrawPassword) errors.confirmNewWithdrawPassword = MSG.confirmMismatch;
  return errors;
}

/**
 * A refused set or change, on the field it is about. A wrong login password comes back as the generic
 * OLD_PASSWORD_WRONG ("old password"): here the field is the login password, so it says that.
 */
export function transactionPasswordErrors(mode: TxPasswordMode, err: unknown): { fields: FieldErrors; form: FieldMessage | null } {
  if (isApiError(err)) {
    if (err.details.length) {
      const fields: FieldErrors = {};
      for (const d of err.details) fields[d.path] ??= serverDetailMessage(d.message);
      return { fields, form: null };
    }
    if (mode === 'set' && err.code === ErrorCode.OLD_PASSWORD_WRONG) return { fields: { loginPassword: { key: 'register:txpw_login_wrong' } }, form: null };
    if (mode === 'change' && err.code === ErrorCode.WITHDRAW_PASSWORD_WRONG) return { fields: { oldWithdrawPassword: errorMessage(err) }, form: null };
    if (err.code === ErrorCode.PASSWORD_MISMATCH) return { fields: { confirmNewWithdrawPassword: MSG.confirmMismatch }, form: null };
  }
  return { fields: {}, form: errorMessage(err) };
}

/**
 * The security centre's transaction password: whether it is set, and a dialog to set it (login
 * password) or change it (current one). `?open=transactionPassword` (the link of the forms that ask
 * for it) opens the dialog.
 */
export function TransactionPasswordCard() {
  const { t } = useTranslation('register');
  const status = useTransactionPasswordStatus();
  const [search, setSearch] = useSearchParams();
  const cardRef = useRef<HTMLDivElement>(null);
  // The mode is fixed when the dialog opens: the status refetched after a set must not turn the form.
  const [dialog, setDialog] = useState<TxPasswordMode | null>(null);
  const [done, setDone] = useState<TxPasswordMode | null>(null);
  const isSet = status.data?.isSet;
  const open = (mode: TxPasswordMode) => {
    setDone(null);
    setDialog(mode);
  };
  const wantsOpen = search.get('open') === TRANSACTION_PASSWORD_OPEN;
  useEffect(() => {
    if (!wantsOpen || isSet === undefined) return;
    cardRef.current?.scrollIntoView({ block: 'center' });
    open(isSet ? 'change' : 'set');
    setSearch((s) => {
      const next = new URLSearchParams(s);
      next.delete('open');
      return next;
    }, { replace: true });
  }, [wantsOpen, isSet, setSearch]);
  return (
    <div className="mc-card" ref={cardRef} data-testid="txpw-card" data-txpw={isSet === undefined ? 'unknown' : isSet ? 'set' : 'not-set'}>
      <div className="mc-row">
        <div>
          <h2 className="mc-subtitle">
            {t('txpw_title')}
            {isSet !== undefined && <span className={`mc-badge${isSet ? ' mc-badge--on' : ''}`} data-testid="txpw-status">{isSet ? t('txpw_on') : t('txpw_off')}</span>}
          </h2>
          <p className="form-notice">{t('txpw_text')}</p>
        </div>
        <button
          type="button" className={isSet === false ? 'btn btn--primary' : 'btn btn--outline'} disabled={isSet === undefined}
          onClick={() => open(isSet ? 'change' : 'set')} data-testid="txpw-open"
        >
          {isSet === false ? t('txpw_set') : t('sec_change')}
        </button>
      </div>
      {done && <p className="form-message form-message--success" role="status" data-testid="txpw-done">{done === 'set' ? t('txpw_set_done') : t('txpw_change_done')}</p>}
      {status.error && <FormMessage message={errorMessage(status.error)} />}
      {dialog && (
        <Modal name="transactionPasswordModal" open onClose={() => setDialog(null)} title={dialog === 'set' ? t('txpw_set_title') : t('txpw_change_title')} width={420} height={300}>
          <TransactionPasswordForm
            mode={dialog}
            onCancel={() => setDialog(null)}
            onDone={() => {
              setDone(dialog);
              setDialog(null);
            }}
          />
        </Modal>
      )}
    </div>
  );
}

function TransactionPasswordForm({ mode, onCancel, onDone }: { mode: TxPasswordMode; onCancel: () => void; onDone: () => void }) {
  const { t } = useTranslation('register');
  const qc = useQueryClient();
  const save = useSetTransactionPassword();
  const [v, setV] = useState<TxPasswordValues>({ proof: '', newWithdrawPassword: '', confirmNewWithdrawPassword: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<FieldMessage | null>(null);
  const proof = proofField(mode);
  const change = (key: keyof TxPasswordValues, name: string) => (value: string) => {
    setV((o) => ({ ...o, [key]: value }));
    setErrors((e) => ({ ...e, [name]: undefined }));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = validateTransactionPassword(mode, v);
    setErrors(next);
    setFormError(null);
    if (Object.keys(next).length > 0) return;
    const newOnes = { newWithdrawPassword: v.newWithdrawPassword, confirmNewWithdrawPassword: v.confirmNewWithdrawPassword };
    const body = mode === 'set' ? { loginPassword: v.proof, ...newOnes } : { oldWithdrawPassword: v.proof, ...newOnes };
    save.mutate(body, {
      onSuccess: onDone,
      onError: (err) => {
        const failed = transactionPasswordErrors(mode, err);
        setErrors(failed.fields);
        setFormError(failed.form);
        // Set or changed meanwhile elsewhere (another tab): the card shows the status as it is now.
        void qc.invalidateQueries({ queryKey: TRANSACTION_PASSWORD_KEY });
      },
    });
  };
  const isBusy = save.isPending;
  return (
    <form className="form" noValidate onSubmit={submit} data-testid="txpw-form" data-mode={mode}>
      {mode === 'set' && <p className="form-notice">{t('txpw_set_hint')}</p>}
      <FormField
        name={proof} label={mode === 'set' ? t('txpw_login_password') : t('txpw_old')} type="password" required maxLength={128}
        autoComplete={mode === 'set' ? 'current-password' : 'off'} value={v.proof} onChange={change('proof', proof)} error={errors[proof]}
      />
      <FormField
        name="newWithdrawPassword" label={t('txpw_new')} type="password" required maxLength={64} autoComplete="new-password" hint={t('txpw_rule')}
        value={v.newWithdrawPassword} onChange={change('newWithdrawPassword', 'newWithdrawPassword')} error={errors.newWithdrawPassword}
      />
      <FormField
        name="confirmNewWithdrawPassword" label={t('txpw_confirm')} type="password" required maxLength={64} autoComplete="new-password"
        value={v.confirmNewWithdrawPassword} onChange={change('confirmNewWithdrawPassword', 'confirmNewWithdrawPassword')} error={errors.confirmNewWithdrawPassword}
      />
      <FormMessage message={formError} />
      <div className="mc-actions">
        <button type="submit" className="btn btn--primary" disabled={isBusy} aria-busy={isBusy} data-testid="txpw-submit">
          {isBusy ? t('please_wait') : mode === 'set' ? t('txpw_set') : t('sec_change')}
        </button>
        <button type="button" className="btn btn--ghost" onClick={onCancel} disabled={isBusy}>
          {t('txpw_cancel')}
        </button>
      </div>
    </form>
  );
}
