import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { i18n } from '../../i18n/i18n';
import { QUERY_KEYS } from '../query-keys';

/**
 * Tests only: the static markup of a node with the portal's providers (router, texts of `namespaces`
 * in `lang`, a query client whose whitelabel is PHP on GMT+8, plus whatever the test put in `client`).
 */
export async function renderStatic(lang: 'EN' | 'TY', node: ReactNode, opts: { client?: QueryClient; namespaces?: string[]; url?: string } = {}): Promise<string> {
  const client = opts.client ?? new QueryClient();
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces(['common', ...(opts.namespaces ?? [])]);
  client.setQueryData(QUERY_KEYS.whitelabel, { brand: { currencySymbol: '₱', gmtOffsetMinutes: 480 } });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[opts.url ?? '/']}>{node}</MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

/** The text of static markup (tags dropped, the apostrophe entity read). */
export const textOf = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#x27;/g, "'").replace(/&amp;/g, '&');
