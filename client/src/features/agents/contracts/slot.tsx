import { useTranslation } from 'react-i18next';
import { errorKey } from '../../../lib/error-key';
import { useContracts } from './api';
import { ContractTable } from './contract-list';
import { OfferContractForm } from './offer-form';
import { WhatIfPreview } from './what-if';
import './contracts.css';

export { MyContractsScreen } from './contract-list';

/**
 * A direct downline's contracts in the back office's downline management: the contracts this agent
 * gave it (live, offered, ended) with withdraw / terminate, and the "Offer contract" form with a
 * what-if preview on past periods.
 */
export function DownlineContractsSlot({ downlineId }: { downlineId: number }) {
  const { t } = useTranslation('agents');
  // The list call has no downline filter: the given contracts are read in one page of 100 and filtered here.
  const q = useContracts({ role: 'given', pageNo: 1, pageSize: 100 });
  const list = q.data?.list.filter((c) => c.downlineId === downlineId) ?? [];
  return (
    <div className="ag-section" data-testid="downline-contracts" data-downline-id={downlineId}>
      <h3>{t('contracts.downlineTitle')}</h3>
      {q.isError ? (
        <p className="form-field__error" role="alert">{t(errorKey(q.error), { ns: 'common' })}</p>
      ) : q.isPending ? (
        <p className="cx-muted">{t('contracts.loading')}</p>
      ) : (
        <ContractTable list={list} side="given" testId="downline-contracts-table" />
      )}
      <OfferContractForm downlineId={downlineId} preview={(terms) => <WhatIfPreview downlineId={downlineId} terms={terms} />} />
    </div>
  );
}
