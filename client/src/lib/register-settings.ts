import { queryOptions, useQuery } from '@tanstack/react-query';
import { authCalls, type TFieldRule } from '@portal/contracts/api/auth';
import type { RegistrationField } from '@portal/contracts/domain/registration';
import { call } from './api';
import { QUERY_KEYS } from './query-keys';

/**
 * GET /wps/system/setting/register: the merchant's per-field rules, minimum age, SMS validity and
 * countries. Registration, password recovery and password change all validate with these rules,
 * so the query lives here; it is cached for the whole session (spec: "cached in session").
 */
export type TRegisterSettings = Awaited<ReturnType<typeof getRegisterSettings>>;

export async function getRegisterSettings(signal?: AbortSignal) {
  return call(authCalls.registerSettings, { query: {}, signal });
}

export function registerSettingsQueryOptions() {
  return queryOptions({
    queryKey: QUERY_KEYS.registerSettings,
    queryFn: ({ signal }) => getRegisterSettings(signal),
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

export function useRegisterSettings() {
  return useQuery(registerSettingsQueryOptions());
}

/**
 * The merchant's own dialing code, the default of every mobile field: the first of the settings'
 * countries (the server puts the merchant's market first: +84 on LuckyDong), +63 until they are there.
 */
export function homeDialingCode(settings: Pick<TRegisterSettings, 'countries'> | undefined): string {
  return settings?.countries[0]?.countryDialingCode ?? '63';
}

/** The rule of one field; a disabled rule when the server did not send it. */
export function ruleOf(settings: Pick<TRegisterSettings, 'fields'> | undefined, field: RegistrationField): TFieldRule {
  return (
    settings?.fields.find((f) => f.field === field) ?? {
      field, enabled: false, required: false, acceptedPattern: '*', patternId: 0, minLength: 0, maxLength: 255, type: 'text',
    }
  );
}
