import { queryOptions, useQuery } from '@tanstack/react-query';
import { systemCalls } from '@portal/contracts/api/system';
import type { THelpItem } from '@portal/contracts/api/system';
import type { LanguageCode } from '@portal/contracts/domain/constants';
import { call } from '../../../lib/api';

/** GET /wps/system/helpCenter?lang=..&device=WEB: the help topics in a language. */
export async function getHelpCenter(lang: LanguageCode, signal?: AbortSignal): Promise<THelpItem[]> {
  const value = await call(systemCalls.helpCenter, { query: { lang, device: 'WEB' }, signal });
  return value.list;
}

export function helpCenterQueryOptions(lang: LanguageCode) {
  return queryOptions({
    queryKey: ['helpCenter', lang] as const,
    queryFn: ({ signal }) => getHelpCenter(lang, signal),
    staleTime: 10 * 60_000,
  });
}

export function useHelpCenter(lang: LanguageCode) {
  return useQuery(helpCenterQueryOptions(lang));
}
