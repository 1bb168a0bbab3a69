import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { QueryClient } from '@tanstack/react-query';
import type { TMessage } from '@portal/contracts/api/wallet';
import { i18n } from '../../i18n/i18n';
import { renderStatic } from '../../lib/testing/static-render';
import { messagesQueryOptions } from './api/get-messages';
import { MessagesPanel } from './components/messages-panel';

describe('a message row on a phone', () => {
  it('wraps: the title keeps the width and "mark as read" goes under it on one line (at 390 px in TY the title broke one word per line)', () => {
    const css = readFileSync(new URL('./messages.css', import.meta.url), 'utf8');
    expect(css).toMatch(/\.msg-list \.msg-item \{[^}]*flex-wrap: wrap/);
    // the body asks for a real width (cashier.css gives it flex 1 from nothing), so the button wraps before the title squeezes
    expect(css).toMatch(/\.msg-list \.msg-item__body \{[^}]*flex: 1 1 16rem/);
    expect(css).toMatch(/\.msg-item__read \{[^}]*flex: none;[^}]*white-space: nowrap/);
    expect(css).toMatch(/@media \(max-width: 600px\) \{[^@]*\.msg-list \.msg-item__body \{[^}]*flex-basis: calc\(100% - 20px\)/);
  });

  it('the mark-as-read button of an unread row (TY: "Markahang nabasa") carries the class that CSS sizes', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    const message: TMessage = {
      id: '7', kind: 'marketing', title: 'message_marketing', params: {}, read: false, createdAt: '2026-05-01T10:00:00.000Z',
      texts: { EN: { title: 'Weekend reload bonus for every deposit', content: '' }, TY: { title: 'Reload bonus ngayong weekend sa bawat deposito', content: '' } },
    };
    client.setQueryData(messagesQueryOptions(1).queryKey, { list: [message], pageNo: 1, pageSize: 10, total: 1, unreadCount: 1, byCategory: { transaction: 0, system: 0, marketing: 1 } });
    const html = await renderStatic('TY', <MessagesPanel />, { client, namespaces: ['wallet'] });
    expect(html).toMatch(/<button[^>]*class="[^"]*\bmsg-item__read\b[^"]*"[^>]*data-testid="message-read-7"/);
    await i18n.changeLanguage('EN');
  });
});
