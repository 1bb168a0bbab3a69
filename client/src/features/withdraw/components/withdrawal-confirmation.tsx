import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { useQueryClient } from '@tanstack/react-query';
import type { TWithdrawal } from '@portal/contracts/api/cashier';
import { PROOF_LIMITS } from '@portal/contracts/api/cashier';
import { parseAmountMinor } from '../../../lib/money-input';
import { useCurrency, useMoney } from '../../../lib/use-money';
import { useRealtimeEvent } from '../../../realtime/realtime-context';
import { confirmWithdrawal } from '../api/confirm-withdrawal';
import { getWithdrawal } from '../api/get-withdrawal';
import { WITHDRAWALS_KEY } from '../api/get-withdrawals';
import { canSubmit, remainingOf, withdrawalConfirmationMachine } from '../machines/withdrawal-confirmation.machine';
import type { ConfirmResult, ProofImage } from '../machines/withdrawal-confirmation.machine';
import { sniffImageType } from '../../../lib/image-sniff';

const RESULTS: ConfirmResult[] = ['received', 'partially_received', 'not_received'];

export function formatCountdown(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const p = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${p(m)}:${p(s)}` : `${p(m)}:${p(s)}`;
}

/** Object URLs for the chosen images' previews, revoked when they go away. */
function usePreviews(proofs: readonly ProofImage[]) {
  const cache = useRef(new Map<string, string>());
  const urls = useMemo(() => {
    const out = new Map<string, string>();
    for (const p of proofs) {
      const url = cache.current.get(p.id) ?? (p.blob ? URL.createObjectURL(p.blob) : '');
      out.set(p.id, url);
    }
    for (const [id, url] of cache.current) if (!out.has(id) && url) URL.revokeObjectURL(url);
    cache.current = out;
    return out;
  }, [proofs]);
  useEffect(() => () => {
    for (const url of cache.current.values()) if (url) URL.revokeObjectURL(url);
  }, []);
  return urls;
}

/**
 * The paid withdrawal's prompt: the live auto-receive countdown and the three answers, driven by
 * the withdrawal confirmation machine; `withdrawal.updated` events for this withdrawal go into it.
 */
export function WithdrawalConfirmation({ withdrawal }: { withdrawal: TWithdrawal }) {
  const { t } = useTranslation('wallet');
  const money = useMoney();
  const { exponent } = useCurrency();
  const qc = useQueryClient();
  const [amountText, setAmountText] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);
  const [state, send] = useMachine(
    withdrawalConfirmationMachine.provide({
      actors: {
        confirm: fromPromise(({ input, signal }) => confirmWithdrawal(input, signal)),
        loadReason: fromPromise(async ({ input, signal }) => (await getWithdrawal(input.withdrawalId, signal)).reason),
      },
    }),
    { input: { withdrawal, now: Date.now() } },
  );
  const c = state.context;

  useRealtimeEvent('withdrawal.updated', (env) => {
    if (env.payload.withdrawalId === withdrawal.id) send({ type: 'withdrawal.updated', payload: env.payload, now: Date.now() });
  });
  // Timers are throttled in background tabs: resync the countdown when the page is seen again.
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') send({ type: 'SYNC', now: Date.now() });
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [send]);
  const isDone = state.status === 'done';
  useEffect(() => {
    if (isDone) void qc.invalidateQueries({ queryKey: WITHDRAWALS_KEY });
  }, [isDone, qc]);
  const previews = usePreviews(c.proofs);

  const isSubmitting = state.matches({ confirming: { form: 'submitting' } });
  const isConfirming = state.matches('confirming');

  if (isDone) {
    const remaining = remainingOf(c);
    return (
      <div className="cx-banner" role="status" data-testid={`withdrawal-confirm-done-${withdrawal.id}`} data-result={c.status}>
        <p className="cx-banner__title">{t(`confirm_done_${c.status}`, { amount: money(c.amount) })}</p>
        {c.status === 'partially_received' && remaining !== null && (
          <p className="cx-muted" data-testid="withdrawal-remaining">
            {t('confirm_remaining', { received: money(c.receivedAmount ?? 0), remaining: money(remaining) })}
          </p>
        )}
        {c.status === 'auto_received' && <p className="cx-muted">{t('confirm_auto_final')}</p>}
      </div>
    );
  }
  if (state.matches('rejected')) {
    return (
      <div className="cx-banner" role="status" data-testid={`withdrawal-rejected-${withdrawal.id}`}>
        <p className="cx-banner__title">{t('withdrawal_rejected', { amount: money(c.amount) })}</p>
        <p className="cx-muted">{c.reason ? t('reject_reason', { reason: c.reason }) : t('reject_no_reason')}</p>
      </div>
    );
  }
  if (state.matches('waiting')) return null;

  const submit = () => send({ type: 'SUBMIT' });
  const partial = parseAmountMinor(amountText, exponent);
  const partialInvalid = c.result === 'partially_received' && amountText !== '' && !(partial !== null && partial > 0 && partial < c.amount);
  const needsProof = c.result === 'not_received' || c.result === 'partially_received';

  return (
    <div className="cx-banner" data-testid={`withdrawal-confirm-${withdrawal.id}`}>
      <p className="cx-banner__title">{t('confirm_title', { amount: money(c.amount), bank: `${withdrawal.bankName} ${withdrawal.accountNumber}` })}</p>
      <p className="cx-muted">
        {c.secondsLeft > 0 ? (
          <>
            {t('confirm_auto_in')}{' '}
            <span className="cx-countdown" data-testid="withdrawal-countdown">{formatCountdown(c.secondsLeft)}</span>
          </>
        ) : (
          <span data-testid="withdrawal-countdown">{t('confirm_auto_now')}</span>
        )}
      </p>
      <div className="cx-chips" role="radiogroup" aria-label={t('confirm_choose')}>
        {RESULTS.map((r) => (
          <button
            key={r}
            type="button"
            className="cx-chip"
            role="radio"
            aria-checked={c.result === r}
            aria-pressed={c.result === r}
            disabled={isSubmitting}
            onClick={() => send({ type: 'CHOOSE', result: r })}
            data-testid={`confirm-choose-${r}`}
          >
            {t(`confirm_${r}`)}
          </button>
        ))}
      </div>
      {isConfirming && (
        <div className="cx-form">
          {c.result === 'partially_received' && (
            <div className={`form-field${partialInvalid ? ' has-error' : ''}`}>
              <label className="form-field__label" htmlFor={`partial-${withdrawal.id}`}>
                {t('confirm_received_amount')}
              </label>
              <input
                id={`partial-${withdrawal.id}`}
                className="form-field__input"
                inputMode="decimal"
                value={amountText}
                onChange={(e) => {
                  setAmountText(e.target.value);
                  send({ type: 'SET_AMOUNT', amount: parseAmountMinor(e.target.value, exponent) });
                }}
                data-testid="confirm-received-amount"
              />
              {partialInvalid ? (
                <p className="form-field__error" role="alert">{t('confirm_amount_range', { max: money(c.amount) })}</p>
              ) : (
                <p className="form-field__hint">{t('confirm_amount_range', { max: money(c.amount) })}</p>
              )}
            </div>
          )}
          {needsProof && (
            <div className="form-field">
              <span className="form-field__label">{t('confirm_proof', { count: PROOF_LIMITS.maxFiles })}</span>
              <div className="cx-proofs" data-testid="confirm-proofs">
                {c.proofs.map((p) => (
                  <div className="cx-proof" key={p.id} data-testid="confirm-proof">
                    {previews.get(p.id) ? <img src={previews.get(p.id)} alt={p.name} /> : null}
                    <button type="button" aria-label={t('remove')} onClick={() => send({ type: 'REMOVE_PROOF', id: p.id })} data-testid="confirm-proof-remove">
                      ×
                    </button>
                  </div>
                ))}
                {c.proofs.length < PROOF_LIMITS.maxFiles && (
                  <button type="button" className="cx-proof btn btn--ghost" onClick={() => fileInput.current?.click()} data-testid="confirm-proof-add">
                    +
                  </button>
                )}
              </div>
              <input
                ref={fileInput}
                type="file"
                accept="image/png,image/jpeg"
                multiple
                hidden
                onChange={(e) => {
                  const files = [...(e.target.files ?? [])];
                  e.target.value = '';
                  // Typed by content, not by name: a file that is not really png or jpg is refused here
                  // (proof_type), before it shows as a broken thumbnail and fails at submit.
                  void Promise.all(files.map(async (f) => ({ id: crypto.randomUUID(), name: f.name, size: f.size, type: (await sniffImageType(f)) ?? 'application/octet-stream', blob: f })))
                    .then((proofs) => send({ type: 'ADD_PROOFS', proofs }));
                }}
                data-testid="confirm-proof-input"
              />
              {c.fileError ? <p className="form-field__error" role="alert">{t(c.fileError)}</p> : <p className="form-field__hint">{t('proof_rules')}</p>}
            </div>
          )}
          {c.error && (
            <p className="form-message form-message--error" role="alert">
              {t(`common:error_${c.error}`, { defaultValue: t('common:error_INTERNAL') })}
            </p>
          )}
          <div className="mc-actions">
            <button type="button" className="btn btn--primary" disabled={isSubmitting || !canSubmit(c)} onClick={submit} data-testid="confirm-submit">
              {isSubmitting ? t('submitting') : t('confirm_submit')}
            </button>
            <button type="button" className="btn btn--ghost" disabled={isSubmitting} onClick={() => send({ type: 'CANCEL' })} data-testid="confirm-cancel">
              {t('cancel')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
