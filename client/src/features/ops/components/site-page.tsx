import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MODULE_FLAGS } from '@portal/contracts/domain/constants';
import type { TSiteSettings } from '@portal/contracts/api/ops';
import { useOpsSite, useUpdateSite } from '../api/site';
import { badCidrs, badRegions, parseList } from '../lib/site-form';
import { useOpsCan } from './ops-gate';
import { ErrorNote, OpsField, PageHead, SuccessNote } from './ops-ui';
import { providerWarnings } from '../lib/provider-warnings';

/**
 * /ops/site: maintenance (with its message), blocked addresses and regions, module flags, the
 * forgot-password default and login security. Each save is audited and reaches players' open pages
 * at once (maintenance shows without a reload, flags re-render). Administrators change; others read.
 */
export function SitePage() {
  const { t } = useTranslation('ops');
  const site = useOpsSite();
  const canEdit = useOpsCan('site.update');
  return (
    <section className="ops-page" data-testid="ops-site-page">
      <PageHead title={t('nav_site')} />
      {!canEdit && <p className="ops-note ops-note--info" data-testid="ops-site-read-only">{t('admin_only')}</p>}
      <ErrorNote error={site.error} testId="ops-site-load-error" />
      {site.data && <MaintenancePanel current={site.data} canEdit={canEdit} />}
      {site.data && <AccessPanel key={JSON.stringify([site.data.blockedIps, site.data.blockedRegions])} current={site.data} canEdit={canEdit} />}
      {site.data && <ModulesPanel current={site.data} canEdit={canEdit} />}
      {site.data && <SecurityPanel key={JSON.stringify(site.data.security)} current={site.data} canEdit={canEdit} />}
    </section>
  );
}

function MaintenancePanel({ current, canEdit }: { current: TSiteSettings; canEdit: boolean }) {
  const { t } = useTranslation('ops');
  const update = useUpdateSite();
  const [message, setMessage] = useState(current.maintenanceMessage ?? '');
  return (
    <div className="ops-panel ops-form" data-testid="ops-site-maintenance">
      <h2 className="ops-panel__title">{t('site_maintenance')}</h2>
      <p data-testid="ops-site-maintenance-state">
        <span className={`ops-chip ops-chip--${current.maintenance ? 'warn' : 'success'}`}>{current.maintenance ? t('site_maintenance_on') : t('site_maintenance_off')}</span>
      </p>
      <OpsField label={t('site_maintenance_message')} value={message} onChange={setMessage} testId="ops-site-maintenance-message" multiline maxLength={500} disabled={!canEdit} hint={t('site_maintenance_message_hint')} />
      <ErrorNote error={update.error} testId="ops-site-maintenance-error" />
      {canEdit && (
        <div className="ops-form__actions">
          <button
            type="button"
            className={`ops-btn ${current.maintenance ? 'ops-btn--primary' : 'ops-btn--danger'}`}
            disabled={update.isPending}
            onClick={() => update.mutate({ maintenance: !current.maintenance, maintenanceMessage: message.trim() || null })}
            data-testid="ops-site-maintenance-toggle"
          >
            {current.maintenance ? t('site_maintenance_end') : t('site_maintenance_start')}
          </button>
        </div>
      )}
    </div>
  );
}

function AccessPanel({ current, canEdit }: { current: TSiteSettings; canEdit: boolean }) {
  const { t } = useTranslation('ops');
  const update = useUpdateSite();
  const [ips, setIps] = useState(current.blockedIps.join('\n'));
  const [regions, setRegions] = useState(current.blockedRegions.join(', '));
  const [isSaved, setSaved] = useState(false);
  const ipList = parseList(ips);
  const regionList = parseList(regions).map((r) => r.toUpperCase());
  const badIp = badCidrs(ipList);
  const badRegion = badRegions(regionList);
  return (
    <form
      className="ops-panel ops-form"
      data-testid="ops-site-access"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (badIp.length || badRegion.length || !canEdit) return;
        update.mutate({ blockedIps: ipList, blockedRegions: regionList }, { onSuccess: () => setSaved(true) });
      }}
    >
      <h2 className="ops-panel__title">{t('site_access')}</h2>
      <OpsField
        label={t('site_blocked_ips')}
        value={ips}
        onChange={(v) => { setIps(v); setSaved(false); }}
        testId="ops-site-blocked-ips"
        multiline
        disabled={!canEdit}
        invalid={badIp.length > 0}
        hint={badIp.length ? t('site_bad_entries', { list: badIp.join(', ') }) : t('site_blocked_ips_hint')}
      />
      <OpsField
        label={t('site_blocked_regions')}
        value={regions}
        onChange={(v) => { setRegions(v); setSaved(false); }}
        testId="ops-site-blocked-regions"
        disabled={!canEdit}
        invalid={badRegion.length > 0}
        hint={badRegion.length ? t('site_bad_entries', { list: badRegion.join(', ') }) : current.regionHeader ? t('site_regions_hint', { header: current.regionHeader }) : t('site_regions_off')}
      />
      <ErrorNote error={update.error} testId="ops-site-access-error" />
      {isSaved && <SuccessNote testId="ops-site-access-saved">{t('settings_saved')}</SuccessNote>}
      {canEdit && (
        <div className="ops-form__actions">
          <button type="submit" className="ops-btn ops-btn--primary" disabled={update.isPending} data-testid="ops-site-access-save">
            {update.isPending ? t('working') : t('settings_save')}
          </button>
        </div>
      )}
    </form>
  );
}

function ModulesPanel({ current, canEdit }: { current: TSiteSettings; canEdit: boolean }) {
  const { t } = useTranslation('ops');
  const update = useUpdateSite();
  const forgot = current.whitelabel.CHNGPASSVERIF3 === 'mobile' ? 'mobile' : 'email';
  return (
    <div className="ops-panel ops-form" data-testid="ops-site-modules">
      <h2 className="ops-panel__title">{t('site_modules')}</h2>
      {providerWarnings(current).map((w) => (
        <p key={w.channel} className="ops-note ops-note--warn" data-testid={`ops-site-no-${w.channel}`}>
          {w.channel === 'sms'
            ? t('site_no_sms', { features: w.flags.map((f) => (f === 'CHNGPASSVERIF3' ? t('site_forgot_mobile_feature') : t(`module_${f}`))).join(', ') })
            : t('site_no_mail')}
        </p>
      ))}
      <div className="ops-checks">
        {MODULE_FLAGS.map((f) => (
          <label key={f} className="ops-check">
            <input
              type="checkbox"
              checked={current.modules[f] === true}
              disabled={!canEdit || update.isPending}
              onChange={(e) => update.mutate({ modules: { [f]: e.target.checked } })}
              data-testid={`ops-site-flag-${f}`}
            />
            <span>
              <strong>{t(`module_${f}`)}</strong> <code className="ops-muted">{f}</code>
            </span>
          </label>
        ))}
      </div>
      <label className="ops-filter">
        <span className="ops-field__label">{t('site_forgot_default')}</span>
        <select className="ops-input" value={forgot} disabled={!canEdit || update.isPending} onChange={(e) => update.mutate({ whitelabel: { CHNGPASSVERIF3: e.target.value } })} data-testid="ops-site-forgot-default">
          <option value="email">{t('site_forgot_email')}</option>
          <option value="mobile">{t('site_forgot_mobile')}</option>
        </select>
      </label>
      <ErrorNote error={update.error} testId="ops-site-modules-error" />
    </div>
  );
}

function SecurityPanel({ current, canEdit }: { current: TSiteSettings; canEdit: boolean }) {
  const { t } = useTranslation('ops');
  const update = useUpdateSite();
  const [captcha, setCaptcha] = useState(String(current.security.captchaAfterFailures));
  const [maxAge, setMaxAge] = useState(String(current.security.passwordMaxAgeDays));
  const [botCheck, setBotCheck] = useState(current.security.botCheck);
  const [newIp, setNewIp] = useState(current.security.newIpVerification);
  const captchaN = /^\d{1,3}$/.test(captcha) && Number(captcha) <= 100 ? Number(captcha) : null;
  const maxAgeN = /^\d{1,4}$/.test(maxAge) && Number(maxAge) <= 3650 ? Number(maxAge) : null;
  return (
    <form
      className="ops-panel ops-form"
      data-testid="ops-site-security"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (captchaN === null || maxAgeN === null || !canEdit) return;
        update.mutate({ security: { botCheck, newIpVerification: newIp, captchaAfterFailures: captchaN, passwordMaxAgeDays: maxAgeN } });
      }}
    >
      <h2 className="ops-panel__title">{t('site_security')}</h2>
      <label className="ops-check">
        <input type="checkbox" checked={botCheck} disabled={!canEdit} onChange={(e) => setBotCheck(e.target.checked)} data-testid="ops-site-bot-check" />
        <span>{t('site_bot_check')}</span>
      </label>
      <label className="ops-check">
        <input type="checkbox" checked={newIp} disabled={!canEdit} onChange={(e) => setNewIp(e.target.checked)} data-testid="ops-site-new-ip" />
        <span>{t('site_new_ip')}</span>
      </label>
      <div className="ops-grid">
        <OpsField label={t('site_captcha_after')} value={captcha} onChange={setCaptcha} testId="ops-site-captcha-after" inputMode="numeric" disabled={!canEdit} invalid={captchaN === null} hint={t('site_captcha_after_hint')} />
        <OpsField label={t('site_password_max_age')} value={maxAge} onChange={setMaxAge} testId="ops-site-password-age" inputMode="numeric" disabled={!canEdit} invalid={maxAgeN === null} hint={t('site_password_max_age_hint')} />
      </div>
      <ErrorNote error={update.error} testId="ops-site-security-error" />
      {canEdit && (
        <div className="ops-form__actions">
          <button type="submit" className="ops-btn ops-btn--primary" disabled={update.isPending} data-testid="ops-site-security-save">
            {update.isPending ? t('working') : t('settings_save')}
          </button>
        </div>
      )}
    </form>
  );
}
