import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OPERATOR_ROLES, type OperatorRole, type TOperatorRow } from '@portal/contracts/api/ops';
import { useCreateOperator, useOperators, useUpdateOperator } from '../api/operators';
import { useOpsTime } from '../lib/format';
import { useOpsSession } from '../api/get-session';
import { EmptyRow, ErrorNote, OpsField, PageHead, StatusChip, SuccessNote, TableBox } from './ops-ui';

function RoleChecks({ value, onChange, disabled, testPrefix, locked }: { value: OperatorRole[]; onChange: (r: OperatorRole[]) => void; disabled?: boolean; testPrefix: string; locked?: OperatorRole }) {
  const { t } = useTranslation('ops');
  return (
    <div className="ops-roles">
      {OPERATOR_ROLES.map((r) => (
        <label key={r} className="ops-check">
          <input
            type="checkbox"
            checked={value.includes(r)}
            disabled={disabled || r === locked}
            title={r === locked ? t('operators_own_admin') : undefined}
            onChange={(e) => onChange(e.target.checked ? [...value, r] : value.filter((x) => x !== r))}
            data-testid={`${testPrefix}-${r}`}
          />
          <span>{t(`role_${r}`)}</span>
        </label>
      ))}
    </div>
  );
}

/** /ops/operators (administrators): create operators (one-time password), set roles, disable, reset the authenticator. */
export function OperatorsPage() {
  const { t } = useTranslation('ops');
  const list = useOperators();
  const create = useCreateOperator();
  const [username, setUsername] = useState('');
  const [roles, setRoles] = useState<OperatorRole[]>([]);
  const rows = list.data?.list ?? [];
  const isValid = /^[a-z0-9_]{3,32}$/.test(username.trim().toLowerCase()) && roles.length > 0;
  return (
    <section className="ops-page" data-testid="ops-operators-page">
      <PageHead title={t('nav_operators')} />
      <form
        className="ops-panel ops-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (isValid && !create.isPending) create.mutate({ username: username.trim().toLowerCase(), roles }, { onSuccess: () => { setUsername(''); setRoles([]); } });
        }}
      >
        <h2 className="ops-panel__title">{t('operators_create')}</h2>
        <OpsField label={t('field_username')} value={username} onChange={setUsername} testId="ops-operator-new-username" maxLength={32} hint={t('operators_username_hint')} />
        <RoleChecks value={roles} onChange={setRoles} testPrefix="ops-operator-new-role" />
        <ErrorNote error={create.error} testId="ops-operator-create-error" />
        {create.data && (
          <SuccessNote testId="ops-operator-created">
            {t('operators_created', { username: create.data.operator.username })} <code data-testid="ops-operator-otp">{create.data.password}</code>
          </SuccessNote>
        )}
        <div className="ops-form__actions">
          <button type="submit" className="ops-btn ops-btn--primary" disabled={!isValid || create.isPending} data-testid="ops-operator-create">
            {create.isPending ? t('working') : t('operators_create')}
          </button>
        </div>
      </form>
      <ErrorNote error={list.error} testId="ops-operators-error" />
      <TableBox busy={list.isFetching}>
        <thead>
          <tr>
            <th>{t('field_username')}</th>
            <th>{t('operators_roles')}</th>
            <th>{t('operators_status')}</th>
            <th>{t('operators_totp')}</th>
            <th>{t('col_time')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && <EmptyRow cols={6}>{list.isPending ? t('loading') : t('empty_operators')}</EmptyRow>}
          {rows.map((o) => <OperatorRow key={`${o.id}:${o.roles.join()}:${o.status}`} op={o} />)}
        </tbody>
      </TableBox>
    </section>
  );
}

function OperatorRow({ op }: { op: TOperatorRow }) {
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const update = useUpdateOperator();
  const me = useOpsSession().data?.username;
  const [roles, setRoles] = useState<OperatorRole[]>(op.roles);
  const isSelf = me === op.username;
  const isChanged = roles.length > 0 && [...roles].sort().join() !== [...op.roles].sort().join();
  return (
    <tr data-testid={`ops-operator-row-${op.username}`}>
      <td>{op.username}</td>
      <td>
        {/* An administrator cannot remove its own administrator role (the server refuses it): not offered. */}
        <RoleChecks value={roles} onChange={setRoles} disabled={update.isPending} testPrefix={`ops-operator-${op.username}-role`} locked={isSelf && op.roles.includes('administrator') ? 'administrator' : undefined} />
        {isSelf && op.roles.includes('administrator') && <p className="ops-muted">{t('operators_own_admin')}</p>}
        {isChanged && (
          <button type="button" className="ops-btn" onClick={() => update.mutate({ id: op.id, body: { roles } })} data-testid={`ops-operator-${op.username}-save-roles`}>
            {t('settings_save')}
          </button>
        )}
        <ErrorNote error={update.error} testId={`ops-operator-${op.username}-error`} />
      </td>
      <td>
        <StatusChip tone={op.status === 'active' ? 'success' : 'muted'}>{t(`member_status_${op.status}`)}</StatusChip>
      </td>
      <td>{op.totpEnrolled ? t('operators_totp_on') : t('operators_totp_off')}</td>
      <td>{formatDateTime(op.createdAt)}</td>
      <td>
        {!isSelf && (
          <div className="ops-form__actions">
            <button
              type="button"
              className={`ops-btn ${op.status === 'active' ? 'ops-btn--danger' : ''}`}
              disabled={update.isPending}
              onClick={() => {
                // Disabling ends that operator's sessions at once: asked first (it happened on one click).
                if (op.status === 'active' && !window.confirm(t('operators_disable_confirm', { username: op.username }))) return;
                update.mutate({ id: op.id, body: { status: op.status === 'active' ? 'disabled' : 'active' } });
              }}
              data-testid={`ops-operator-${op.username}-status`}
            >
              {op.status === 'active' ? t('operators_disable') : t('operators_enable')}
            </button>
            {op.totpEnrolled && (
              <button type="button" className="ops-btn ops-btn--ghost" disabled={update.isPending} onClick={() => update.mutate({ id: op.id, body: { resetTotp: true } })} data-testid={`ops-operator-${op.username}-reset-totp`}>
                {t('operators_reset_totp')}
              </button>
            )}
          </div>
        )}
      </td>
    </tr>
  );
}
