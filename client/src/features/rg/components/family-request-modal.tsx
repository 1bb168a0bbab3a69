import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { RG_FAMILY_RELATIONSHIPS, ZRgFamilyRequestBody } from '@portal/contracts/api/rg';
import { errorMessage } from '../../../lib/field-message';
import { schemaOf } from '../../../lib/lazy-schema';
import { FormField, FormMessage } from '../../../ui/form-field';
import { Modal } from '../../../ui/modal';
import { useFamilyRequest } from '../api/rg';

type Relationship = (typeof RG_FAMILY_RELATIONSHIPS)[number];

/**
 * rgFamilyModal (footer, responsible gaming): a spouse, parent or adult child asks for a player's
 * exclusion. An operator reviews every request; the answer is a reference, whether or not the
 * account exists.
 */
export function FamilyRequestModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('rg');
  const send = useFamilyRequest();
  const [v, setV] = useState({ playerAccount: '', requesterName: '', relationship: 'spouse' as Relationship, requesterContact: '', reason: '' });
  const [problems, setProblems] = useState<Record<string, boolean>>({});
  const set = (k: keyof typeof v) => (value: string) => setV((o) => ({ ...o, [k]: value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // The built client ships contract schemas as lazy handles (lib/lazy-schema.ts): load it first (a
    // direct safeParse threw there, and the form sent nothing).
    void schemaOf(ZRgFamilyRequestBody).then((schema) => {
      const r = schema.safeParse(v);
      if (!r.success) return setProblems(Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), true])));
      setProblems({});
      send.mutate(r.data);
    });
  };
  const bad = (k: string) => (problems[k] ? { key: 'rg:rg_family_field_invalid' } : undefined);
  return (
    <Modal name="rgFamilyModal" open={open} onClose={onClose} title={t('rg_family_title')} width={480} height={420}>
      {send.data ? (
        <div className="form" data-testid="rg-family-done">
          <p className="form-notice">{t('rg_family_done', { reference: send.data.reference })}</p>
          <button type="button" className="btn btn--primary btn--block" onClick={onClose}>{t('rg_family_close')}</button>
        </div>
      ) : (
        <form className="form" noValidate onSubmit={submit} data-testid="rg-family-form">
          <p className="cx-muted">{t('rg_family_intro')}</p>
          <FormField name="playerAccount" label={t('rg_family_player')} required value={v.playerAccount} onChange={set('playerAccount')} error={bad('playerAccount')} maxLength={64} />
          <FormField name="requesterName" label={t('rg_family_name')} required value={v.requesterName} onChange={set('requesterName')} error={bad('requesterName')} maxLength={100} autoComplete="name" />
          <label className="form-field">
            <span className="form-field__label">{t('rg_family_relationship')}</span>
            <select className="form-field__input" name="relationship" value={v.relationship} onChange={(e) => set('relationship')(e.target.value)}>
              {RG_FAMILY_RELATIONSHIPS.map((r) => <option key={r} value={r}>{t(`rg_rel_${r}`)}</option>)}
            </select>
          </label>
          <FormField name="requesterContact" label={t('rg_family_contact')} required value={v.requesterContact} onChange={set('requesterContact')} error={bad('requesterContact')} maxLength={100} />
          <label className="form-field">
            <span className="form-field__label">{t('rg_family_reason')}</span>
            <textarea className="form-field__input" name="reason" rows={4} maxLength={1000} value={v.reason} onChange={(e) => set('reason')(e.target.value)} aria-invalid={problems.reason ? true : undefined} />
            {problems.reason && <span className="form-field__error" role="alert">{t('rg_family_reason_invalid')}</span>}
          </label>
          {send.error && <FormMessage message={errorMessage(send.error)} />}
          <button type="submit" className="btn btn--primary btn--block" disabled={send.isPending}>{t('rg_family_submit')}</button>
        </form>
      )}
    </Modal>
  );
}
