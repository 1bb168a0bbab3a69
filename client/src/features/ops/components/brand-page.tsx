import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFieldRule } from '@portal/contracts/api/auth';
import type { TOpsBrand } from '@portal/contracts/api/ops-players';
import { PATTERNS } from '@portal/contracts/domain/patterns';
import { BRAND_MIN_CONTRAST, BRAND_THEMES, HEX_COLOR, THEME_BACKGROUNDS, contrastRatio, type TBrandColors } from '@portal/contracts/domain/brand-colors-core';
import { useOpsBrand, useOpsRegistration, useUpdateBrand, useUpdateRegistration } from '../api/brand';
import { parseList } from '../lib/site-form';
import { useOpsCan } from './ops-gate';
import { ErrorNote, OpsField, PageHead, SuccessNote, TableBox } from './ops-ui';

const HTTPS_OR_PATH = /^(https:\/\/[^\s"'<>]+|\/[^\s"'<>]*)?$/;
const CDN = /^https:\/\/[^\s"'<>/]+(\/[^\s"'<>]*)?$/;
const GTAG = /^(G|GT|AW|UA)-[A-Z0-9-]{4,20}$/;

/**
 * /ops/brand: the brand the bootstrap calls show (site name, logo, video, analytics tag, image and
 * game-launch CDNs) and the registration field rules. Saved changes reach players' open pages at
 * once (system.changed) and are audited. Content and administrators edit the brand; administrators
 * the registration rules; support and risk read.
 */
export function BrandPage() {
  const { t } = useTranslation('ops');
  const brand = useOpsBrand();
  const reg = useOpsRegistration();
  return (
    <section className="ops-page" data-testid="ops-brand-page">
      <PageHead title={t('nav_brand')} />
      <ErrorNote error={brand.error ?? reg.error} testId="ops-brand-load-error" />
      {/* The forms start from the first answer and keep what was typed (and the saved note) after a save. */}
      {brand.data && <BrandPanel current={brand.data} />}
      {brand.data && <ColorsPanel current={brand.data.colors} />}
      {reg.data && <RegistrationPanel fields={reg.data.fields} fixed={reg.data.fixed} />}
    </section>
  );
}

function BrandPanel({ current }: { current: TOpsBrand }) {
  const { t } = useTranslation('ops');
  const canEdit = useOpsCan('brand.update');
  const update = useUpdateBrand();
  const [siteName, setSiteName] = useState(current.siteName);
  const [logoUrl, setLogoUrl] = useState(current.logoUrl);
  const [videoUrl, setVideoUrl] = useState(current.videoUrl ?? '');
  const [gtagId, setGtagId] = useState(current.gtagId ?? '');
  const [imageCDNs, setImageCDNs] = useState(current.imageCDNs.join('\n'));
  const [launchCDNs, setLaunchCDNs] = useState(current.launchGameCDNs.join('\n'));
  const [isSaved, setSaved] = useState(false);
  const images = parseList(imageCDNs);
  const launches = parseList(launchCDNs);
  const bad = {
    siteName: !siteName.trim() || siteName.trim().length > 100,
    logoUrl: !HTTPS_OR_PATH.test(logoUrl.trim()),
    videoUrl: !HTTPS_OR_PATH.test(videoUrl.trim()),
    gtagId: gtagId.trim() !== '' && !GTAG.test(gtagId.trim()),
    images: images.filter((u) => !CDN.test(u)),
    launches: launches.filter((u) => !CDN.test(u)),
  };
  const isValid = !bad.siteName && !bad.logoUrl && !bad.videoUrl && !bad.gtagId && !bad.images.length && !bad.launches.length && images.length <= 10 && launches.length <= 10;
  const edit = (f: (v: string) => void) => (v: string) => { f(v); setSaved(false); };
  return (
    <form
      className="ops-panel ops-form"
      data-testid="ops-brand-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!isValid || !canEdit) return;
        update.mutate(
          { siteName: siteName.trim(), logoUrl: logoUrl.trim(), videoUrl: videoUrl.trim() || null, gtagId: gtagId.trim() || null, imageCDNs: images, launchGameCDNs: launches },
          { onSuccess: () => setSaved(true) },
        );
      }}
    >
      <h2 className="ops-panel__title">{t('brand_title')}</h2>
      {!canEdit && <p className="ops-note ops-note--info">{t('admin_only')}</p>}
      <div className="ops-grid">
        <OpsField label={t('brand_site_name')} value={siteName} onChange={edit(setSiteName)} testId="ops-brand-site-name" maxLength={100} required disabled={!canEdit} invalid={bad.siteName} />
        <OpsField label={t('brand_logo_url')} value={logoUrl} onChange={edit(setLogoUrl)} testId="ops-brand-logo" maxLength={500} disabled={!canEdit} invalid={bad.logoUrl} hint={t('brand_url_hint')} />
        <OpsField label={t('brand_video_url')} value={videoUrl} onChange={edit(setVideoUrl)} testId="ops-brand-video" maxLength={500} disabled={!canEdit} invalid={bad.videoUrl} hint={t('brand_url_hint')} />
        <OpsField label={t('brand_gtag')} value={gtagId} onChange={edit(setGtagId)} testId="ops-brand-gtag" maxLength={30} disabled={!canEdit} invalid={bad.gtagId} hint={t('brand_gtag_hint')} />
      </div>
      <div className="ops-grid">
        <OpsField label={t('brand_image_cdns')} value={imageCDNs} onChange={edit(setImageCDNs)} testId="ops-brand-image-cdns" multiline disabled={!canEdit} invalid={bad.images.length > 0}
          hint={bad.images.length ? t('site_bad_entries', { list: bad.images.join(', ') }) : t('brand_cdn_hint')} />
        <OpsField label={t('brand_launch_cdns')} value={launchCDNs} onChange={edit(setLaunchCDNs)} testId="ops-brand-launch-cdns" multiline disabled={!canEdit} invalid={bad.launches.length > 0}
          hint={bad.launches.length ? t('site_bad_entries', { list: bad.launches.join(', ') }) : t('brand_cdn_hint')} />
      </div>
      <p className="ops-muted">{t('brand_lottery_type', { value: current.lotteryType || '—' })}</p>
      <ErrorNote error={update.error} testId="ops-brand-error" />
      {isSaved && <SuccessNote testId="ops-brand-saved">{t('brand_saved')}</SuccessNote>}
      {canEdit && (
        <div className="ops-form__actions">
          <button type="submit" className="ops-btn ops-btn--primary" disabled={!isValid || update.isPending} data-testid="ops-brand-save">
            {update.isPending ? t('working') : t('settings_save')}
          </button>
        </div>
      )}
    </form>
  );
}

/** The stylesheet's own colours, the starting point when a merchant has none. */
const DEFAULT_COLORS: TBrandColors = { dark: { primary: '#f5c451', accent: '#e9a426' }, light: { primary: '#8a5a00', accent: '#b06f00' } };
const ROLES = ['primary', 'accent'] as const;

/**
 * The brand colours (primary and accent, per theme): each must read on its theme's background
 * (contrast shown as it is typed; the server refuses the same ones), and saving reaches players'
 * open pages at once. "Use the default colours" removes them.
 */
function ColorsPanel({ current }: { current: TBrandColors | null }) {
  const { t } = useTranslation('ops');
  const canEdit = useOpsCan('brand.update');
  const update = useUpdateBrand();
  const [draft, setDraft] = useState<TBrandColors>(current ?? DEFAULT_COLORS);
  const [isSaved, setSaved] = useState(false);
  const set = (theme: (typeof BRAND_THEMES)[number], role: (typeof ROLES)[number], v: string) => {
    setDraft((d) => ({ ...d, [theme]: { ...d[theme], [role]: v.trim().toLowerCase() } }));
    setSaved(false);
  };
  const check = (theme: (typeof BRAND_THEMES)[number], role: (typeof ROLES)[number]) => {
    const v = draft[theme][role];
    if (!HEX_COLOR.test(v)) return { ok: false, hint: t('brand_color_format') };
    const ratio = contrastRatio(v, THEME_BACKGROUNDS[theme]);
    const need = BRAND_MIN_CONTRAST[role];
    return { ok: ratio >= need, hint: t(ratio >= need ? 'brand_color_contrast_ok' : 'brand_color_contrast_low', { ratio: ratio.toFixed(2), need }) };
  };
  const isValid = BRAND_THEMES.every((th) => ROLES.every((r) => check(th, r).ok));
  const save = (colors: TBrandColors | null) => update.mutate({ colors }, { onSuccess: (v) => { setSaved(true); if (!v.colors) setDraft(DEFAULT_COLORS); } });
  return (
    <form className="ops-panel ops-form" data-testid="ops-brand-colors-form" noValidate onSubmit={(e) => { e.preventDefault(); if (canEdit && isValid) save(draft); }}>
      <h2 className="ops-panel__title">{t('brand_colors_title')}</h2>
      <p className="ops-muted">{t('brand_colors_intro')}</p>
      <p className="ops-muted" data-testid="ops-brand-colors-state">{current ? t('brand_colors_custom') : t('brand_colors_default')}</p>
      <div className="ops-grid">
        {BRAND_THEMES.flatMap((theme) => ROLES.map((role) => {
          const c = check(theme, role);
          return (
            <div key={`${theme}-${role}`} className="ops-field-with-swatch">
              <OpsField label={t(`brand_color_${theme}_${role}`)} value={draft[theme][role]} onChange={(v) => set(theme, role, v)} testId={`ops-brand-color-${theme}-${role}`}
                maxLength={7} disabled={!canEdit} invalid={!c.ok} hint={c.hint} />
              <span className="ops-swatch" aria-hidden="true" style={{ background: THEME_BACKGROUNDS[theme], color: c.ok || HEX_COLOR.test(draft[theme][role]) ? draft[theme][role] : undefined }}>Aa</span>
            </div>
          );
        }))}
      </div>
      <ErrorNote error={update.error} testId="ops-brand-colors-error" />
      {isSaved && <SuccessNote testId="ops-brand-colors-saved">{t('brand_saved')}</SuccessNote>}
      {canEdit && (
        <div className="ops-form__actions">
          <button type="submit" className="ops-btn ops-btn--primary" disabled={!isValid || update.isPending} data-testid="ops-brand-colors-save">
            {update.isPending ? t('working') : t('settings_save')}
          </button>
          {current && (
            <button type="button" className="ops-btn" disabled={update.isPending} onClick={() => save(null)} data-testid="ops-brand-colors-reset">{t('brand_colors_reset')}</button>
          )}
        </div>
      )}
    </form>
  );
}

type Draft = { enabled: boolean; required: boolean; patternId: number; minLength: string; maxLength: string };
const toDraft = (r: TFieldRule): Draft => ({ enabled: r.enabled, required: r.required, patternId: r.patternId, minLength: String(r.minLength), maxLength: String(r.maxLength) });
const num = (s: string) => (/^\d{1,3}$/.test(s) && Number(s) <= 255 ? Number(s) : null);

function RegistrationPanel({ fields, fixed }: { fields: TFieldRule[]; fixed: readonly string[] }) {
  const { t } = useTranslation('ops');
  const canEdit = useOpsCan('registration.update');
  const update = useUpdateRegistration();
  const [drafts, setDrafts] = useState<Record<string, Draft>>(() => Object.fromEntries(fields.map((f) => [f.field, toDraft(f)])));
  const [isSaved, setSaved] = useState(false);
  const set = (field: string, patch: Partial<Draft>) => { setDrafts((d) => ({ ...d, [field]: { ...d[field]!, ...patch } })); setSaved(false); };
  const invalid = (d: Draft) => { const a = num(d.minLength); const b = num(d.maxLength); return a === null || b === null || b < 1 || a > b; };
  const changed = fields.filter((f) => JSON.stringify(toDraft(f)) !== JSON.stringify(drafts[f.field]));
  const isValid = changed.every((f) => !invalid(drafts[f.field]!));
  const patternLabel = (id: number) => {
    const p = PATTERNS.find((x) => x.id === id);
    return p ? `${p.id} · ${t(`register:reg_pattern_${p.id}`, { range: p.min === p.max ? String(p.min) : `${p.min}–${p.max}` })}` : String(id);
  };
  return (
    <form
      className="ops-panel ops-form"
      data-testid="ops-registration-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!canEdit || !changed.length || !isValid) return;
        update.mutate(
          { fields: changed.map((f) => { const d = drafts[f.field]!; return { field: f.field, enabled: d.enabled, required: d.required, patternId: d.patternId, minLength: num(d.minLength)!, maxLength: num(d.maxLength)! }; }) },
          { onSuccess: () => setSaved(true) },
        );
      }}
    >
      <h2 className="ops-panel__title">{t('reg_title')}</h2>
      <p className="ops-muted">{t('reg_intro')}</p>
      {!canEdit && <p className="ops-note ops-note--info">{t('admin_only')}</p>}
      <TableBox>
        <thead>
          <tr><th>{t('reg_field')}</th><th>{t('reg_shown')}</th><th>{t('reg_required')}</th><th>{t('reg_pattern')}</th><th>{t('reg_min')}</th><th>{t('reg_max')}</th></tr>
        </thead>
        <tbody className="ops-rules">
          {fields.map((f) => {
            const d = drafts[f.field]!;
            // The account's fields and the market's (the server refuses switching them off or optional).
            const isFixed = fixed.includes(f.field);
            const lock = !canEdit || isFixed;
            return (
              <tr key={f.field} data-testid={`ops-reg-row-${f.field}`}>
                <td>{t(`register:field_${f.field}`)} <code className="ops-muted">{f.field}</code></td>
                <td><input type="checkbox" checked={d.enabled} disabled={lock} onChange={(e) => set(f.field, { enabled: e.target.checked })} aria-label={t('reg_shown')} data-testid={`ops-reg-enabled-${f.field}`} /></td>
                <td><input type="checkbox" checked={d.required} disabled={lock || !d.enabled} onChange={(e) => set(f.field, { required: e.target.checked })} aria-label={t('reg_required')} data-testid={`ops-reg-required-${f.field}`} /></td>
                <td>
                  <select className="ops-input" value={d.patternId} disabled={!canEdit} onChange={(e) => set(f.field, { patternId: Number(e.target.value) })} aria-label={t('reg_pattern')} title={patternLabel(d.patternId)} data-testid={`ops-reg-pattern-${f.field}`}>
                    {PATTERNS.map((p) => <option key={p.id} value={p.id}>{patternLabel(p.id)}</option>)}
                  </select>
                </td>
                <td><input className="ops-input" inputMode="numeric" value={d.minLength} disabled={!canEdit} aria-invalid={invalid(d) || undefined} onChange={(e) => set(f.field, { minLength: e.target.value })} aria-label={t('reg_min')} /></td>
                <td><input className="ops-input" inputMode="numeric" value={d.maxLength} disabled={!canEdit} aria-invalid={invalid(d) || undefined} onChange={(e) => set(f.field, { maxLength: e.target.value })} aria-label={t('reg_max')} /></td>
              </tr>
            );
          })}
        </tbody>
      </TableBox>
      {!isValid && <p className="ops-note ops-note--error">{t('reg_bad_lengths')}</p>}
      <ErrorNote error={update.error} testId="ops-registration-error" />
      {isSaved && <SuccessNote testId="ops-registration-saved">{t('brand_saved')}</SuccessNote>}
      {canEdit && (
        <div className="ops-form__actions">
          <button type="submit" className="ops-btn ops-btn--primary" disabled={!changed.length || !isValid || update.isPending} data-testid="ops-registration-save">
            {update.isPending ? t('working') : t('settings_save')}
          </button>
        </div>
      )}
    </form>
  );
}
