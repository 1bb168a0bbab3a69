import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { applyBrandDefaultLanguage, i18n } from '../i18n/i18n';
import { merchantLanguages } from '../i18n/languages';
import type { QueryClient } from '@tanstack/react-query';
import type { LanguageCode } from '@portal/contracts/domain/constants';
import { createQueryClient } from '../lib/query-client';
import { getSystemStatus, getWhitelabel, takeBootCall } from '../lib/system-calls';
import { systemStatusQueryOptions } from '../lib/system-status';
import { applyTheme, getTheme, useTheme } from '../lib/theme';
import { applyBrandColors } from '../lib/brand-colors';
import { useWhitelabel, whitelabelQueryOptions } from '../lib/whitelabel';
import { RealtimeProvider } from '../realtime/realtime-provider';
import { useOidcHandoff } from '../features/social-sign-in/use-oidc-handoff';

/** Brand defaults that need the whitelabel answer: the default language, the favicon and the brand colours. */
function BrandEffects() {
  const { data } = useWhitelabel();
  const defaultLanguage = data?.brand.defaultLanguage;
  const offeredKey = data ? merchantLanguages(data.brand).join(',') : '';
  const logoUrl = data?.brand.logoUrl;
  useEffect(() => {
    // The operator console is platform-wide: there a pick of either language stays.
    const onOps = window.location.pathname.startsWith('/ops');
    if (defaultLanguage) applyBrandDefaultLanguage(defaultLanguage, onOps || !offeredKey ? undefined : (offeredKey.split(',') as LanguageCode[]));
  }, [defaultLanguage, offeredKey]);
  const colors = data?.brand.colors;
  const colorsKey = colors ? JSON.stringify(colors) : '';
  const theme = useTheme();
  useEffect(() => {
    applyBrandColors(colors, theme);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the colours by value, not by object
  }, [colorsKey, theme]);
  useEffect(() => {
    const icon = document.getElementById('favicon');
    if (logoUrl && icon instanceof HTMLLinkElement) icon.href = logoUrl;
  }, [logoUrl]);
  return null;
}

/** The answer of a call already sent, once; then (a retry) the call itself. */
function firstThen<T>(sent: Promise<T>, again: (signal: AbortSignal) => Promise<T>) {
  let pending: Promise<T> | null = sent;
  return ({ signal }: { signal: AbortSignal }) => {
    const p = pending ?? again(signal);
    pending = null;
    return p;
  };
}

/**
 * The status and whitelabel calls main.tsx started (lib/system-calls.ts) become these queries'
 * first fetch, retried as the queries' own would be.
 */
function withBootCalls(queryClient: QueryClient): QueryClient {
  const retry = queryClient.getDefaultOptions().queries?.retry;
  const status = takeBootCall('status');
  if (status) {
    const o = systemStatusQueryOptions();
    void queryClient.prefetchQuery({ ...o, retry, queryFn: firstThen(status, (signal) => getSystemStatus(signal)) });
  }
  const whitelabel = takeBootCall('whitelabel');
  if (whitelabel) {
    const o = whitelabelQueryOptions();
    void queryClient.prefetchQuery({ ...o, retry, queryFn: firstThen(whitelabel, (signal) => getWhitelabel(signal)) });
  }
  return queryClient;
}

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(() => withBootCalls(createQueryClient()));
  useEffect(() => applyTheme(getTheme()), []);
  useOidcHandoff();
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <RealtimeProvider>
          <BrandEffects />
          {children}
        </RealtimeProvider>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
