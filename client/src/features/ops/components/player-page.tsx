import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { TOpsPlayerProfile } from '@portal/contracts/api/ops-players';
import { RG_OPERATOR_LIFTABLE_KINDS } from '@portal/contracts/api/rg';
import { PLAYER_RECORDS_PAGE_SIZE, useAddNote, usePlayer, usePlayerBets, usePlayerDeposits, usePlayerLedger, usePlayerMoney, usePlayerNotes, usePlayerWithdrawals, useRgExclude, useRgLift, useSetPlayerStatus } from '../api/players';
import { auditActionKey } from '../lib/audit-format';
import { useOpsTime } from '../lib/format';
import { useAmount } from '../../../lib/use-money';
import { ActionDialog } from './action-dialog';
import { useOpsCan } from './ops-gate';
import { PlayerStatusChips } from './players-page';
import { EmptyRow, ErrorNote, Money, OpsField, PageHead, Pager, StatusChip, TableBox } from './ops-ui';

const DURATIONS = ['24h', '7d', '30d', '6m', '1y', '5y'] as const;
/** The exclusions the console lifts, with a reason (the server's rule, RG_OPERATOR_LIFTABLE_KINDS). */
const LIFTABLE: ReadonlySet<string> = new Set(RG_OPERATOR_LIFTABLE_KINDS);
type Duration = (typeof DURATIONS)[number] | 'open';

/**
 * /ops/players/:id: the player's account and status (freeze with a reason), registration data,
 * money (finance, risk), RG state and actions (risk), sign-ins, and the operators' notes (support, risk).
 * What a role may not see is not fetched: the server refuses it anyway.
 */
export function PlayerPage() {
  const { t } = useTranslation('ops');
  const id = Number(useParams().id);
  const profile = usePlayer(id);
  const p = profile.data;
  return (
    <section className="ops-page" data-testid="ops-player-page">
      <PageHead title={p ? p.player.account : t('nav_players')}>
        <Link to="/ops/players" className="ops-btn" data-testid="ops-player-back">{t('players_back')}</Link>
      </PageHead>
      <ErrorNote error={profile.error} testId="ops-player-error" />
      {p && (
        <div className="ops-profile">
          <AccountPanel p={p} />
          <MoneyPanel id={id} />
          <RgPanel p={p} />
          <NotesPanel id={id} />
          <LoginsPanel p={p} />
        </div>
      )}
    </section>
  );
}

function AccountPanel({ p }: { p: TOpsPlayerProfile }) {
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const canStatus = useOpsCan('members.status');
  const setStatus = useSetPlayerStatus(p.player.id);
  const [isOpen, setOpen] = useState(false);
  const freeze = p.player.status === 'active';
  const r = p.registration;
  const rows: Array<[string, string | null]> = [
    [t('col_id'), String(p.player.id)],
    [t('players_col_mobile'), p.player.mobile],
    [t('player_email'), r.email],
    [t('player_real_name'), r.payeeName],
    [t('player_birthday'), r.birthday],
    [t('player_language'), r.language],
    [t('player_upline'), r.upline],
    [t('player_invitation_code'), r.invitationCode],
    [t('players_col_registered'), formatDateTime(p.player.createdAt)],
    [t('player_register_ip'), r.registerIp],
    [t('player_first_login'), formatDateTime(r.firstLoginAt)],
    [t('players_col_last_login'), formatDateTime(p.player.lastLoginAt)],
  ];
  return (
    <div className="ops-panel" data-testid="ops-player-account">
      <div className="ops-profile__head">
        <h2 className="ops-panel__title">{t('player_account')}</h2>
        <PlayerStatusChips status={p.player.status} isExcluded={p.player.isExcluded} />
      </div>
      <dl className="ops-kv">
        {rows.map(([k, v]) => (
          <div key={k} style={{ display: 'contents' }}>
            <dt>{k}</dt>
            <dd>{v || '—'}</dd>
          </div>
        ))}
      </dl>
      {canStatus && (
        <div className="ops-actions-row">
          <button type="button" className={`ops-btn ${freeze ? 'ops-btn--danger' : 'ops-btn--primary'}`} onClick={() => setOpen(true)} data-testid="ops-player-freeze">
            {freeze ? t('player_freeze') : t('player_unfreeze')}
          </button>
        </div>
      )}
      <ActionDialog
        open={isOpen}
        title={freeze ? t('player_freeze') : t('player_unfreeze')}
        summary={<p>{freeze ? t('player_freeze_summary', { account: p.player.account }) : t('player_unfreeze_summary', { account: p.player.account })}</p>}
        input={{ text: 'reason', payoutReference: false }}
        submitLabel={freeze ? t('player_freeze') : t('player_unfreeze')}
        tone={freeze ? 'danger' : 'primary'}
        busy={setStatus.isPending}
        error={setStatus.error}
        onSubmit={(reason) => setStatus.mutate({ status: freeze ? 'disabled' : 'active', reason }, { onSuccess: () => setOpen(false) })}
        onClose={() => { setOpen(false); setStatus.reset(); }}
      />
    </div>
  );
}

function MoneyPanel({ id }: { id: number }) {
  const formatDateTime = useOpsTime();
  const { t } = useTranslation(['ops', 'wallet']);
  const canMoney = useOpsCan('players.money');
  const money = usePlayerMoney(id, canMoney);
  const [depositsPage, setDepositsPage] = useState(1);
  const [withdrawalsPage, setWithdrawalsPage] = useState(1);
  const [betsPage, setBetsPage] = useState(1);
  const deposits = usePlayerDeposits(id, depositsPage, canMoney);
  const withdrawals = usePlayerWithdrawals(id, withdrawalsPage, canMoney);
  const bets = usePlayerBets(id, betsPage, canMoney);
  const [ledgerPage, setLedgerPage] = useState(1);
  const ledger = usePlayerLedger(id, ledgerPage, canMoney);
  if (!canMoney) return null;
  const m = money.data;
  return (
    <div className="ops-panel" data-testid="ops-player-money">
      <h2 className="ops-panel__title">{t('player_money')}</h2>
      <ErrorNote error={money.error ?? deposits.error ?? withdrawals.error ?? bets.error} />
      {m && (
        <dl className="ops-kv">
          <dt>{t('player_balance')}</dt>
          <dd className="strong" data-testid="ops-player-balance"><Money minor={m.balance} /> {m.currency}</dd>
          <dt>{t('player_available')}</dt>
          <dd><Money minor={m.available} /> {m.currency}</dd>
        </dl>
      )}
      <h3 className="ops-panel__title">{t('nav_deposits')}</h3>
      <TableBox busy={deposits.isFetching}>
        <thead><tr><th>{t('col_id')}</th><th>{t('col_time')}</th><th className="num">{t('col_amount', { currency: m?.currency ?? '' })}</th><th>{t('col_status')}</th></tr></thead>
        <tbody data-testid="ops-player-deposits">
          {(deposits.data?.list ?? []).length === 0 && <EmptyRow cols={4}>{deposits.isPending ? t('loading') : t('player_no_records')}</EmptyRow>}
          {(deposits.data?.list ?? []).map((d) => (
            <tr key={d.id}><td className="mono">{d.id}</td><td className="nowrap">{formatDateTime(d.createdAt)}</td><td className="num"><Money minor={d.amount} /></td><td>{t(`deposit_status_${d.status}`)}</td></tr>
          ))}
        </tbody>
      </TableBox>
      {deposits.data && <Pager pageNo={depositsPage} pageSize={PLAYER_RECORDS_PAGE_SIZE} total={deposits.data.total} onPage={setDepositsPage} testPrefix="ops-player-deposits" />}
      <h3 className="ops-panel__title">{t('nav_withdrawals')}</h3>
      <TableBox busy={withdrawals.isFetching}>
        <thead><tr><th>{t('col_id')}</th><th>{t('col_time')}</th><th className="num">{t('col_amount', { currency: m?.currency ?? '' })}</th><th>{t('col_status')}</th></tr></thead>
        <tbody data-testid="ops-player-withdrawals">
          {(withdrawals.data?.list ?? []).length === 0 && <EmptyRow cols={4}>{withdrawals.isPending ? t('loading') : t('player_no_records')}</EmptyRow>}
          {(withdrawals.data?.list ?? []).map((w) => (
            <tr key={w.id}><td className="mono">{w.id}</td><td className="nowrap">{formatDateTime(w.createdAt)}</td><td className="num"><Money minor={w.amount} /></td><td>{t(`withdrawal_status_${w.status}`)}</td></tr>
          ))}
        </tbody>
      </TableBox>
      {withdrawals.data && <Pager pageNo={withdrawalsPage} pageSize={PLAYER_RECORDS_PAGE_SIZE} total={withdrawals.data.total} onPage={setWithdrawalsPage} testPrefix="ops-player-withdrawals" />}
      <h3 className="ops-panel__title">{t('player_bets')}</h3>
      <TableBox busy={bets.isFetching}>
        <thead><tr><th>{t('col_time')}</th><th>{t('player_game')}</th><th className="num">{t('player_stake')}</th><th className="num">{t('player_win')}</th></tr></thead>
        <tbody data-testid="ops-player-bets">
          {(bets.data?.list ?? []).length === 0 && <EmptyRow cols={4}>{bets.isPending ? t('loading') : t('player_no_records')}</EmptyRow>}
          {(bets.data?.list ?? []).map((b) => (
            <tr key={`${b.vendor}:${b.roundId}`}>
              <td className="nowrap">{formatDateTime(b.at)}</td>
              <td>{b.gameName ?? `${b.vendor} ${b.gameCode ?? ''}`}{b.gameName && <span className="ops-sub">{b.vendor} {b.gameCode ?? ''}</span>}{b.isRolledBack && <> <StatusChip tone="muted">{t('player_rolled_back')}</StatusChip></>}</td>
              <td className="num"><Money minor={b.stake} /></td>
              <td className="num"><Money minor={b.win} /></td>
            </tr>
          ))}
        </tbody>
      </TableBox>
      {bets.data && <Pager pageNo={betsPage} pageSize={PLAYER_RECORDS_PAGE_SIZE} total={bets.data.total} onPage={setBetsPage} testPrefix="ops-player-bets" />}
      {/* Every movement of the account (adjustments, bonuses, payouts, envelopes too): what adds up to the balance. */}
      <h3 className="ops-panel__title">{t('player_ledger')}</h3>
      <ErrorNote error={ledger.error} />
      <TableBox busy={ledger.isFetching}>
        <thead><tr><th>{t('col_time')}</th><th>{t('player_ledger_kind')}</th><th className="num">{t('col_amount', { currency: m?.currency ?? '' })}</th><th className="num">{t('player_ledger_after')}</th></tr></thead>
        <tbody data-testid="ops-player-ledger">
          {(ledger.data?.list ?? []).length === 0 && <EmptyRow cols={4}>{ledger.isPending ? t('loading') : t('player_no_records')}</EmptyRow>}
          {(ledger.data?.list ?? []).map((r) => (
            <tr key={r.id} data-testid="ops-player-ledger-row" data-kind={r.kind}>
              <td className="nowrap">{formatDateTime(r.time)}</td>
              {/* The reference under its kind, as a bet's game code under its game: a column of its own ran off
                  the card (TY's wider headers cut it to "REPEREN…"). */}
              <td>
                {t(`wallet:record_kind_${r.kind}`, { defaultValue: r.kind })}{r.status !== 'posted' && <> <StatusChip tone="muted">{t(`wallet:record_status_${r.status}`, { defaultValue: r.status })}</StatusChip></>}
                <div className="ops-muted mono ops-wrap" title={t('player_ledger_reference')}>{r.reference}</div>
              </td>
              <td className="num"><Money minor={r.amount} /></td>
              <td className="num">{r.balanceAfter === null ? '—' : <Money minor={r.balanceAfter} />}</td>
            </tr>
          ))}
        </tbody>
      </TableBox>
      {ledger.data && <Pager pageNo={ledgerPage} pageSize={PLAYER_RECORDS_PAGE_SIZE} total={ledger.data.total} onPage={setLedgerPage} testPrefix="ops-player-ledger" />}
    </div>
  );
}

function RgPanel({ p }: { p: TOpsPlayerProfile }) {
  const formatDateTime = useOpsTime();
  const formatMoney = useAmount();
  const { t } = useTranslation('ops');
  const canRg = useOpsCan('rg.exclude');
  const exclude = useRgExclude(p.player.id);
  const lift = useRgLift(p.player.id);
  const [duration, setDuration] = useState<Duration>('30d');
  const [reason, setReason] = useState('');
  const x = p.rg.exclusion;
  return (
    <div className="ops-panel" data-testid="ops-player-rg">
      <h2 className="ops-panel__title">{t('player_rg')}</h2>
      <p data-testid="ops-player-rg-state">
        {x
          ? t('player_rg_excluded', { kind: t(`rg_kind_${x.kind}`), until: x.endsAt ? formatDateTime(x.endsAt) : t('player_rg_until_lifted') })
          : t('player_rg_none')}
      </p>
      <TableBox>
        <thead><tr><th>{t('player_rg_limit_col')}</th><th className="num">{t('player_rg_amount')}</th><th className="num">{t('player_rg_used')}</th></tr></thead>
        <tbody>
          {p.rg.limits.length === 0 && <EmptyRow cols={3}>{t('player_rg_no_limits')}</EmptyRow>}
          {p.rg.limits.map((l) => (
            <tr key={`${l.kind}:${l.period}`}>
              <td>
                {t(`rg_limit_${l.kind}`)} · {t(`rg_period_${l.period}`)}
                {/* A requested increase or removal, waiting out its 24 hours: only the audit trail said what was asked. */}
                {(l.pendingAmount !== null || l.pendingRemove) && (
                  <span className="ops-muted" data-testid={`ops-player-rg-pending-${l.kind}-${l.period}`}>
                    <br />
                    {l.pendingRemove
                      ? t('player_rg_pending_remove', { from: l.pendingFrom ? formatDateTime(l.pendingFrom) : '—' })
                      : t('player_rg_pending', { amount: formatMoney(l.pendingAmount ?? 0), from: l.pendingFrom ? formatDateTime(l.pendingFrom) : '—' })}
                  </span>
                )}
              </td>
              <td className="num"><Money minor={l.amount} /></td>
              <td className="num"><Money minor={l.used} /></td>
            </tr>
          ))}
        </tbody>
      </TableBox>
      {(p.rg.realityCheckMinutes !== null || p.rg.sessionLimitMinutes !== null) && (
        // Only what is set: "session limit — min" read as a limit of no minutes.
        <p className="ops-muted" data-testid="ops-player-rg-session">
          {[
            p.rg.realityCheckMinutes !== null ? t('player_rg_reality', { minutes: p.rg.realityCheckMinutes }) : null,
            p.rg.sessionLimitMinutes !== null ? t('player_rg_limit', { minutes: p.rg.sessionLimitMinutes }) : null,
          ].filter(Boolean).join(' · ')}
        </p>
      )}
      {canRg && (
        <form
          className="ops-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (reason.trim().length < 2) return;
            if (x && LIFTABLE.has(x.kind)) lift.mutate({ exclusionId: x.id, reason: reason.trim() }, { onSuccess: () => setReason('') });
            else if (!x) exclude.mutate({ duration: duration === 'open' ? null : duration, reason: reason.trim() }, { onSuccess: () => setReason('') });
          }}
        >
          {!x && (
            <label className="ops-filter">
              <span className="ops-field__label">{t('player_rg_duration')}</span>
              <select className="ops-input" value={duration} onChange={(e) => setDuration(e.target.value as Duration)} data-testid="ops-player-rg-duration">
                {DURATIONS.map((d) => <option key={d} value={d}>{t(`rg_duration_${d}`)}</option>)}
                <option value="open">{t('player_rg_duration_open')}</option>
              </select>
            </label>
          )}
          {(!x || LIFTABLE.has(x.kind)) && (
            <>
              <OpsField label={t('field_reason')} value={reason} onChange={setReason} testId="ops-player-rg-reason" maxLength={500} required />
              <ErrorNote error={exclude.error ?? lift.error} />
              <div className="ops-form__actions">
                <button type="submit" className={`ops-btn ${x ? 'ops-btn--primary' : 'ops-btn--danger'}`} disabled={reason.trim().length < 2 || exclude.isPending || lift.isPending} data-testid="ops-player-rg-submit">
                  {x ? t('player_rg_lift') : t('player_rg_exclude')}
                </button>
              </div>
            </>
          )}
          {x && !LIFTABLE.has(x.kind) && <p className="ops-muted">{t('player_rg_player_owned')}</p>}
        </form>
      )}
      {p.rg.events.length > 0 && (
        <>
          <h3 className="ops-panel__title">{t('player_rg_events')}</h3>
          <ul className="ops-notes">
            {p.rg.events.map((e) => (
              <li key={e.id}>
                <div className="ops-notes__meta">{formatDateTime(e.at)} · {e.operator ? <strong>{e.operator}</strong> : t(`player_rg_by_${e.by}`)}</div>
                <p className="ops-notes__text">{t(auditActionKey(e.action), { defaultValue: e.action })}</p>
                {e.reason && <p className="ops-notes__text ops-muted">{t('player_rg_reason', { reason: e.reason })}</p>}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function NotesPanel({ id }: { id: number }) {
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  const canNotes = useOpsCan('players.notes');
  const notes = usePlayerNotes(id, canNotes);
  const add = useAddNote(id);
  const [text, setText] = useState('');
  if (!canNotes) return null;
  const list = notes.data?.list ?? [];
  return (
    <div className="ops-panel" data-testid="ops-player-notes">
      <h2 className="ops-panel__title">{t('player_notes')}</h2>
      <ul className="ops-notes" data-testid="ops-player-notes-list">
        {list.length === 0 && <li className="ops-muted">{t('player_notes_none')}</li>}
        {list.map((n) => (
          <li key={n.id} data-testid="ops-player-note">
            <div className="ops-notes__meta">{formatDateTime(n.at)} · <strong>{n.author}</strong></div>
            <p className="ops-notes__text">{n.note}</p>
          </li>
        ))}
      </ul>
      <form
        className="ops-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim() && !add.isPending) add.mutate(text.trim(), { onSuccess: () => setText('') });
        }}
      >
        <OpsField label={t('player_note_new')} value={text} onChange={setText} testId="ops-player-note-text" multiline maxLength={2000} hint={t('player_notes_hint')} />
        <ErrorNote error={add.error} />
        <div className="ops-form__actions">
          <button type="submit" className="ops-btn ops-btn--primary" disabled={!text.trim() || add.isPending} data-testid="ops-player-note-add">
            {add.isPending ? t('working') : t('player_note_add')}
          </button>
        </div>
      </form>
    </div>
  );
}

function LoginsPanel({ p }: { p: TOpsPlayerProfile }) {
  const formatDateTime = useOpsTime();
  const { t } = useTranslation('ops');
  return (
    <div className="ops-panel" data-testid="ops-player-logins">
      <h2 className="ops-panel__title">{t('player_logins')}</h2>
      <TableBox>
        <thead><tr><th>{t('col_time')}</th><th>{t('player_ip')}</th><th>{t('col_status')}</th></tr></thead>
        <tbody>
          {p.logins.length === 0 && <EmptyRow cols={3}>{t('player_no_records')}</EmptyRow>}
          {p.logins.map((l) => (
            <tr key={l.at + (l.ip ?? '')}>
              <td className="nowrap">{formatDateTime(l.at)}</td>
              <td className="mono">{l.ip ?? '—'}</td>
              <td>
                {l.isLive
                  ? <StatusChip tone="success">{t('player_session_live')}</StatusChip>
                  : <span className="ops-muted">{l.endedAt ? t('player_session_ended', { at: formatDateTime(l.endedAt) }) : t('player_session_expired')}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </TableBox>
    </div>
  );
}
