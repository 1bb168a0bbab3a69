import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api';
import { ErrorNote } from './ops-ui';

describe('the console error note', () => {
  it("names the field and the server's rule under the translated error, not only 'invalid input'", async () => {
    await i18n.changeLanguage('EN');
    await i18n.loadNamespaces(['ops', 'common']);
    const err = new ApiError('VALIDATION', 'Invalid input', 400, [{ path: 'endAt', message: 'The end is after the start' }, { path: 'anchor', message: 'Invalid string' }]);
    const html = renderToStaticMarkup(<I18nextProvider i18n={i18n}><ErrorNote error={err} /></I18nextProvider>);
    expect(html).toContain(i18n.getFixedT('EN', 'common')('error_VALIDATION'));
    expect(html).toContain('<code>endAt</code>: The end is after the start');
    expect(html).toContain('<code>anchor</code>: Invalid string');
    const plain = renderToStaticMarkup(<I18nextProvider i18n={i18n}><ErrorNote error={new ApiError('CONFLICT', 'x', 409)} /></I18nextProvider>);
    expect(plain).not.toContain('ops-note__detail');
  });
});
