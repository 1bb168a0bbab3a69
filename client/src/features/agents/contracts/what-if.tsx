import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { agentPayoutCalls } from '@portal/contracts/api/agent-payouts';
import type { TContractTerms } from '@portal/contracts/domain/agent-contracts';
import { call } from '../../../lib/api';
import { errorKey } from '../../../lib/error-key';
import { useMoney } from '../../../lib/use-money';
import { percentOf } from './api';
import { periodLabel } from '../payouts/period-label';

/** Terms settle for a while before the preview asks the server (typing a rate should not fire a call per key). */
function useSettled<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => {
    const id = setTimeout(() => setV(value), ms);
    return () => clearTimeout(id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, ms]);
  return v;
}

/** What the proposed terms would have paid this downline over its last closed periods (POST /wps/agent/contracts/simulate). */
export function WhatIfPreview({ downlineId, terms }: { downlineId: number; terms: TContractTerms | null }) {
  const { t } = useTranslation(['agents', 'common']);
  const money = useMoney();
  const [periods, setPeriods] = useState(6);
  const settled = useSettled(terms, 400);
  const q = useQuery({
    queryKey: ['agents', 'simulate', downlineId, settled, periods] as const,
    queryFn: () => call(agentPayoutCalls.simulate, { body: { downlineId, terms: settled!, periods } }),
    enabled: settled !== null,
  });
  return (
    <div className="ag-preview" data-testid="offer-what-if">
      <div className="ag-actions">
        <strong>{t('contracts.whatIf.title')}</strong>
        <label>
          {t('contracts.whatIf.periods')}{' '}
          <select value={periods} onChange={(e) => setPeriods(Number(e.target.value))} data-testid="offer-what-if-periods">
            {[1, 3, 6, 12].map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        </label>
      </div>
      {settled === null ? (
        <p className="cx-muted">{t('contracts.whatIf.enterTerms')}</p>
      ) : q.isError ? (
        <p className="form-field__error" role="alert">{t(errorKey(q.error), { ns: 'common' })}</p>
      ) : q.isPending ? (
        <p className="cx-muted">{t('contracts.loading')}</p>
      ) : (
        <div className="cx-table-wrap">
          <table className="cx-table">
            <thead>
              <tr>
                <th>{t('payouts.field.period')}</th>
                <th>{t('payouts.field.base')}</th>
                <th>{t(OFFER_RATE)}</th>
                <th>{t('contracts.whatIf.conditions')}</th>
                <th>{t('payouts.field.amount')}</th>
              </tr>
            </thead>
            <tbody>
              {q.data.periods.map((p) => (
                <tr key={p.periodKey}>
                  <td data-label={t('payouts.field.period')}>{periodLabel(t, p.periodKey)}</td>
                  <td data-label={t('payouts.field.base')}>{money(p.base)}</td>
                  <td data-label={t(OFFER_RATE)}>{percentOf(p.effectiveRate)}</td>
                  <td data-label={t('contracts.whatIf.conditions')}>{p.conditionsMet ? t('contracts.whatIf.met') : t('contracts.whatIf.notMet')}</td>
                  <td data-label={t('payouts.field.amount')} className="cx-amount">{money(p.amount)}</td>
                </tr>
              ))}
              <tr>
                <td><strong>{t('payouts.field.total')}</strong></td>
                <td data-label={t('payouts.field.base')}>{money(q.data.totals.base)}</td>
                <td />
                <td />
                <td data-label={t('payouts.field.amount')} className="cx-amount" data-testid="offer-what-if-total">{money(q.data.totals.amount)}</td>
              </tr>
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

const OFFER_RATE = 'agents:offer.rate';
