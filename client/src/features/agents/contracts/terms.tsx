import { useTranslation } from 'react-i18next';
import type { TContractTerms } from '@portal/contracts/domain/agent-contracts';
import { useMoney } from '../../../lib/use-money';
import { OFFER_TEXT_KEYS } from '../machines/contract-offer.machine';

/** The conditions of terms as <dt>/<dd> pairs (inside a <dl>). */
export function TermsLines({ terms }: { terms: TContractTerms }) {
  const { t } = useTranslation('agents');
  const money = useMoney();
  return (
    <>
      <dt>{t(OFFER_TEXT_KEYS.activeMembers)}</dt>
      <dd data-testid="terms-active-members">{terms.activeMembers}</dd>
      <dt>{t(OFFER_TEXT_KEYS.betAmount)}</dt>
      <dd data-testid="terms-bet-amount">{money(terms.betAmount)}</dd>
      <dt>{t(OFFER_TEXT_KEYS.period)}</dt>
      <dd data-testid="terms-period">{t(`contracts.periodName.${terms.kind === 'dividend' ? terms.profitLossPeriod : terms.validBetPeriod}`)}</dd>
    </>
  );
}
