import { afterEach, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { charCount } from '@portal/contracts/api/feedback';
import { i18n } from '../../../i18n/i18n';
import { renderStatic } from '../../../lib/testing/static-render';
import { feedbackListQuery } from '../api/feedback';
import { FeedbackPage, clipFeedback, feedbackMaxLength } from './feedback-page';

afterEach(async () => {
  await i18n.changeLanguage('EN');
});

describe('the feedback text box stops at 140 characters (QA: it took 150, the counter read 150 / 140)', () => {
  it('the box carries maxLength 140 and the counter stays', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    client.setQueryData(feedbackListQuery(1).queryKey, { list: [], pageNo: 1, pageSize: 10, total: 0 });
    // the page's pieces read the wallet texts too: loaded here, not left to whichever file ran before in the worker
    const html = await renderStatic('EN', <FeedbackPage />, { client, namespaces: ['pages', 'wallet'] });
    expect(html).toMatch(/<textarea[^>]*maxLength="140"[^>]*data-testid="feedback-text"|<textarea[^>]*data-testid="feedback-text"[^>]*maxLength="140"/i);
    expect(html).toContain('0 / 140 characters');
  });

  it('a longer text (a paste) is cut at 140; a text up to 140 stays as it is', () => {
    expect(clipFeedback('a'.repeat(150))).toBe('a'.repeat(140));
    expect(clipFeedback('a'.repeat(140))).toBe('a'.repeat(140));
    expect(clipFeedback('  hello  ')).toBe('  hello  ');
    expect(clipFeedback('')).toBe('');
  });

  it('counts an emoji as one character, as the counter and the server do, and never splits one', () => {
    const clipped = clipFeedback('😀'.repeat(150));
    expect(charCount(clipped)).toBe(140);
    expect(clipped).toBe('😀'.repeat(140));
    // the browser counts UTF-16 units: each emoji in the box gives one unit more
    expect(feedbackMaxLength('')).toBe(140);
    expect(feedbackMaxLength('abc')).toBe(140);
    expect(feedbackMaxLength('😀😀x')).toBe(142);
  });
});
