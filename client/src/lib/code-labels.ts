import type { TFunction } from 'i18next';

/**
 * Display names for codes the gateway sends (payment methods, record kinds), so a code never
 * reaches the screen: a known code has its translation, an unknown one a generic word (or the
 * operator's own name for a payment method, when there is one).
 */
export function channelName(t: TFunction, code: string, operatorName?: string | null): string {
  const fallback = operatorName?.trim() ? operatorName : t('wallet:channel_name_other');
  return t(`wallet:channel_name_${code}`, { defaultValue: fallback });
}

export function recordKindName(t: TFunction, kind: string): string {
  return t(`wallet:record_kind_${kind}`, { defaultValue: t('wallet:record_kind_other') });
}
