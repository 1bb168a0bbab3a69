import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useOpsTime } from '../lib/format';
import { BANNER_GROUPS, POPUP_EXECUTIONS } from '@portal/contracts/domain/constants';
import { PROMOTION_CATEGORIES } from '@portal/contracts/domain/promotions';
import { ANNOUNCEMENT_KINDS, HELP_ANCHOR_PATTERN, MESSAGE_SEGMENTS, type TOpsAnnouncement, type TOpsArticle, type TOpsBanner, type TOpsHelp, type TTexts } from '@portal/contracts/api/ops-content';
import {
  useDeleteAnnouncement, useDeleteArticle, useDeleteBanner, useDeleteHelp, useOpsAnnouncements, useOpsArticles, useOpsBanners, useOpsCampaigns, useOpsHelp,
  useSaveAnnouncement, useSaveArticle, useSaveBanner, useSaveHelp, useSendCampaign, useUploadImage,
} from '../api/content';
import { useBrandOffset } from '../../../lib/whitelabel';
import { fromLocalInput, toLocalInput } from '../lib/content-form';
import { isApiError } from '../../../lib/api';
import { useOpsCan } from './ops-gate';
import { EmptyRow, ErrorNote, OpsField, PageHead, Pager, StatusChip, SuccessNote, TableBox, Tabs } from './ops-ui';

/** A help topic's anchor as the server takes it (ZHelpAnchor). */
const HELP_ANCHOR = HELP_ANCHOR_PATTERN;

type Section = 'announcements' | 'banners' | 'help' | 'news' | 'messages';
const SECTIONS: readonly Section[] = ['announcements', 'banners', 'help', 'news', 'messages'];
const EMPTY: TTexts = { title: '', content: '' };

/**
 * /ops/content: what players read, written in EN and TY (TY is needed to publish): announcements
 * (notices, popups with their execution, promotions; a schedule window), banners with an uploaded
 * image, help articles, news, and marketing messages to players. Each change is audited and shows on
 * players' open pages at once.
 */
export function ContentPage() {
  const { t } = useTranslation('ops');
  const [section, setSection] = useState<Section>('announcements');
  return (
    <section className="ops-page" data-testid="ops-content-page">
      <PageHead title={t('nav_content')} />
      <Tabs value={section} options={SECTIONS.map((s) => ({ value: s, label: t(`content_tab_${s}`) }))} onChange={setSection} label={t('nav_content')} testPrefix="ops-content-tab" />
      {section === 'announcements' && <AnnouncementsSection />}
      {section === 'banners' && <BannersSection />}
      {section === 'help' && <HelpSection />}
      {section === 'news' && <NewsSection />}
      {section === 'messages' && <MessagesSection />}
    </section>
  );
}

/** The EN and TY texts side by side. */
function BilingualTexts({ value, onChange, testPrefix, contentLabel, tyRequired }: {
  value: { en: TTexts; ty: TTexts }; onChange: (v: { en: TTexts; ty: TTexts }) => void; testPrefix: string; contentLabel: string; tyRequired: boolean;
}) {
  const { t } = useTranslation('ops');
  return (
    <div className="ops-grid ops-grid--two">
      {(['en', 'ty'] as const).map((lang) => (
        <fieldset key={lang} className="ops-fieldset">
          <legend>{t(`content_lang_${lang}`)}</legend>
          <OpsField label={t('content_title')} value={value[lang].title} maxLength={200} required={lang === 'en' || tyRequired}
            onChange={(v) => onChange({ ...value, [lang]: { ...value[lang], title: v } })} testId={`${testPrefix}-${lang}-title`} />
          <OpsField label={contentLabel} value={value[lang].content} maxLength={5000} multiline required={lang === 'en' || tyRequired}
            onChange={(v) => onChange({ ...value, [lang]: { ...value[lang], content: v } })} testId={`${testPrefix}-${lang}-content`} />
        </fieldset>
      ))}
    </div>
  );
}

function Select<T extends string>({ label, value, options, onChange, testId, disabled }: { label: string; value: T; options: ReadonlyArray<{ value: T; label: string }>; onChange: (v: T) => void; testId: string; disabled?: boolean }) {
  return (
    <label className="ops-field">
      <span className="ops-field__label">{label}</span>
      <select className="ops-input" value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as T)} data-testid={testId}>
        {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
    </label>
  );
}

/** Published, draft, or (for a scheduled announcement) published but not started yet or already ended. */
export function publicationState(published: boolean, window: { startAt: string; endAt: string | null } | null, now = Date.now()): 'published' | 'draft' | 'scheduled' | 'ended' {
  if (!published) return 'draft';
  if (window && Date.parse(window.startAt) > now) return 'scheduled';
  if (window?.endAt && Date.parse(window.endAt) <= now) return 'ended';
  return 'published';
}

const PUBLICATION_TONE = { published: 'success', draft: 'muted', scheduled: 'info', ended: 'muted' } as const;

function Published({ published, window = null }: { published: boolean; window?: { startAt: string; endAt: string | null } | null }) {
  const { t } = useTranslation('ops');
  const state = publicationState(published, window);
  return <StatusChip tone={PUBLICATION_TONE[state]}>{t(`content_${state}`)}</StatusChip>;
}

function Panel({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <div className="ops-panel">
      <h2 className="ops-panel__title">{title}</h2>
      {children}
    </div>
  );
}

/** The table's one row when it has none: loading, or nothing yet. */
function NoRows({ list, cols }: { list: { data?: { list: readonly unknown[] }; isPending: boolean }; cols: number }) {
  const { t } = useTranslation('ops');
  if ((list.data?.list ?? []).length) return null;
  return <EmptyRow cols={cols}>{list.isPending ? t('loading') : t('content_empty')}</EmptyRow>;
}

/** A TY title, or the warning that it is missing (TY is needed to publish). */
function TyTitle({ title }: { title: string }) {
  const { t } = useTranslation('ops');
  return <>{title || <StatusChip tone="warn">{t('content_ty_missing')}</StatusChip>}</>;
}

/** Delete, after the operator confirms. */
function DeleteButton({ busy, onDelete }: { busy: boolean; onDelete: () => void }) {
  const { t } = useTranslation('ops');
  return (
    <button type="button" className="ops-btn ops-btn--danger" disabled={busy} onClick={() => { if (window.confirm(t('content_delete_confirm'))) onDelete(); }}>{t('content_delete')}</button>
  );
}

function PublishCheck({ checked, onChange, testId }: { checked: boolean; onChange: (v: boolean) => void; testId?: string }) {
  const { t } = useTranslation('ops');
  return (
    <label className="ops-check"><input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} data-testid={testId} /><span>{t('content_publish_now')}</span></label>
  );
}

/** Cancel and save under an edit form. */
function FormActions({ onCancel, disabled, saveTestId }: { onCancel: () => void; disabled: boolean; saveTestId: string }) {
  const { t } = useTranslation('ops');
  return (
    <div className="ops-form__actions">
      <button type="button" className="ops-btn" onClick={onCancel}>{t('content_cancel')}</button>
      <button type="submit" className="ops-btn ops-btn--primary" disabled={disabled} data-testid={saveTestId}>{t('content_save')}</button>
    </div>
  );
}

// ---- announcements ----

/** A promotion notice's category (the player promotions page's tabs) by its name there; an unknown code as stored. */
function usePromotionCategoryLabel(): (code: string) => string {
  const { t } = useTranslation('promotions');
  return (code) => ((PROMOTION_CATEGORIES as readonly string[]).includes(code) ? t(`category_${code}`) : code);
}

type AnnForm = { id: number | null; kind: TOpsAnnouncement['kind']; execution: 'A' | 'B' | 'F'; promotionType: string; start: string; end: string; sort: string; published: boolean; en: TTexts; ty: TTexts };
const newAnn = (offset: number): AnnForm => ({ id: null, kind: 'PL', execution: 'A', promotionType: '', start: toLocalInput(new Date().toISOString(), offset), end: '', sort: '0', published: true, en: EMPTY, ty: EMPTY });

function AnnouncementsSection() {
  const formatDateTime = useOpsTime();
  const offset = useBrandOffset();
  const categoryLabel = usePromotionCategoryLabel();
  const { t } = useTranslation('ops');
  const canEdit = useOpsCan('content.manage');
  const list = useOpsAnnouncements();
  const save = useSaveAnnouncement();
  const remove = useDeleteAnnouncement();
  const [form, setForm] = useState<AnnForm | null>(null);
  const [dateChecked, setDateChecked] = useState(false);
  const [flash, setFlash] = useState('');
  const submit = () => {
    if (!form) return;
    // A new try forgets the last answer: the server's "EN title required" stayed beside a date problem
    // found here after the title was filled.
    save.reset();
    const sort = sortOf(form.sort);
    if (sort === null) return;
    // The dates checked here, in the console's language (the browser's English bubble, or the server's
    // English rule, said it before).
    setDateChecked(true);
    if (annDateProblem(form) !== null) return;
    setFlash('');
    save.mutate({
      id: form.id,
      body: {
        kind: form.kind, execution: form.kind === 'PU' ? form.execution : null, promotionType: form.kind === 'PR' && form.promotionType.trim() ? form.promotionType.trim() : null,
        startAt: fromLocalInput(form.start, offset), endAt: form.end ? fromLocalInput(form.end, offset) : null, sort, published: form.published, en: form.en, ty: form.ty,
      },
    }, { onSuccess: () => { setForm(null); setFlash(t('content_saved')); } });
  };
  return (
    <>
      <Panel title={t('content_tab_announcements')}>
        <SuccessNote>{flash}</SuccessNote>
        <ErrorNote error={list.error ?? remove.error} />
        {canEdit && !form && <button type="button" className="ops-btn ops-btn--primary" onClick={() => { save.reset(); setDateChecked(false); setForm(newAnn(offset)); }} data-testid="ops-ann-new">{t('content_new')}</button>}
        <TableBox busy={list.isFetching}>
          <thead><tr><th>{t('content_kind')}</th><th>{t('content_title')}</th><th>{t('content_lang_ty')}</th><th>{t('content_window')}</th><th>{t('content_status')}</th><th /></tr></thead>
          <tbody>
            <NoRows list={list} cols={6} />
            {(list.data?.list ?? []).map((a) => (
              <tr key={a.id} data-testid={`ops-ann-${a.id}`}>
                <td>{t(`content_kind_${a.kind}`)}{a.execution ? ` · ${t(`content_exec_${a.execution}`)}` : ''}{a.promotionType ? ` · ${categoryLabel(a.promotionType)}` : ''}</td>
                <td className="strong ops-wrap">{a.en.title}</td>
                <td className="ops-wrap"><TyTitle title={a.ty.title} /></td>
                <td className="ops-muted">{formatDateTime(a.startAt)} – {a.endAt ? formatDateTime(a.endAt) : t('content_open_end')}</td>
                <td><Published published={a.published} window={a} /></td>
                <td>
                  <span className="ops-inline">
                    {canEdit && <button type="button" className="ops-btn" onClick={() => { save.reset(); setDateChecked(false); setForm({ id: a.id, kind: a.kind, execution: a.execution ?? 'A', promotionType: a.promotionType ?? '', start: toLocalInput(a.startAt, offset), end: a.endAt ? toLocalInput(a.endAt, offset) : '', sort: String(a.sort), published: a.published, en: a.en, ty: a.ty }); }} data-testid={`ops-ann-${a.id}-edit`}>{t('content_edit')}</button>}
                    {canEdit && <DeleteButton busy={remove.isPending} onDelete={() => remove.mutate(a.id)} />}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </TableBox>
      </Panel>
      {form && (
        <Panel title={form.id === null ? t('content_new') : t('content_edit')}>
          <form className="ops-form" noValidate onSubmit={(e) => { e.preventDefault(); submit(); }} data-testid="ops-ann-form">
            <div className="ops-grid">
              <Select label={t('content_kind')} value={form.kind} options={ANNOUNCEMENT_KINDS.map((k) => ({ value: k, label: t(`content_kind_${k}`) }))} onChange={(kind) => setForm({ ...form, kind })} testId="ops-ann-kind" />
              {form.kind === 'PU' && <Select label={t('content_execution')} value={form.execution} options={POPUP_EXECUTIONS.map((x) => ({ value: x, label: t(`content_exec_${x}`) }))} onChange={(execution) => setForm({ ...form, execution })} testId="ops-ann-execution" />}
              {form.kind === 'PR' && (
                <Select label={t('content_promotion_type')} value={form.promotionType} onChange={(promotionType) => setForm({ ...form, promotionType })} testId="ops-ann-promotion-type"
                  options={[
                    { value: '', label: t('content_no_category') },
                    ...PROMOTION_CATEGORIES.map((c) => ({ value: c as string, label: categoryLabel(c) })),
                    // A code stored before the list (or by hand) stays selectable as it is.
                    ...(form.promotionType && !(PROMOTION_CATEGORIES as readonly string[]).includes(form.promotionType) ? [{ value: form.promotionType, label: form.promotionType }] : []),
                  ]} />
              )}
              <DateTime label={t('content_start')} value={form.start} onChange={(start) => setForm({ ...form, start })} testId="ops-ann-start" required
                problem={dateChecked && (annDateProblem(form) === 'start' || annDateProblem(form) === 'startYear') ? t(DATE_PROBLEM_TEXT[annDateProblem(form)!]) : undefined} />
              <DateTime label={t('content_end')} value={form.end} onChange={(end) => setForm({ ...form, end })} testId="ops-ann-end"
                problem={dateChecked && (annDateProblem(form) === 'end' || annDateProblem(form) === 'endYear') ? t(DATE_PROBLEM_TEXT[annDateProblem(form)!]) : undefined} />
              <SortField value={form.sort} onChange={(sort) => setForm({ ...form, sort })} testId="ops-ann-sort" />
            </div>
            <BilingualTexts value={form} onChange={(v) => setForm({ ...form, ...v })} testPrefix="ops-ann" contentLabel={t('content_text')} tyRequired={form.published} />
            <PublishCheck checked={form.published} onChange={(published) => setForm({ ...form, published })} testId="ops-ann-published" />
            <ErrorNote error={save.error} testId="ops-ann-error" />
            <FormActions onCancel={() => setForm(null)} disabled={save.isPending} saveTestId="ops-ann-save" />
          </form>
        </Panel>
      )}
    </>
  );
}

function DateTime({ label, value, onChange, testId, required, problem }: { label: string; value: string; onChange: (v: string) => void; testId: string; required?: boolean; problem?: string }) {
  return (
    <label className={`ops-field${problem ? ' is-invalid' : ''}`}>
      <span className="ops-field__label">{label}</span>
      <input className="ops-input" type="datetime-local" value={value} required={required} aria-invalid={problem ? true : undefined} onChange={(e) => onChange(e.target.value)} data-testid={testId} />
      {problem && <span className="ops-field__hint" role="alert" data-testid={`${testId}-problem`}>{problem}</span>}
    </label>
  );
}

/**
 * What is wrong with an announcement's dates: no start, a date before the year 2000 (0026 typed for 2026:
 * the server refuses it, and said so with its field's code), or an end not after the start
 * (datetime-local values compare as text).
 */
export function annDateProblem(f: { start: string; end: string }): 'start' | 'startYear' | 'end' | 'endYear' | null {
  if (!f.start) return 'start';
  if (f.start.slice(0, 4) < '2000') return 'startYear';
  if (f.end && f.end.slice(0, 4) < '2000') return 'endYear';
  if (f.end && f.end <= f.start) return 'end';
  return null;
}
const DATE_PROBLEM_TEXT = { start: 'content_start_required', startYear: 'content_year_from_2000', end: 'content_end_after_start', endYear: 'content_year_from_2000' } as const;

// ---- banners ----

type BannerForm = { id: number | null; group: TOpsBanner['group']; imageId: number | null; imageUrl: string; titleEn: string; titleTy: string; linkageType: '' | 'URL' | 'ROUTE' | 'GAME'; linkage: string; sort: string; published: boolean };

function ImagePicker({ url, onUploaded, testId }: { url: string; onUploaded: (img: { id: number; url: string }) => void; testId: string }) {
  const { t } = useTranslation('ops');
  const upload = useUploadImage();
  return (
    <div className="ops-field">
      <span className="ops-field__label">{t('content_image')}</span>
      {url && <img className="ops-content-thumb" src={url} alt="" />}
      <input type="file" accept="image/png,image/jpeg,image/webp" onChange={(e) => { const f = e.target.files?.[0]; if (f) upload.mutate(f, { onSuccess: onUploaded }); }} data-testid={testId} />
      <span className="ops-field__hint">{upload.isPending ? t('loading') : t('content_image_hint')}</span>
      {/* A file that is not a PNG, JPG or WebP by its bytes (415): said so, not "unsupported request". */}
      {isApiError(upload.error) && upload.error.code === 'UNSUPPORTED_MEDIA_TYPE'
        ? <p className="ops-note ops-note--error" role="alert" data-testid={`${testId}-error`}>{t('content_image_not_image')}</p>
        : <ErrorNote error={upload.error} testId={`${testId}-error`} />}
    </div>
  );
}

function BannersSection() {
  const { t } = useTranslation('ops');
  const canEdit = useOpsCan('content.manage');
  const list = useOpsBanners();
  const save = useSaveBanner();
  const remove = useDeleteBanner();
  const [form, setForm] = useState<BannerForm | null>(null);
  const submit = () => {
    // A new banner needs its image; an edit without a new one keeps the banner's picture (imageId null).
    if (!form || (form.id === null && form.imageId === null)) return;
    save.reset();
    const sort = sortOf(form.sort);
    if (sort === null) return;
    save.mutate({
      id: form.id,
      body: { group: form.group, imageId: form.imageId, titleEn: form.titleEn, titleTy: form.titleTy, linkageType: form.linkageType || null, linkage: form.linkageType ? form.linkage : null, sort, published: form.published },
    }, { onSuccess: () => setForm(null) });
  };
  return (
    <>
      <Panel title={t('content_tab_banners')}>
        <ErrorNote error={list.error ?? remove.error} />
        {canEdit && !form && <button type="button" className="ops-btn ops-btn--primary" onClick={() => { save.reset(); setForm({ id: null, group: 'w_home', imageId: null, imageUrl: '', titleEn: '', titleTy: '', linkageType: '', linkage: '', sort: '0', published: true }); }} data-testid="ops-banner-new">{t('content_new')}</button>}
        <TableBox busy={list.isFetching}>
          <thead><tr><th>{t('content_image')}</th><th>{t('content_group')}</th><th>{t('content_title')}</th><th>{t('content_link')}</th><th>{t('content_status')}</th><th /></tr></thead>
          <tbody>
            <NoRows list={list} cols={6} />
            {(list.data?.list ?? []).map((b) => (
              <tr key={b.id} data-testid={`ops-banner-${b.id}`}>
                <td><img className="ops-content-thumb" src={b.url} alt="" /></td>
                <td className="mono">{b.group}</td>
                <td className="ops-wrap"><span className="strong">{b.titleEn}</span><br /><span className="ops-muted">{b.titleTy || t('content_ty_missing')}</span></td>
                <td className="mono ops-muted">{b.linkageType ? `${b.linkageType} ${b.linkage}` : '—'}</td>
                <td><Published published={b.published} /></td>
                <td>
                  <span className="ops-inline">
                    {canEdit && <button type="button" className="ops-btn" onClick={() => { save.reset(); setForm({ id: b.id, group: b.group, imageId: b.imageId, imageUrl: b.url, titleEn: b.titleEn, titleTy: b.titleTy, linkageType: b.linkageType ?? '', linkage: b.linkage ?? '', sort: String(b.sort), published: b.published }); }}>{t('content_edit')}</button>}
                    {canEdit && <DeleteButton busy={remove.isPending} onDelete={() => remove.mutate(b.id)} />}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </TableBox>
      </Panel>
      {form && (
        <Panel title={form.id === null ? t('content_new') : t('content_edit')}>
          <form className="ops-form" onSubmit={(e) => { e.preventDefault(); submit(); }} data-testid="ops-banner-form">
            <ImagePicker url={form.imageUrl} onUploaded={(img) => setForm({ ...form, imageId: img.id, imageUrl: img.url })} testId="ops-banner-image" />
            <div className="ops-grid">
              <Select label={t('content_group')} value={form.group} options={BANNER_GROUPS.map((g) => ({ value: g, label: g }))} onChange={(group) => setForm({ ...form, group })} testId="ops-banner-group" />
              <OpsField label={`${t('content_title')} (${t('content_lang_en')})`} value={form.titleEn} required maxLength={200} onChange={(titleEn) => setForm({ ...form, titleEn })} testId="ops-banner-title-en" />
              <OpsField label={`${t('content_title')} (${t('content_lang_ty')})`} value={form.titleTy} required={form.published} maxLength={200} onChange={(titleTy) => setForm({ ...form, titleTy })} testId="ops-banner-title-ty" />
              <Select label={t('content_link_type')} value={form.linkageType} options={[{ value: '', label: t('content_link_none') }, { value: 'ROUTE', label: 'ROUTE' }, { value: 'URL', label: 'URL' }, { value: 'GAME', label: 'GAME' }]} onChange={(linkageType) => setForm({ ...form, linkageType })} testId="ops-banner-link-type" />
              {form.linkageType && <OpsField label={t('content_link')} value={form.linkage} maxLength={500} required onChange={(linkage) => setForm({ ...form, linkage })} testId="ops-banner-link" />}
              <SortField value={form.sort} onChange={(sort) => setForm({ ...form, sort })} testId="ops-banner-sort" />
            </div>
            <PublishCheck checked={form.published} onChange={(published) => setForm({ ...form, published })} />
            <ErrorNote error={save.error} testId="ops-banner-error" />
            <FormActions onCancel={() => setForm(null)} disabled={save.isPending || (form.id === null && form.imageId === null)} saveTestId="ops-banner-save" />
          </form>
        </Panel>
      )}
    </>
  );
}

// ---- help centre ----

function HelpSection() {
  const { t } = useTranslation('ops');
  const canEdit = useOpsCan('content.manage');
  const list = useOpsHelp();
  const save = useSaveHelp();
  const remove = useDeleteHelp();
  const [form, setForm] = useState<(TOpsHelp & { isNew: boolean; sortText: string }) | null>(null);
  // The anchor's rule checked here, said in the console's language (the server's regex showed in English).
  const [isBadAnchor, setBadAnchor] = useState(false);
  return (
    <>
      <Panel title={t('content_tab_help')}>
        <ErrorNote error={list.error ?? remove.error} />
        {canEdit && !form && <button type="button" className="ops-btn ops-btn--primary" onClick={() => { save.reset(); setForm({ anchor: '', sort: 0, sortText: '0', en: EMPTY, ty: EMPTY, isNew: true }); }} data-testid="ops-help-new">{t('content_new')}</button>}
        <TableBox busy={list.isFetching}>
          <thead><tr><th>{t('content_anchor')}</th><th>{t('content_title')}</th><th>{t('content_lang_ty')}</th><th /></tr></thead>
          <tbody>
            <NoRows list={list} cols={4} />
            {(list.data?.list ?? []).map((h) => (
              <tr key={h.anchor} data-testid={`ops-help-${h.anchor}`}>
                <td className="mono">{h.anchor}</td>
                <td className="strong ops-wrap">{h.en.title}</td>
                <td className="ops-wrap"><TyTitle title={h.ty.title} /></td>
                <td>
                  <span className="ops-inline">
                    {canEdit && <button type="button" className="ops-btn" onClick={() => { save.reset(); setForm({ ...h, sortText: String(h.sort), isNew: false }); }}>{t('content_edit')}</button>}
                    {canEdit && <DeleteButton busy={remove.isPending} onDelete={() => remove.mutate(h.anchor)} />}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </TableBox>
      </Panel>
      {form && (
        <Panel title={form.isNew ? t('content_new') : t('content_edit')}>
          <form className="ops-form" onSubmit={(e) => { e.preventDefault(); save.reset(); const sort = sortOf(form.sortText); if (sort === null) return; if (!HELP_ANCHOR.test(form.anchor.trim())) return setBadAnchor(true); save.mutate({ anchor: form.anchor.trim(), sort, en: form.en, ty: form.ty, create: form.isNew }, { onSuccess: () => setForm(null) }); }}>
            <div className="ops-grid">
              <OpsField label={t('content_anchor')} value={form.anchor} required disabled={!form.isNew} maxLength={48} hint={t('content_anchor_hint')} onChange={(anchor) => { setBadAnchor(false); setForm({ ...form, anchor }); }} testId="ops-help-anchor"
                invalid={isBadAnchor} problem={t('content_anchor_hint')} />
              <SortField value={form.sortText} onChange={(sortText) => setForm({ ...form, sortText })} testId="ops-help-sort" />
            </div>
            <BilingualTexts value={form} onChange={(v) => setForm({ ...form, ...v })} testPrefix="ops-help" contentLabel={t('content_text')} tyRequired />
            <ErrorNote error={save.error} testId="ops-help-error" />
            <FormActions onCancel={() => setForm(null)} disabled={save.isPending} saveTestId="ops-help-save" />
          </form>
        </Panel>
      )}
    </>
  );
}

// ---- news ----

type ArticleForm = { id: number | null; published: boolean; coverImageId: number | null; coverUrl: string; en: TOpsArticle['en']; ty: TOpsArticle['ty'] };
const EMPTY_ARTICLE = { title: '', summary: '', body: '' };

/** The texts an article needs: EN always, TY once it is published (as the fields say). */
export function newsMissing(f: { published: boolean; en: { title: string; body: string }; ty: { title: string; body: string } }): string[] {
  return (['en', 'ty'] as const).flatMap((lang) => (lang === 'en' || f.published ? (['title', 'body'] as const).filter((k) => !f[lang][k].trim()).map((k) => `${lang}.${k}`) : []));
}

function NewsSection() {
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const canEdit = useOpsCan('content.manage');
  const list = useOpsArticles();
  const save = useSaveArticle();
  const remove = useDeleteArticle();
  const [form, setForm] = useState<ArticleForm | null>(null);
  const [isNewsTried, setNewsTried] = useState(false);
  const setText = (lang: 'en' | 'ty', k: 'title' | 'summary' | 'body', v: string) => form && setForm({ ...form, [lang]: { ...form[lang], [k]: v } });
  return (
    <>
      <Panel title={t('content_tab_news')}>
        <ErrorNote error={list.error ?? remove.error} />
        {canEdit && !form && <button type="button" className="ops-btn ops-btn--primary" onClick={() => { save.reset(); setNewsTried(false); setForm({ id: null, published: true, coverImageId: null, coverUrl: '', en: EMPTY_ARTICLE, ty: EMPTY_ARTICLE }); }} data-testid="ops-news-new">{t('content_new')}</button>}
        <TableBox busy={list.isFetching}>
          <thead><tr><th>{t('content_title')}</th><th>{t('content_lang_ty')}</th><th>{t('content_published_at')}</th><th>{t('content_status')}</th><th /></tr></thead>
          <tbody>
            <NoRows list={list} cols={5} />
            {(list.data?.list ?? []).map((a) => (
              <tr key={a.id} data-testid={`ops-news-${a.id}`}>
                <td className="strong ops-wrap">{a.en.title}</td>
                <td className="ops-wrap"><TyTitle title={a.ty.title} /></td>
                <td className="ops-muted">{a.publishedAt ? formatDateTime(a.publishedAt) : '—'}</td>
                <td><Published published={a.published} /></td>
                <td>
                  <span className="ops-inline">
                    {canEdit && <button type="button" className="ops-btn" onClick={() => { save.reset(); setNewsTried(false); setForm({ id: a.id, published: a.published, coverImageId: a.coverImageId, coverUrl: a.coverImageId ? `/wps/content/images/${a.coverImageId}` : '', en: a.en, ty: a.ty }); }}>{t('content_edit')}</button>}
                    {canEdit && <DeleteButton busy={remove.isPending} onDelete={() => remove.mutate(a.id)} />}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </TableBox>
      </Panel>
      {form && (
        <Panel title={form.id === null ? t('content_new') : t('content_edit')}>
          <form className="ops-form" noValidate onSubmit={(e) => {
            e.preventDefault();
            // Checked here in the console's language (the browser's own bubble spoke English in TY).
            setNewsTried(true);
            save.reset();
            if (newsMissing(form).length > 0) return;
            save.mutate({ id: form.id, body: { published: form.published, coverImageId: form.coverImageId, en: form.en, ty: form.ty } }, { onSuccess: () => setForm(null) });
          }}>
            <ImagePicker url={form.coverUrl} onUploaded={(img) => setForm({ ...form, coverImageId: img.id, coverUrl: img.url })} testId="ops-news-cover" />
            <div className="ops-grid ops-grid--two">
              {(['en', 'ty'] as const).map((lang) => (
                <fieldset key={lang} className="ops-fieldset">
                  <legend>{t(`content_lang_${lang}`)}</legend>
                  <OpsField label={t('content_title')} value={form[lang].title} maxLength={200} required={lang === 'en' || form.published} onChange={(v) => setText(lang, 'title', v)} testId={`ops-news-${lang}-title`}
                    invalid={isNewsTried && newsMissing(form).includes(`${lang}.title`)} problem={t('field_fill_in')} />
                  <OpsField label={t('content_summary')} value={form[lang].summary} maxLength={500} multiline onChange={(v) => setText(lang, 'summary', v)} testId={`ops-news-${lang}-summary`} />
                  <OpsField label={t('content_body')} value={form[lang].body} maxLength={20000} multiline required={lang === 'en' || form.published} onChange={(v) => setText(lang, 'body', v)} testId={`ops-news-${lang}-body`}
                    invalid={isNewsTried && newsMissing(form).includes(`${lang}.body`)} problem={t('field_fill_in')} />
                </fieldset>
              ))}
            </div>
            <PublishCheck checked={form.published} onChange={(published) => setForm({ ...form, published })} />
            <ErrorNote error={save.error} testId="ops-news-error" />
            <FormActions onCancel={() => setForm(null)} disabled={save.isPending} saveTestId="ops-news-save" />
          </form>
        </Panel>
      )}
    </>
  );
}

// ---- marketing messages ----

function MessagesSection() {
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const canSend = useOpsCan('messages.send');
  const [pageNo, setPageNo] = useState(1);
  const list = useOpsCampaigns(pageNo);
  const send = useSendCampaign();
  const [segment, setSegment] = useState<(typeof MESSAGE_SEGMENTS)[number]>('all');
  const [accounts, setAccounts] = useState('');
  const [texts, setTexts] = useState({ en: EMPTY, ty: EMPTY });
  const [flash, setFlash] = useState('');
  const submit = () => {
    setFlash('');
    if (!window.confirm(t('content_send_confirm'))) return;
    const list = accounts.split(/[\s,]+/).map((a) => a.trim()).filter(Boolean);
    send.mutate({ segment, ...(segment === 'accounts' ? { accounts: list } : {}), ...texts }, {
      onSuccess: (c) => {
        setFlash(t('content_sent', { recipients: c.recipients, skipped: c.skippedExcluded }));
        setTexts({ en: EMPTY, ty: EMPTY });
      },
    });
  };
  return (
    <>
      {canSend && (
        <Panel title={t('content_send_title')}>
          <p className="ops-note ops-note--info">{t('content_rg_note')}</p>
          <form className="ops-form" onSubmit={(e) => { e.preventDefault(); submit(); }} data-testid="ops-campaign-form">
            <div className="ops-grid">
              <Select label={t('content_segment')} value={segment} options={MESSAGE_SEGMENTS.map((s) => ({ value: s, label: t(`content_segment_${s}`) }))} onChange={setSegment} testId="ops-campaign-segment" />
            </div>
            {segment === 'accounts' && <OpsField label={t('content_accounts')} value={accounts} multiline required hint={t('content_accounts_hint')} onChange={setAccounts} testId="ops-campaign-accounts" />}
            <BilingualTexts value={texts} onChange={setTexts} testPrefix="ops-campaign" contentLabel={t('content_text')} tyRequired />
            <SuccessNote testId="ops-campaign-flash">{flash}</SuccessNote>
            <ErrorNote error={send.error} testId="ops-campaign-error" />
            <div className="ops-form__actions">
              <button type="submit" className="ops-btn ops-btn--primary" disabled={send.isPending} data-testid="ops-campaign-send">{t('content_send')}</button>
            </div>
          </form>
        </Panel>
      )}
      <Panel title={t('content_sent_title')}>
        <ErrorNote error={list.error} />
        <TableBox busy={list.isFetching}>
          <thead><tr><th>{t('content_sent_at')}</th><th>{t('content_segment')}</th><th>{t('content_title')}</th><th>{t('content_recipients')}</th><th>{t('content_skipped')}</th><th>{t('content_operator')}</th></tr></thead>
          <tbody>
            <NoRows list={list} cols={6} />
            {(list.data?.list ?? []).map((c) => (
              <tr key={c.id}>
                <td className="ops-muted">{formatDateTime(c.createdAt)}</td>
                <td>{t(`content_segment_${c.segment}`)}</td>
                <td className="strong ops-wrap">{c.en.title}<br /><span className="ops-muted">{c.ty.title}</span></td>
                <td className="num">{c.recipients}</td>
                <td className="num">{c.skippedExcluded}</td>
                <td>{c.operator}</td>
              </tr>
            ))}
          </tbody>
        </TableBox>
        {list.data && <Pager pageNo={pageNo} pageSize={20} total={list.data.total} onPage={setPageNo} testPrefix="ops-campaigns-pager" />}
      </Panel>
    </>
  );
}

/**
 * The order typed in a content form: empty is 0, a whole number from -10,000 to 10,000 is itself, anything
 * else null (the field says so and the form is not sent; "abc" used to be saved as 0 without a word).
 */
export function sortOf(text: string): number | null {
  const v = text.trim();
  if (v === '') return 0;
  return /^-?\d{1,5}$/.test(v) && Math.abs(Number(v)) <= 10_000 ? Number(v) : null;
}

function SortField({ value, onChange, testId }: { value: string; onChange: (v: string) => void; testId: string }) {
  const { t } = useTranslation('ops');
  const bad = sortOf(value) === null;
  return <OpsField label={t('games_order')} value={value} inputMode="numeric" invalid={bad} hint={bad ? t('content_sort_whole') : undefined} onChange={onChange} testId={testId} />;
}
