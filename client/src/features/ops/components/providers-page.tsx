import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TOpsProvider } from '@portal/contracts/api/ops-providers';
import { Modal } from '../../../ui/modal';
import { useConnectProvider, useDisconnectProvider, useProviders, useRotateProviderSecret } from '../api/providers';
import { useGameTypeName, useOpsTime } from '../lib/format';
import { isShownToPlayers, launchUrlErrorKey, PROVIDER_STATE_TONE, providerActionsFor, type ProviderAction } from '../lib/provider-actions';
import { ActionDialog } from './action-dialog';
import { useOpsCan } from './ops-gate';
import { ErrorNote, ListTable, OpsField, PageHead, StatusChip } from './ops-ui';

/** 10501 -> '10,501' (counts read the same in EN and TY). */
const formatCount = (n: number) => n.toLocaleString('en-US');

/** A signing secret just made: kept in this page's memory only, until the operator closes it. */
type NewSecret = { vendor: string; displayName: string; secret: string };

/**
 * /ops/providers: the merchant's game providers and their connection. Players are shown a provider's
 * games only while it is connected. An administrator connects one (launch URL; the server makes the
 * signing secret and answers it once: it is shown here until closed, never again), changes its launch
 * URL, gives it a new secret, or disconnects it with a reason. Audited on the server.
 */
export function ProvidersPage() {
  const { t } = useTranslation('ops');
  const canManage = useOpsCan('providers.manage');
  const list = useProviders();
  const [open, setOpen] = useState<{ action: ProviderAction; provider: TOpsProvider } | null>(null);
  const [secret, setSecret] = useState<NewSecret | null>(null);
  const rows = list.data?.list ?? [];
  const shown = rows.filter((p) => isShownToPlayers(p.state));
  const close = () => setOpen(null);
  const onSecret = (p: TOpsProvider, s: string | null) => {
    if (s) setSecret({ vendor: p.vendor, displayName: p.displayName, secret: s });
  };
  return (
    <section className="ops-page" data-testid="ops-providers-page">
      <PageHead title={t('nav_providers')} />
      <p className="ops-note ops-note--info">{t('providers_intro')}</p>
      {!canManage && <p className="ops-note ops-note--info">{t('admin_only')}</p>}
      {secret && <SecretNote secret={secret} onDone={() => setSecret(null)} />}
      {list.data && (
        <p className="ops-muted" data-testid="ops-providers-summary">
          {t('providers_summary', { shown: shown.length, total: rows.length, games: formatCount(shown.reduce((n, p) => n + p.games, 0)) })}
        </p>
      )}
      <ErrorNote error={list.error} testId="ops-providers-error" />
      <ProvidersTable list={list} rows={rows} canManage={canManage} onAction={(action, provider) => setOpen({ action, provider })} />
      {open && (open.action === 'connect' || open.action === 'changeUrl') && (
        <ConnectDialog provider={open.provider} isChange={open.action === 'changeUrl'} httpsOnly={list.data?.httpsOnly ?? true} onClose={close} onDone={(s) => { onSecret(open.provider, s); close(); }} />
      )}
      {open?.action === 'rotate' && <RotateDialog provider={open.provider} onClose={close} onDone={(s) => { onSecret(open.provider, s); close(); }} />}
      {open?.action === 'disconnect' && <DisconnectDialog provider={open.provider} onClose={close} />}
    </section>
  );
}

/** The providers, with each one's actions for an administrator. */
export function ProvidersTable({ list, rows, canManage, onAction }: {
  list: { isPending: boolean; isFetching: boolean };
  rows: readonly TOpsProvider[];
  canManage: boolean;
  onAction: (action: ProviderAction, provider: TOpsProvider) => void;
}) {
  const { t } = useTranslation('ops');
  const formatDateTime = useOpsTime();
  // Each provider's game types by name (FISH, LOTT and ELOTT read as codes, in TY too), as /ops/games names them.
  const gameTypeName = useGameTypeName();
  return (
    <ListTable
      list={list}
      rows={rows}
      empty={t('providers_empty')}
      columns={[
        { label: t('providers_col_provider') },
        { label: t('providers_col_games'), className: 'num' },
        { label: t('providers_col_state') },
        { label: t('providers_col_launch_url') },
        { label: t('providers_col_changed') },
        { label: '', className: 'ops-table__actions' },
      ]}
      row={(p) => (
        <tr key={p.vendor} data-testid={`ops-provider-${p.vendor}`}>
          <td>
            {/* The house has a name per product line (Lucky Slots, Lucky Live...): one name for all of them. */}
            <span className="strong">{p.state === 'house' ? t('providers_house_name') : p.displayName}</span> <span className="mono ops-muted">{p.vendor}</span>
            <div className="ops-muted">{p.gameTypes.map(gameTypeName).join(' · ')}</div>
          </td>
          <td className="num">
            {p.games}
            {p.hotGames > 0 && <div className="ops-muted">{t('providers_hot', { n: p.hotGames })}</div>}
          </td>
          <td>
            <StatusChip tone={PROVIDER_STATE_TONE[p.state]} testId={`ops-provider-${p.vendor}-state`}>{t(`providers_state_${p.state}`)}</StatusChip>
            <div className="ops-muted">{isShownToPlayers(p.state) ? t('providers_shown') : t('providers_hidden')}</div>
            {p.disconnectReason && <div className="ops-provider__reason" data-testid={`ops-provider-${p.vendor}-reason`}>{p.disconnectReason}</div>}
          </td>
          <td className="ops-provider__url">{p.state === 'house' ? '—' : <span className="mono">{p.launchUrl ?? '—'}</span>}</td>
          <td>
            <span className="ops-provider__time">{formatDateTime(p.changedAt)}</span>
            {/* The secret of a provider not connected any more is void: connecting again makes a new one. */}
            {p.secretSetAt && p.state === 'connected' && <div className="ops-muted">{t('providers_secret_made')} <span className="ops-provider__time">{formatDateTime(p.secretSetAt)}</span></div>}
          </td>
          <td className="ops-table__actions">
            {canManage && (
              <div className="ops-provider__actions">
                {providerActionsFor(p.state).map((a) => (
                  <button key={a} type="button" className={`ops-btn ops-btn--sm${a === 'disconnect' ? ' ops-btn--danger' : a === 'connect' && p.state !== 'simulated' ? ' ops-btn--primary' : ''}`} onClick={() => onAction(a, p)} data-testid={`ops-provider-${p.vendor}-${a}`}>
                    {/* A simulated provider is connected already (to the simulator): this connects it to the real one. */}
                    {t(a === 'connect' && p.state === 'simulated' ? 'providers_action_connect_real' : `providers_action_${a}`)}
                  </button>
                ))}
              </div>
            )}
          </td>
        </tr>
      )}
    />
  );
}

/** The new signing secret, shown once: copy it for the provider, then close it (it is not kept anywhere). */
export function SecretNote({ secret, onDone }: { secret: NewSecret; onDone: () => void }) {
  const { t } = useTranslation('ops');
  const [isCopied, setCopied] = useState(false);
  return (
    <div className="ops-note ops-note--warn ops-secret" role="status" data-testid="ops-provider-secret">
      <p className="ops-secret__title">{t('providers_secret_title', { name: secret.displayName, vendor: secret.vendor })}</p>
      <code className="ops-secret__value" data-testid="ops-provider-secret-value">{secret.secret}</code>
      <p className="ops-secret__hint">{t('providers_secret_once')}</p>
      <div className="ops-form__actions">
        <button
          type="button"
          className="ops-btn"
          onClick={() => void navigator.clipboard?.writeText(secret.secret).then(() => setCopied(true), () => setCopied(false))}
          data-testid="ops-provider-secret-copy"
        >
          {isCopied ? t('providers_secret_copied') : t('providers_secret_copy')}
        </button>
        <button type="button" className="ops-btn ops-btn--primary" onClick={onDone} data-testid="ops-provider-secret-done">
          {t('providers_secret_done')}
        </button>
      </div>
    </div>
  );
}

function ConnectDialog({ provider, isChange, httpsOnly, onClose, onDone }: { provider: TOpsProvider; isChange: boolean; httpsOnly: boolean; onClose: () => void; onDone: (secret: string | null) => void }) {
  const { t } = useTranslation('ops');
  const connect = useConnectProvider();
  // Changing: start from the current URL; connecting: an empty field (a simulator's or an old URL is not the provider's new one).
  const [url, setUrl] = useState(isChange ? provider.launchUrl ?? '' : '');
  const [isTried, setTried] = useState(false);
  const errorKey = launchUrlErrorKey(url, httpsOnly);
  const isValid = url.trim() !== '' && errorKey === null;
  const hint = isTried && !url.trim() ? t('providers_url_error_format') : errorKey ? t(errorKey) : httpsOnly ? t('providers_url_hint_https') : t('providers_url_hint_dev');
  return (
    <Modal name="opsProviderConnectModal" open onClose={connect.isPending ? () => undefined : onClose} title={t(isChange ? 'providers_change_title' : 'providers_connect_title', { name: provider.displayName })} width={480} className="ops-dialog">
      <form
        className="ops-dialog__form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (isValid && !connect.isPending) connect.mutate({ vendor: provider.vendor, launchUrl: url.trim() }, { onSuccess: (v) => onDone(v.secret) });
        }}
      >
        <div className="ops-dialog__summary">
          <span className="strong">{provider.displayName}</span> <span className="mono ops-muted">{provider.vendor}</span> · {t('providers_games_count', { n: formatCount(provider.games) })}
        </div>
        <OpsField label={t('providers_col_launch_url')} value={url} onChange={setUrl} testId="ops-provider-url" required maxLength={512} placeholder="https://" invalid={errorKey !== null || (isTried && !url.trim())} hint={hint} />
        <p className="ops-muted">{isChange ? t('providers_change_keeps_secret') : t('providers_connect_new_secret')}</p>
        <ErrorNote error={connect.error} testId="ops-dialog-error" />
        <div className="ops-dialog__actions">
          <button type="button" className="ops-btn" onClick={onClose} disabled={connect.isPending} data-testid="ops-dialog-cancel">{t('cancel')}</button>
          <button type="submit" className="ops-btn ops-btn--primary" disabled={connect.isPending} data-testid="ops-dialog-submit">
            {connect.isPending ? t('working') : t(isChange ? 'providers_action_changeUrl' : 'providers_action_connect')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function RotateDialog({ provider, onClose, onDone }: { provider: TOpsProvider; onClose: () => void; onDone: (secret: string) => void }) {
  const { t } = useTranslation('ops');
  const rotate = useRotateProviderSecret();
  return (
    <ActionDialog
      open
      title={t('providers_rotate_title', { name: provider.displayName })}
      summary={<p className="ops-dialog__note">{t('providers_rotate_warning')}</p>}
      input={{ text: 'none', payoutReference: false }}
      submitLabel={t('providers_action_rotate')}
      busy={rotate.isPending}
      error={rotate.error}
      onSubmit={() => rotate.mutate({ vendor: provider.vendor }, { onSuccess: (v) => onDone(v.secret) })}
      onClose={onClose}
    />
  );
}

function DisconnectDialog({ provider, onClose }: { provider: TOpsProvider; onClose: () => void }) {
  const { t } = useTranslation('ops');
  const disconnect = useDisconnectProvider();
  return (
    <ActionDialog
      open
      title={t('providers_disconnect_title', { name: provider.displayName })}
      summary={<p className="ops-dialog__note">{t('providers_disconnect_warning', { n: formatCount(provider.games) })}</p>}
      input={{ text: 'reason', payoutReference: false }}
      submitLabel={t('providers_action_disconnect')}
      tone="danger"
      busy={disconnect.isPending}
      error={disconnect.error}
      onSubmit={(reason) => disconnect.mutate({ vendor: provider.vendor, reason }, { onSuccess: onClose })}
      onClose={onClose}
    />
  );
}
