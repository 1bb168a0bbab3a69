import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { scaleCentavos, toMajorInput } from '@portal/contracts/domain/money';
import { useAmount, useCurrency } from '../../../lib/use-money';
import { missingMessageLanguages, type TEnvelopeAudience } from '@portal/contracts/api/red-envelopes';
import { useDropEnvelope, useOpsEnvelopes } from '../api/envelopes';
import { useOpsPromotions } from '../api/promotions';
import { useOpsTime } from '../lib/format';
import { parsePesos } from '../lib/money-input';
import { unknownAccountsOf } from '../lib/unknown-accounts';
import { newRequestId } from '../lib/request-id';
import { useWhitelabel } from '../../../lib/whitelabel';
import { useOpsCan } from './ops-gate';
import { EmptyRow, ErrorNote, OpsField, PageHead, Pager, StatusChip, TableBox } from './ops-ui';

type AudienceKind = TEnvelopeAudience['kind'];
type Form = {
  total: string; count: string; min: string; minutes: string; audience: AudienceKind; days: string; promotionId: string; from: string; to: string;
  accounts: string; en: string; ty: string;
};
/** An empty form; its minimum share ₱1.00 (in another currency at the demo rate: ₫500) is set by emptyForm. */
const EMPTY: Form = { total: '', count: '', min: '', minutes: '60', audience: 'all', days: '7', promotionId: '', from: '', to: '', accounts: '', en: '', ty: '' };
const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));
const int = (v: string, min: number, max: number) => (/^\d{1,6}$/.test(v.trim()) && Number(v) >= min && Number(v) <= max ? Number(v) : null);
const accountsOf = (v: string) => [...new Set(v.split(/[\s,;]+/).map((a) => a.trim()).filter(Boolean))];

/** /ops/envelopes: drop a red envelope to every player or a segment, and follow what was grabbed and returned. */
export function EnvelopesPage() {
  const formatAmount = useAmount();
  const { exponent } = useCurrency();
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const canDrop = useOpsCan('envelopes.drop');
  const [pageNo, setPageNo] = useState(1);
  const list = useOpsEnvelopes(pageNo);
  const dropping = useDropEnvelope();
  const unknown = unknownAccountsOf(dropping.error);
  const { code } = useCurrency();
  const emptyForm = (): Form => ({ ...EMPTY, min: toMajorInput(scaleCentavos(1_00, code), exponent) });
  const [form, setForm] = useState<Form>(emptyForm);
  // One key per set of terms: a retry after a lost answer drops once; any edit starts a new one.
  const [requestId, setRequestId] = useState(newRequestId);
  const [isTried, setTried] = useState(false);

  const total = parsePesos(form.total, { exponent });
  const min = parsePesos(form.min, { exponent });
  const count = int(form.count, 1, 20_000);
  const minutes = int(form.minutes, 1, 10_080);
  const days = int(form.days, 1, 90);
  const accounts = accountsOf(form.accounts);
  const promotions = useOpsPromotions();
  // A message in every language of the site or in none (the server refuses one alone: players of the other language would read it).
  const languages = useWhitelabel().data?.brand.supportedLanguages ?? ['EN', 'TY'];
  const missing = missingMessageLanguages(form, languages);
  const problems = {
    en: missing.includes('EN'),
    ty: missing.includes('TY'),
    total: total === null,
    count: count === null,
    min: min === null || (total !== null && count !== null && min * count > total),
    minutes: minutes === null,
    days: form.audience === 'depositors' && days === null,
    accounts: form.audience === 'accounts' && (accounts.length === 0 || accounts.length > 1000),
    promotion: form.audience === 'promotion' && !form.promotionId,
    from: form.audience === 'registered' && (!isDay(form.from) || (isDay(form.to) && form.from > form.to)),
    to: form.audience === 'registered' && !isDay(form.to),
  };
  const isValid = !Object.values(problems).some(Boolean);
  const edit = (patch: Partial<Form>) => {
    setForm((f) => ({ ...f, ...patch }));
    setRequestId(newRequestId());
  };
  const audience = (): TEnvelopeAudience => {
    switch (form.audience) {
      case 'all': return { kind: 'all' };
      case 'depositors': return { kind: 'depositors', days: days! };
      case 'promotion': return { kind: 'promotion', promotionId: form.promotionId };
      case 'registered': return { kind: 'registered', from: form.from, to: form.to };
      case 'accounts': return { kind: 'accounts', accounts };
    }
  };
  const average = total !== null && count !== null ? Math.floor(total / count) : null;

  return (
    <section className="ops-page" data-testid="ops-envelopes-page">
      <PageHead title={t('nav_envelopes')} />
      {!canDrop && <p className="ops-note ops-note--info">{t('env_drop_roles')}</p>}
      <div className="ops-split">
        <form
          className="ops-panel ops-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setTried(true);
            if (!isValid || !canDrop) return;
            dropping.mutate(
              { totalAmount: total!, count: count!, minShare: min!, expiresInMinutes: minutes!, audience: audience(), message: { en: form.en.trim() || undefined, ty: form.ty.trim() || undefined }, requestId },
              { onSuccess: () => { setForm(emptyForm()); setTried(false); setRequestId(newRequestId()); } },
            );
          }}
        >
          <h2 className="ops-panel__title">{t('env_new')}</h2>
          <OpsField label={t('env_total')} value={form.total} onChange={(v) => edit({ total: v })} testId="ops-env-total" required disabled={!canDrop} inputMode="decimal" placeholder={toMajorInput(0, exponent)} invalid={isTried && problems.total} problem={t('field_amount')} />
          <OpsField label={t('env_count')} value={form.count} onChange={(v) => edit({ count: v })} testId="ops-env-count" required disabled={!canDrop} inputMode="numeric" invalid={isTried && problems.count}
            hint={average !== null ? t('env_average', { amount: formatAmount(average) }) : t('env_count_hint')} problem={t('field_whole', { min: 1, max: '20000' })} />
          <OpsField label={t('env_min')} value={form.min} onChange={(v) => edit({ min: v })} testId="ops-env-min" required disabled={!canDrop} inputMode="decimal" invalid={isTried && problems.min}
            problem={min === null ? t('field_amount') : t('env_min_too_high')} />
          <OpsField label={t('env_minutes')} value={form.minutes} onChange={(v) => edit({ minutes: v })} testId="ops-env-minutes" required disabled={!canDrop} inputMode="numeric" invalid={isTried && problems.minutes} hint={t('env_minutes_hint')} problem={t('field_whole', { min: 1, max: '10080' })} />
          <div className="ops-field">
            <label className="ops-field__label" htmlFor="ops-env-audience">{t('env_audience')}</label>
            <select id="ops-env-audience" className="ops-input" value={form.audience} disabled={!canDrop} onChange={(e) => edit({ audience: e.target.value as AudienceKind })} data-testid="ops-env-audience">
              <option value="all">{t('env_audience_all')}</option>
              <option value="depositors">{t('env_audience_depositors')}</option>
              <option value="promotion">{t('env_audience_promotion')}</option>
              <option value="registered">{t('env_audience_registered')}</option>
              <option value="accounts">{t('env_audience_accounts')}</option>
            </select>
            <span className="ops-field__hint">{t('env_audience_hint')}</span>
          </div>
          {form.audience === 'depositors' && (
            <OpsField label={t('env_days')} value={form.days} onChange={(v) => edit({ days: v })} testId="ops-env-days" required disabled={!canDrop} inputMode="numeric" invalid={isTried && problems.days} problem={t('field_whole', { min: 1, max: '90' })} />
          )}
          {form.audience === 'promotion' && (
            <div className="ops-field">
              <label className="ops-field__label" htmlFor="ops-env-promotion">{t('env_promotion')}</label>
              <select id="ops-env-promotion" className="ops-input" value={form.promotionId} disabled={!canDrop} onChange={(e) => edit({ promotionId: e.target.value })}
                data-testid="ops-env-promotion" aria-invalid={(isTried && problems.promotion) || undefined}>
                <option value="">{t('env_promotion_pick')}</option>
                {(promotions.data?.list ?? []).map((p) => (
                  <option key={p.id} value={p.id}>#{p.id} {p.title.EN} · {t('env_promotion_joins', { count: p.joins })}</option>
                ))}
              </select>
              <span className="ops-field__hint">{t('env_promotion_hint')}</span>
              <ErrorNote error={promotions.error} testId="ops-env-promotion-error" />
            </div>
          )}
          {form.audience === 'registered' && (
            <>
              <OpsField label={t('env_registered_from')} value={form.from} onChange={(v) => edit({ from: v })} testId="ops-env-from" required disabled={!canDrop} placeholder="2026-01-31" invalid={isTried && problems.from} />
              <OpsField label={t('env_registered_to')} value={form.to} onChange={(v) => edit({ to: v })} testId="ops-env-to" required disabled={!canDrop} placeholder="2026-01-31" invalid={isTried && problems.to}
                hint={t('env_registered_hint')} />
            </>
          )}
          {form.audience === 'accounts' && (
            <OpsField label={t('env_accounts')} value={form.accounts} onChange={(v) => edit({ accounts: v })} testId="ops-env-accounts" required disabled={!canDrop} multiline invalid={(isTried && problems.accounts) || unknown !== null}
              hint={t('env_accounts_hint', { count: accounts.length })} />
          )}
          <OpsField label={t('env_message_en')} value={form.en} onChange={(v) => edit({ en: v })} testId="ops-env-message-en" disabled={!canDrop} maxLength={80} invalid={isTried && problems.en} problem={t('env_message_every')} />
          <OpsField label={t('env_message_ty')} value={form.ty} onChange={(v) => edit({ ty: v })} testId="ops-env-message-ty" disabled={!canDrop} maxLength={80} invalid={isTried && problems.ty} problem={t('env_message_every')} />
          {unknown ? (
            <p className="ops-note ops-note--error" role="alert" data-testid="ops-env-error">
              {t('env_unknown_accounts', { names: unknown.names.join(', ') })}
              {unknown.more > 0 && ` ${t('env_unknown_more', { count: unknown.more })}`}
            </p>
          ) : <ErrorNote error={dropping.error} testId="ops-env-error" />}
          <div className="ops-form__actions">
            <button type="submit" className="ops-btn ops-btn--primary" disabled={!canDrop || dropping.isPending} data-testid="ops-env-submit">
              {t('env_submit')}
            </button>
          </div>
          {dropping.data && (
            <p className="ops-note ops-note--success" data-testid="ops-env-dropped">
              {t('env_dropped', { id: dropping.data.envelope.envelopeId, amount: formatAmount(dropping.data.envelope.totalAmount) })}
            </p>
          )}
        </form>
        <div className="ops-panel">
          <h2 className="ops-panel__title">{t('env_list')}</h2>
          <ErrorNote error={list.error} testId="ops-env-list-error" />
          <TableBox busy={list.isFetching}>
            <thead>
              <tr>
                <th>#</th>
                <th>{t('env_col_dropped')}</th>
                <th>{t('env_col_audience')}</th>
                <th className="num">{t('env_total')}</th>
                <th className="num">{t('env_col_grabbed')}</th>
                <th className="num">{t('env_col_returned')}</th>
                <th>{t('col_status')}</th>
              </tr>
            </thead>
            <tbody>
              {(list.data?.list ?? []).map((e) => (
                <tr key={e.envelopeId} data-testid={`ops-env-row-${e.envelopeId}`}>
                  <td className="mono">{e.envelopeId}</td>
                  <td>
                    {formatDateTime(e.droppedAt)}
                    <div className="ops-muted">{t('env_expires', { at: formatDateTime(e.expiresAt) })} · {e.createdBy}</div>
                  </td>
                  <td>
                    {t(`env_audience_${e.audience.kind}`)}
                    {e.audience.kind === 'depositors' && <div className="ops-muted">{t('env_days_value', { count: e.audience.days ?? 0 })}</div>}
                    {e.audience.kind === 'promotion' && <div className="ops-muted">{t('env_promotion_value', { id: e.audience.promotionId })}</div>}
                    {e.audience.kind === 'registered' && <div className="ops-muted">{t('env_registered_value', { from: e.audience.from, to: e.audience.to })}</div>}
                    {e.audience.targets !== null && <div className="ops-muted">{t('env_targets', { count: e.audience.targets })}</div>}
                  </td>
                  <td className="num">
                    {formatAmount(e.totalAmount)}
                    <div className="ops-muted">{t('env_shares', { count: e.count })}</div>
                  </td>
                  <td className="num" data-testid={`ops-env-grabbed-${e.envelopeId}`}>
                    {formatAmount(e.grabbedAmount)}
                    <div className="ops-muted">{e.grabbedCount} / {e.count}</div>
                  </td>
                  <td className="num">{e.refundedAmount === null ? '—' : formatAmount(e.refundedAmount)}</td>
                  <td>
                    <StatusChip tone={e.status === 'open' ? 'success' : 'muted'} testId={`ops-env-status-${e.envelopeId}`}>{t(`env_status_${e.status}`)}</StatusChip>
                  </td>
                </tr>
              ))}
              {list.data && !list.data.list.length && <EmptyRow cols={7}>{t('env_none')}</EmptyRow>}
            </tbody>
          </TableBox>
          {list.data && <Pager pageNo={pageNo} pageSize={20} total={list.data.total} onPage={setPageNo} testPrefix="ops-env-list" />}
        </div>
      </div>
    </section>
  );
}
