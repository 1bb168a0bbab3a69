import { queryOptions, useQuery } from '@tanstack/react-query';
import { authCalls } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';

/** GET /wps/captcha: a single-use image captcha `{ captchaKey, image }`. */
export function getCaptcha(signal?: AbortSignal) {
  return call(authCalls.captcha, { query: {}, signal });
}

/** `version` changes whenever a new image is needed (a refresh, or the last one was used). */
export function captchaQueryOptions(version: number) {
  return queryOptions({
    queryKey: ['captcha', version] as const,
    queryFn: ({ signal }) => getCaptcha(signal),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
}

export function useCaptcha(version: number) {
  return useQuery(captchaQueryOptions(version));
}
