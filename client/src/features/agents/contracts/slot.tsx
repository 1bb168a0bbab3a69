import { useTranslation } from 'react-i18next';
import type { TAgentContract } from '@portal/contracts/api/agent-contracts';
import { errorMessage } from '../../../lib/field-message';
import { FormMessage } from '../../../ui/form-field';
import { useDownlineContracts } from '../api/get-downline-contracts';

/**
 * PLACEHOLDER written by ag-office so downline management compiles and shows something true: a direct
 * downline's live contracts and open offers (GET /wps/agent/downlines/:id/contracts), read-only.
 * ag-contracts-ui owns this file and replaces it (offer with what-if, terminate).
 */
export function DownlineContractsSlot({ downlineId }: { downlineId: number }) {
  const { t } = useTranslation('agent-office');
  const q = useDownlineContracts(downlineId);
  if (q.error) return <FormMessage message={errorMessage(q.error)} />;
  if (!q.data) return <p className="form-notice">{t('loading')}</p>;
  const rows: { c: TAgentContract; isOffer: boolean }[] = [...q.data.live.map((c) => ({ c, isOffer: false })), ...q.data.offers.map((c) => ({ c, isOffer: true }))];
  if (rows.length === 0) return <p className="cx-empty" data-testid="ao-contracts-empty">{t('contracts.none')}</p>;
  return (
    <div className="cx-table-wrap">
      <table className="cx-table" data-testid="ao-contract-list">
        <thead>
          <tr>
            <th>{t('contracts.kind')}</th>
            <th className="cx-num">{t('contracts.rate')}</th>
            <th>{t('col.status')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ c, isOffer }) => (
            <tr key={c.id}>
              <td data-label={t('contracts.kind')}>{t(`kind.${c.terms.kind}`)}</td>
              <td data-label={t('contracts.rate')} className="cx-num">{(c.terms.rate / 100).toFixed(2)} %</td>
              <td data-label={t('col.status')}>
                <span className={`cx-pill cx-pill--${isOffer ? 'wait' : 'ok'}`}>{isOffer ? t('contracts.offered') : t('contracts.live')}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
