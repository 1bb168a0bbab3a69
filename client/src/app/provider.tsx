import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { applyBrandDefaultLanguage, i18n } from '../i18n/i18n';
import { createQueryClient } from '../lib/query-client';
import { applyTheme, getTheme } from '../lib/theme';
import { useWhitelabel } from '../lib/whitelabel';
import { RealtimeProvider } from '../realtime/realtime-provider';
import { useOidcHandoff } from '../features/social-sign-in/use-oidc-handoff';

/** Brand defaults that need the whitelabel answer: the default language and the favicon. */
function BrandEffects() {
  const { data } = useWhitelabel();
  const defaultLanguage = data?.brand.defaultLanguage;
  const logoUrl = data?.brand.logoUrl;
  useEffect(() => {
    if (defaultLanguage) applyBrandDefaultLanguage(defaultLanguage);
  }, [defaultLanguage]);
  useEffect(() => {
    const icon = document.getElementById('favicon');
    if (logoUrl && icon instanceof HTMLLinkElement) icon.href = logoUrl;
  }, [logoUrl]);
  return null;
}

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
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
