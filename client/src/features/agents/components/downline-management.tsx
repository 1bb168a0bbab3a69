import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TDownline } from '@portal/contracts/api/agent-reports';
import { errorMessage } from '../../../lib/field-message';
import { useDateTime, useMoney } from '../../../lib/use-money';
import { FormMessage } from '../../../ui/form-field';
import { Pager, pagesOf } from '../../../ui/pager';
import { DownlineContractsSlot } from '../contracts/slot';
import { useDownlines } from '../api/get-downlines';
import { useSetAgent } from '../api/set-agent';
import { TeamBreadcrumb } from './breadcrumb';

const PAGE_SIZE = 20;

/**
 * Downline management: the direct downlines of the caller or of a member of its team (drill with a
 * breadcrumb), search by account in the whole team, set a direct downline as agent, transfer to a
 * downline, and a direct downline's contracts.
 */
export function DownlineManagementScreen({ transferTo }: { transferTo: (account: string) => ReactNode }) {
  const { t } = useTranslation('agent-office');
  const money = useMoney();
  const dateTime = useDateTime();
  const [parentId, setParentId] = useState<number | undefined>(undefined);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState<string | undefined>(undefined);
  const [page, setPage] = useState(1);
  const [panel, setPanel] = useState<{ kind: 'transfer' | 'contracts'; downline: TDownline } | null>(null);
  // The panel opens below the table and its pager: brought into view, or a click seemed to do nothing.
  const panelRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (panel) panelRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [panel]);
  const q = useDownlines({ ...(search ? { search } : parentId ? { parentId } : {}), pageNo: page, pageSize: PAGE_SIZE });
  const setAgent = useSetAgent();
  const rows = q.data?.list ?? [];
  const drill = (id: number | undefined) => {
    setParentId(id);
    setSearch(undefined);
    setSearchText('');
    setPage(1);
    setPanel(null);
  };
  return (
    <div className="mc-stack" data-testid="ao-downlines">
      <div className="mc-card">
        <h1 className="mc-title">{t('item.downlineManagmentView')}</h1>
        <form
          className="records-range"
          onSubmit={(e) => {
            e.preventDefault();
            setSearch(searchText.trim() || undefined);
            setPage(1);
            setPanel(null);
          }}
        >
          <label className="form-field ao-search">
            <span className="form-field__label">{t('downlines.search')}</span>
            <input className="form-field__input" value={searchText} maxLength={64} onChange={(e) => setSearchText(e.target.value)} placeholder={t('downlines.search_hint')} data-testid="ao-downlines-search" />
          </label>
          <button type="submit" className="btn btn--primary" data-testid="ao-downlines-search-go">{t('search')}</button>
          {search && (
            <button type="button" className="btn btn--ghost" onClick={() => drill(parentId)}>
              {t('downlines.clear')}
            </button>
          )}
        </form>
        {!search && q.data && <TeamBreadcrumb path={q.data.path} onPick={(id, i) => drill(i === 0 ? undefined : id)} testId="ao-downlines-crumbs" />}
        {q.error && <FormMessage message={errorMessage(q.error)} />}
        {setAgent.error && <FormMessage message={errorMessage(setAgent.error)} />}
        <div className="cx-table-wrap">
          <table className="cx-table ao-downline-table" data-testid="ao-downline-list">
            <thead>
              <tr>
                <th>{t('col.account')}</th>
                <th>{t('downlines.type')}</th>
                <th className="cx-num">{t('downlines.team')}</th>
                <th className="cx-num">{t('col.balance')}</th>
                <th>{t('col.status')}</th>
                <th>{t('downlines.registered')}</th>
                <th>{t('downlines.last_login')}</th>
                <th>{t('col.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id} data-testid={`ao-downline-${d.account}`}>
                  <td data-label={t('col.account')}>
                    {d.teamSize > 0 ? (
                      <button type="button" className="ao-crumbs__link" onClick={() => drill(d.id)} data-testid={`ao-drill-${d.account}`} title={t('downlines.drill')}>
                        {d.account}
                      </button>
                    ) : (
                      d.account
                    )}
                    {d.nickname && <span className="cx-muted"> ({d.nickname})</span>}
                  </td>
                  <td data-label={t('downlines.type')}>{d.isAgent ? t('register.type_agent') : t('register.type_player')}</td>
                  <td data-label={t('downlines.team')} className="cx-num">{t('downlines.team_of', { team: d.teamSize, direct: d.directCount })}</td>
                  <td data-label={t('col.balance')} className="cx-num">{money(d.balance)}</td>
                  <td data-label={t('col.status')}><span className={`cx-pill cx-pill--${d.status === 'active' ? 'ok' : 'bad'}`}>{t(`downlines.status_${d.status}`)}</span></td>
                  <td data-label={t('downlines.registered')}>{dateTime(d.registeredAt)}</td>
                  <td data-label={t('downlines.last_login')}>{d.lastLoginAt ? dateTime(d.lastLoginAt) : '—'}</td>
                  <td data-label={t('col.actions')}>
                    {d.depth === 1 && (
                      <div className="ao-row-actions">
                        {!d.isAgent && (
                          <button type="button" className="btn btn--outline btn--sm" disabled={setAgent.isPending} onClick={() => { if (window.confirm(t('downlines.set_agent_confirm', { account: d.account }))) setAgent.mutate(d.id); }} data-testid={`ao-set-agent-${d.account}`}>
                            {t('downlines.set_agent')}
                          </button>
                        )}
                        <button type="button" className="btn btn--ghost btn--sm" onClick={() => setPanel({ kind: 'transfer', downline: d })} data-testid={`ao-transfer-${d.account}`}>
                          {t('downlines.transfer')}
                        </button>
                        {/* Contracts are between agents only (the server refuses an offer to a player: CONTRACT_DOWNLINE_NOT_AGENT). */}
                        {d.isAgent && (
                          <button type="button" className="btn btn--ghost btn--sm" onClick={() => setPanel({ kind: 'contracts', downline: d })} data-testid={`ao-contracts-${d.account}`}>
                            {t('downlines.contracts')}
                          </button>
                        )}
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {q.data && rows.length === 0 && <p className="cx-empty">{t('empty')}</p>}
        </div>
        <Pager page={page} pages={pagesOf(q.data)} onPage={setPage} prefix="ao-downlines" />
      </div>
      {panel && (
        <div className="mc-card" ref={panelRef} data-testid={`ao-panel-${panel.kind}`}>
          <div className="cx-head">
            <h2 className="mc-subtitle">{t(panel.kind === 'transfer' ? 'downlines.transfer_to' : 'downlines.contracts_of', { account: panel.downline.account })}</h2>
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => setPanel(null)}>{t('close')}</button>
          </div>
          {panel.kind === 'transfer' ? <div key={panel.downline.id}>{transferTo(panel.downline.account)}</div> : <DownlineContractsSlot key={panel.downline.id} downlineId={panel.downline.id} />}
        </div>
      )}
    </div>
  );
}
