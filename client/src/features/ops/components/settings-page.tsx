import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TManualBank, TOpsSettings } from '@portal/contracts/api/ops';
import { decimalsContext, useAmount, useCurrency } from '../../../lib/use-money';
import { useOpsSettings } from '../api/get-settings';
import { useUpdateSettings } from '../api/update-settings';
import { toPesosInput } from '../lib/money-input';
import { BANK_FIELDS, MONEY_SETTINGS, parseBankForm, parseSettingsForm, type BankForm, type CashierLimits, type SettingsForm } from '../lib/settings-form';
import { useOpsCan } from './ops-gate';
import { ErrorNote, OpsField, PageHead, SuccessNote } from './ops-ui';

/** The saved limits as the form's text, in major units with the currency's decimals (`exponent`). */
const toForm = (s: TOpsSettings, exponent: number): SettingsForm => ({
  depositMin: toPesosInput(s.depositMin, exponent),
  depositMax: toPesosInput(s.depositMax, exponent),
  withdrawMin: toPesosInput(s.withdrawMin, exponent),
  withdrawMax: toPesosInput(s.withdrawMax, exponent),
  withdrawDailyMax: toPesosInput(s.withdrawDailyMax, exponent),
  autoReceiveMinutes: String(s.autoReceiveMinutes),
});

/** /ops/settings: cashier limits and the auto-receive delay; admins edit, others read. */
export function SettingsPage() {
  const { t } = useTranslation('ops');
  const settings = useOpsSettings();
  const isAdmin = useOpsCan('cashier.settings.update');
  return (
    <section className="ops-page" data-testid="ops-settings-page">
      <PageHead title={t('nav_settings')} />
      {!isAdmin && <p className="ops-note ops-note--info" data-testid="ops-admin-only">{t('admin_only')}</p>}
      <ErrorNote error={settings.error} testId="ops-settings-load-error" />
      {/* Re-mounted when the saved values change (another admin), unless being edited. */}
      {settings.data && <SettingsEditor current={settings.data} isAdmin={isAdmin} />}
      {settings.data && <BankEditor current={settings.data.manualBank} isAdmin={isAdmin} />}
    </section>
  );
}

function SettingsEditor({ current, isAdmin }: { current: TOpsSettings; isAdmin: boolean }) {
  const formatAmount = useAmount();
  const { exponent, code: currency } = useCurrency();
  const { t } = useTranslation('ops');
  const update = useUpdateSettings();
  const [form, setForm] = useState<SettingsForm>(() => toForm(current, exponent));
  const [isDirty, setDirty] = useState(false);
  const [isTried, setTried] = useState(false);
  const [isSaved, setSaved] = useState(false);
  // Show what another admin saved while this form is untouched.
  const shown = isDirty ? form : toForm(current, exponent);
  const parsed = parseSettingsForm(shown, exponent);

  const fieldError = (k: keyof SettingsForm) => (isTried && parsed.errors[k] ? t(`settings_error_${parsed.errors[k]}`, { context: parsed.errors[k] === 'amount' ? decimalsContext(exponent) : undefined }) : undefined);
  const set = (k: keyof SettingsForm, v: string) => {
    setForm({ ...shown, [k]: v });
    setDirty(true);
    setSaved(false);
  };

  return (
    <form
      className="ops-panel ops-form ops-form--settings"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (!parsed.value || !isAdmin) return;
        const changed = Object.fromEntries(Object.entries(parsed.value).filter(([k, v]) => current[k as keyof CashierLimits] !== v));
        update.mutate(changed, {
          onSuccess: () => {
            setDirty(false);
            setTried(false);
            setSaved(true);
          },
        });
      }}
    >
      <div className="ops-grid">
        {MONEY_SETTINGS.map((k) => (
          <OpsField
            key={k}
            label={t(`setting_${k}`, { currency })}
            value={shown[k]}
            onChange={(v) => set(k, v)}
            testId={`ops-settings-${k}`}
            inputMode="decimal"
            disabled={!isAdmin}
            invalid={Boolean(fieldError(k))}
            hint={fieldError(k) ?? t('settings_current', { value: formatAmount(current[k]) })}
          />
        ))}
        <OpsField
          label={t('setting_autoReceiveMinutes')}
          value={shown.autoReceiveMinutes}
          onChange={(v) => set('autoReceiveMinutes', v)}
          testId="ops-settings-autoReceiveMinutes"
          inputMode="numeric"
          disabled={!isAdmin}
          invalid={Boolean(fieldError('autoReceiveMinutes'))}
          hint={fieldError('autoReceiveMinutes') ?? t('settings_current', { value: current.autoReceiveMinutes })}
        />
      </div>
      <ErrorNote error={update.error} testId="ops-settings-error" />
      {isSaved && <SuccessNote testId="ops-settings-saved">{t('settings_saved')}</SuccessNote>}
      {isAdmin && (
        <div className="ops-form__actions">
          <button type="button" className="ops-btn ops-btn--ghost" disabled={!isDirty || update.isPending} onClick={() => setDirty(false)} data-testid="ops-settings-reset">
            {t('settings_reset')}
          </button>
          <button type="submit" className="ops-btn ops-btn--primary" disabled={!isDirty || update.isPending} data-testid="ops-settings-save">
            {update.isPending ? t('working') : t('settings_save')}
          </button>
        </div>
      )}
    </form>
  );
}

const toBankForm = (b: TManualBank | null): BankForm => ({ bankName: b?.bankName ?? '', accountName: b?.accountName ?? '', accountNumber: b?.accountNumber ?? '' });

/** The account players send manual bank deposits to (none: the channel is not offered). */
function BankEditor({ current, isAdmin }: { current: TManualBank | null; isAdmin: boolean }) {
  const { t } = useTranslation('ops');
  const update = useUpdateSettings();
  const [form, setForm] = useState<BankForm>(() => toBankForm(current));
  const [isDirty, setDirty] = useState(false);
  const [isTried, setTried] = useState(false);
  const [saved, setSaved] = useState<'saved' | 'removed' | null>(null);
  const shown = isDirty ? form : toBankForm(current);
  const parsed = parseBankForm(shown);
  const fieldError = (k: keyof BankForm) => (isTried && parsed.errors[k] ? t(`bank_error_${parsed.errors[k]}`) : undefined);
  return (
    <form
      className="ops-panel ops-form ops-form--settings"
      noValidate
      data-testid="ops-bank-form"
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (Object.keys(parsed.errors).length > 0 || !isAdmin) return;
        update.mutate({ manualBank: parsed.value }, {
          onSuccess: () => {
            setDirty(false);
            setTried(false);
            setSaved(parsed.value ? 'saved' : 'removed');
          },
        });
      }}
    >
      <h2 className="ops-panel__title">{t('bank_title')}</h2>
      <p className="ops-muted">{t('bank_intro')}</p>
      {!current && <p className="ops-note ops-note--info" data-testid="ops-bank-none">{t('bank_none')}</p>}
      <div className="ops-grid">
        {BANK_FIELDS.map((k) => (
          <OpsField
            key={k}
            label={t(`bank_${k}`)}
            value={shown[k]}
            onChange={(v) => {
              setForm({ ...shown, [k]: v });
              setDirty(true);
              setSaved(null);
            }}
            testId={`ops-bank-${k}`}
            maxLength={k === 'accountNumber' ? 34 : 64}
            disabled={!isAdmin}
            invalid={Boolean(fieldError(k))}
            hint={fieldError(k)}
          />
        ))}
      </div>
      <ErrorNote error={update.error} testId="ops-bank-error" />
      {saved && <SuccessNote testId="ops-bank-saved">{t(saved === 'saved' ? 'bank_saved' : 'bank_removed')}</SuccessNote>}
      {isAdmin && (
        <div className="ops-form__actions">
          <button type="button" className="ops-btn ops-btn--ghost" disabled={!isDirty || update.isPending} onClick={() => setDirty(false)} data-testid="ops-bank-reset">
            {t('settings_reset')}
          </button>
          <button type="submit" className="ops-btn ops-btn--primary" disabled={!isDirty || update.isPending} data-testid="ops-bank-save">
            {update.isPending ? t('working') : t('bank_save')}
          </button>
        </div>
      )}
    </form>
  );
}
