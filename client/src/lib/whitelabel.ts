import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ModuleFlag } from '@portal/contracts/domain/constants';
import { QUERY_KEYS } from './query-keys';
import { getWhitelabel } from './system-calls';

/**
 * GET /wps/system/whitelabel: module flags and brand config. Shared by every feature (flags gate
 * features on the client too). Remembers the merchant code for the `X-Merchant-Code` header.
 */
export { getWhitelabel };

export function whitelabelQueryOptions() {
  return queryOptions({
    queryKey: QUERY_KEYS.whitelabel,
    queryFn: ({ signal }) => getWhitelabel(signal),
    staleTime: 10 * 60_000,
  });
}

export function useWhitelabel() {
  return useQuery(whitelabelQueryOptions());
}

/** A module flag of the merchant; false until the config is known. */
export function useModule(flag: ModuleFlag): boolean {
  const { data } = useWhitelabel();
  return data?.modules[flag] ?? false;
}

/** The merchant's offset from UTC in minutes (brand setting); the browser's own until it is known. */
export function useBrandOffset(): number {
  const { data } = useWhitelabel();
  return data?.brand.gmtOffsetMinutes ?? -new Date().getTimezoneOffset();
}
