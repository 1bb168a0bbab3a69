import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MODULE_FLAGS, SUPPORTED_LANGUAGES } from '@portal/contracts/domain/constants';
import type { TPlatformMerchantDetail } from '@portal/contracts/api/ops-platform';
import { useCreateMerchant, useMerchants, useUpdateMerchant } from '../api/merchants';
import { useOpsSession } from '../api/get-session';
import { parseList } from '../lib/site-form';
import { EmptyRow, ErrorNote, OpsField, PageHead, StatusChip, SuccessNote, TableBox } from './ops-ui';

type Lang = (typeof SUPPORTED_LANGUAGES)[number];
type Form = {
  code: string; name: string; domains: string; mainDomain: string; market: string; currency: string; currencySymbol: string;
  languages: Lang[]; defaultLanguage: Lang; minAge: string; gmtOffsetMinutes: string; modules: Record<string, boolean>;
};
const EMPTY: Form = { code: '', name: '', domains: '', mainDomain: '', market: 'PH', currency: 'PHP', currencySymbol: '', languages: ['EN', 'TY'], defaultLanguage: 'TY', minAge: '21', gmtOffsetMinutes: '480', modules: {} };
const fromMerchant = (m: TPlatformMerchantDetail): Form => ({
  code: m.code, name: m.name, domains: m.domains.join('\n'), mainDomain: m.mainDomain, market: m.market, currency: m.currency, currencySymbol: m.currencySymbol,
  languages: m.supportedLanguages.filter((l): l is Lang => (SUPPORTED_LANGUAGES as readonly string[]).includes(l)),
  defaultLanguage: ((SUPPORTED_LANGUAGES as readonly string[]).includes(m.defaultLanguage) ? m.defaultLanguage : 'EN') as Lang,
  minAge: String(m.minAge), gmtOffsetMinutes: String(m.gmtOffsetMinutes), modules: { ...m.modules },
});

function check(f: Form, isNew: boolean, initialDomains = '') {
  const int = (s: string, lo: number, hi: number) => (/^-?\d{1,4}$/.test(s.trim()) && Number(s) >= lo && Number(s) <= hi ? Number(s) : null);
  const domains = parseList(f.domains.toLowerCase());
  return {
    code: isNew && !/^[A-Za-z0-9_-]{1,32}$/.test(f.code.trim()),
    name: !f.name.trim() || f.name.trim().length > 100,
    // A merchant reached without a host name of its own (the default one) may keep none.
    domains: (isNew || f.domains.trim() !== initialDomains) && (!domains.length || domains.length > 20),
    mainDomain: f.mainDomain.trim() !== '' && !domains.includes(f.mainDomain.trim().toLowerCase()),
    market: !/^[A-Z]{2}$/.test(f.market.trim().toUpperCase()),
    currency: !/^[A-Z]{3}$/.test(f.currency.trim().toUpperCase()),
    currencySymbol: f.currencySymbol.trim().length > 8,
    languages: !f.languages.length || !f.languages.includes(f.defaultLanguage),
    minAge: int(f.minAge, 18, 25) === null,
    gmtOffsetMinutes: int(f.gmtOffsetMinutes, -840, 840) === null,
    parsed: { domains, minAge: int(f.minAge, 18, 25), gmt: int(f.gmtOffsetMinutes, -840, 840) },
  };
}

/**
 * /ops/merchants (the platform administrator only): every merchant, a new one (brand, domains,
 * market, currency, languages, flags), and edits of an existing one. Audited; a change reaches the
 * merchant's open pages at once. The server refuses any other operator (403).
 */
export function MerchantsPage() {
  const { t } = useTranslation('ops');
  const isPlatform = useOpsSession().data?.isPlatform === true;
  const list = useMerchants(isPlatform);
  const [editing, setEditing] = useState<string | null>(null);
  const [flash, setFlash] = useState('');
  if (!isPlatform) {
    return (
      <section className="ops-page" data-testid="ops-merchants-page">
        <PageHead title={t('nav_merchants')} />
        <p className="ops-note ops-note--info" data-testid="ops-merchants-platform-only">{t('merchants_platform_only')}</p>
      </section>
    );
  }
  const rows = list.data?.list ?? [];
  const current = rows.find((m) => m.code === editing);
  return (
    <section className="ops-page" data-testid="ops-merchants-page">
      <PageHead title={t('nav_merchants')} />
      <ErrorNote error={list.error} />
      <TableBox busy={list.isFetching}>
        <thead>
          <tr><th>{t('merchants_code')}</th><th>{t('merchants_name')}</th><th>{t('merchants_domains')}</th><th>{t('merchants_market')}</th><th>{t('merchants_currency')}</th><th>{t('merchants_languages')}</th><th className="num">{t('merchants_players')}</th><th /></tr>
        </thead>
        <tbody>
          {rows.length === 0 && !list.isPending && <EmptyRow cols={8}>{t('merchants_none')}</EmptyRow>}
          {rows.map((m) => (
            <tr key={m.code} data-testid={`ops-merchant-row-${m.code}`}>
              <td className="mono">{m.code} {m.isDefault && <StatusChip tone="info">{t('merchants_default')}</StatusChip>}</td>
              <td>{m.name}</td>
              <td>{m.domains.join(', ')}</td>
              <td>{m.market}</td>
              <td>{m.currency} {m.currencySymbol}</td>
              <td>{m.supportedLanguages.join(', ')} ({m.defaultLanguage})</td>
              <td className="num">{m.memberCount}</td>
              <td className="ops-table__actions">
                <button type="button" className="ops-btn ops-btn--sm" onClick={() => { setFlash(''); setEditing(m.code === editing ? null : m.code); }} data-testid={`ops-merchant-edit-${m.code}`}>{t('merchants_edit')}</button>
              </td>
            </tr>
          ))}
        </tbody>
      </TableBox>
      {flash && <SuccessNote testId="ops-merchant-updated">{flash}</SuccessNote>}
      {current && <MerchantForm key={current.code} initial={fromMerchant(current)} existing={current} onDone={(msg) => { setEditing(null); setFlash(msg ?? ''); }} />}
      {!current && <MerchantForm key="new" initial={EMPTY} />}
    </section>
  );
}

function MerchantForm({ initial, existing, onDone }: { initial: Form; existing?: TPlatformMerchantDetail; onDone?: (message?: string) => void }) {
  const { t } = useTranslation('ops');
  const create = useCreateMerchant();
  const update = useUpdateMerchant();
  const [f, setF] = useState<Form>(initial);
  const [isTried, setTried] = useState(false);
  const [saved, setSaved] = useState('');
  const isNew = !existing;
  const bad = check(f, isNew, initial.domains.trim());
  const isValid = !Object.entries(bad).some(([k, v]) => k !== 'parsed' && v === true);
  const set = (patch: Partial<Form>) => { setF((x) => ({ ...x, ...patch })); setSaved(''); };
  const mutation = isNew ? create : update;
  return (
    <form
      className="ops-panel ops-form"
      data-testid={isNew ? 'ops-merchant-create-form' : 'ops-merchant-edit-form'}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (!isValid || mutation.isPending) return;
        const body = {
          name: f.name.trim(), domains: bad.parsed.domains, ...(f.mainDomain.trim() ? { mainDomain: f.mainDomain.trim().toLowerCase() } : {}),
          market: f.market.trim().toUpperCase(), currency: f.currency.trim().toUpperCase(), ...(f.currencySymbol.trim() ? { currencySymbol: f.currencySymbol.trim() } : {}),
          supportedLanguages: f.languages, defaultLanguage: f.defaultLanguage, minAge: bad.parsed.minAge!, gmtOffsetMinutes: bad.parsed.gmt!,
          modules: Object.fromEntries(MODULE_FLAGS.filter((m) => f.modules[m] !== undefined && (isNew || f.modules[m] !== existing?.modules[m])).map((m) => [m, f.modules[m]!])),
        };
        if (isNew) create.mutate({ code: f.code.trim(), ...body }, { onSuccess: (m) => { setSaved(t('merchants_created', { code: m.code })); setF(EMPTY); setTried(false); } });
        else {
          // Only what changed: an untouched field is not judged again (the default merchant may have no domain).
          const was = fromMerchant(existing);
          const changed = Object.fromEntries(Object.entries(body).filter(([k, v]) => {
            if (k === 'domains') return f.domains.trim() !== was.domains.trim();
            if (k === 'mainDomain') return v !== existing.mainDomain;
            if (k === 'supportedLanguages') return JSON.stringify(v) !== JSON.stringify(existing.supportedLanguages);
            if (k === 'modules') return Object.keys(v as object).length > 0;
            return v !== (existing as unknown as Record<string, unknown>)[k];
          }));
          if (!Object.keys(changed).length) { onDone?.(); return; }
          update.mutate({ code: existing.code, body: changed }, { onSuccess: (m) => onDone?.(t('merchants_updated', { code: m.code })) });
        }
      }}
    >
      <h2 className="ops-panel__title">{isNew ? t('merchants_create') : t('merchants_edit_title', { code: existing.code })}</h2>
      <div className="ops-grid">
        {isNew && <OpsField label={t('merchants_code')} value={f.code} onChange={(v) => set({ code: v })} testId="ops-merchant-code" maxLength={32} required invalid={isTried && bad.code} />}
        <OpsField label={t('merchants_name')} value={f.name} onChange={(v) => set({ name: v })} testId="ops-merchant-name" maxLength={100} required invalid={isTried && bad.name} />
        <OpsField label={t('merchants_market')} value={f.market} onChange={(v) => set({ market: v.toUpperCase() })} testId="ops-merchant-market" maxLength={2} required invalid={isTried && bad.market} hint={t('merchants_market_hint')} />
        <OpsField label={t('merchants_currency')} value={f.currency} onChange={(v) => set({ currency: v.toUpperCase() })} testId="ops-merchant-currency" maxLength={3} required invalid={isTried && bad.currency}
          disabled={!!existing && existing.memberCount > 0} hint={existing && existing.memberCount > 0 ? t('merchants_currency_locked') : t('merchants_currency_hint')} />
        <OpsField label={t('merchants_currency_symbol')} value={f.currencySymbol} onChange={(v) => set({ currencySymbol: v })} testId="ops-merchant-symbol" maxLength={8} invalid={isTried && bad.currencySymbol} />
        <OpsField label={t('merchants_min_age')} value={f.minAge} onChange={(v) => set({ minAge: v })} testId="ops-merchant-min-age" inputMode="numeric" invalid={isTried && bad.minAge} hint={t('merchants_min_age_hint')} />
        <OpsField label={t('merchants_gmt')} value={f.gmtOffsetMinutes} onChange={(v) => set({ gmtOffsetMinutes: v })} testId="ops-merchant-gmt" invalid={isTried && bad.gmtOffsetMinutes} hint={t('merchants_gmt_hint')} />
      </div>
      <div className="ops-grid">
        <OpsField label={t('merchants_domains')} value={f.domains} onChange={(v) => set({ domains: v })} testId="ops-merchant-domains" multiline required invalid={isTried && bad.domains} hint={t('merchants_domains_hint')} />
        <OpsField label={t('merchants_main_domain')} value={f.mainDomain} onChange={(v) => set({ mainDomain: v })} testId="ops-merchant-main-domain" maxLength={253} invalid={isTried && bad.mainDomain} hint={t('merchants_main_domain_hint')} />
      </div>
      <fieldset className="ops-checks">
        <legend className="ops-field__label">{t('merchants_languages')}</legend>
        {SUPPORTED_LANGUAGES.map((l) => (
          <label key={l} className="ops-check">
            <input type="checkbox" checked={f.languages.includes(l)} onChange={(e) => set({ languages: e.target.checked ? [...f.languages, l] : f.languages.filter((x) => x !== l) })} data-testid={`ops-merchant-lang-${l}`} />
            <span>{t(`merchants_lang_${l}`)}</span>
          </label>
        ))}
        <label className="ops-filter">
          <span className="ops-field__label">{t('merchants_default_language')}</span>
          <select className="ops-input" value={f.defaultLanguage} onChange={(e) => set({ defaultLanguage: e.target.value as Lang })} data-testid="ops-merchant-default-lang" aria-invalid={(isTried && bad.languages) || undefined}>
            {SUPPORTED_LANGUAGES.map((l) => <option key={l} value={l}>{t(`merchants_lang_${l}`)}</option>)}
          </select>
        </label>
      </fieldset>
      <fieldset className="ops-checks">
        <legend className="ops-field__label">{t('site_modules')}</legend>
        {MODULE_FLAGS.map((m) => (
          <label key={m} className="ops-check">
            <input type="checkbox" checked={f.modules[m] ?? false} ref={(el) => { if (el) el.indeterminate = isNew && f.modules[m] === undefined; }}
              onChange={(e) => set({ modules: { ...f.modules, [m]: e.target.checked } })} data-testid={`ops-merchant-flag-${m}`} />
            <span>{t(`module_${m}`)}</span>
          </label>
        ))}
        {isNew && <p className="ops-muted">{t('merchants_flags_template')}</p>}
      </fieldset>
      {isTried && !isValid && <p className="ops-note ops-note--error">{t('merchants_fix_fields')}</p>}
      <ErrorNote error={mutation.error} testId="ops-merchant-error" />
      {saved && <SuccessNote testId="ops-merchant-saved">{saved}</SuccessNote>}
      <div className="ops-form__actions">
        {!isNew && <button type="button" className="ops-btn" onClick={() => onDone?.()}>{t('cancel')}</button>}
        <button type="submit" className="ops-btn ops-btn--primary" disabled={mutation.isPending} data-testid="ops-merchant-submit">
          {mutation.isPending ? t('working') : isNew ? t('merchants_create') : t('settings_save')}
        </button>
      </div>
    </form>
  );
}
