import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CUSTOMER_SERVICE_TYPES } from '@portal/contracts/domain/constants';
import { systemCalls } from '@portal/contracts/api/system';
import type { TPermission, TResource } from '@portal/contracts/api/system';
import type { ResourceType } from '@portal/contracts/domain/constants';
import { call } from './api';
import { QUERY_KEYS } from './query-keys';

/** GET /wps/system/domainRoute: the permission response (resources, customer service, CDNs). */
export function getDomainRoute(signal?: AbortSignal): Promise<TPermission> {
  return call(systemCalls.domainRoute, { query: {}, signal });
}

export function domainRouteQueryOptions() {
  return queryOptions({
    queryKey: QUERY_KEYS.domainRoute,
    queryFn: ({ signal }) => getDomainRoute(signal),
    staleTime: 10 * 60_000,
  });
}

export function useDomainRoute() {
  return useQuery(domainRouteQueryOptions());
}

/** Resources of the given types, in the order of `types`, at most one per type. */
export function pickResources(resources: readonly TResource[], types: readonly ResourceType[]): TResource[] {
  const out: TResource[] = [];
  for (const type of types) {
    const r = resources.find((x) => x.resourceType === type && x.url);
    if (r) out.push(r);
  }
  return out;
}

export function useResources(types: readonly ResourceType[]): TResource[] {
  const { data } = useDomainRoute();
  return data ? pickResources(data.info.resources, types) : [];
}

export type TCustomerServiceLink = TPermission['info']['customerService'][number];

const KNOWN_CS_TYPES: readonly string[] = CUSTOMER_SERVICE_TYPES;

/**
 * The merchant's customer-service links (with a URL), of `types` when given. A link of a known kind
 * (CUSTOMER_SERVICE_TYPES: live chat, Telegram, Messenger) is named in the page's language
 * (common:cs_title_<TYPE>): the stored title is one language's (the merchant's seed, no operator
 * screen edits it), and it showed English on Tagalog pages. A link of another kind keeps its title.
 */
export function useCustomerService(types?: readonly string[]): TCustomerServiceLink[] {
  const { data } = useDomainRoute();
  const { t } = useTranslation('common');
  const list = data?.info.customerService ?? [];
  return list
    .filter((c) => c.url && (!types || types.includes(c.csType)))
    .map((c) => (KNOWN_CS_TYPES.includes(c.csType) ? { ...c, title: t(`cs_title_${c.csType}`) } : c));
}
