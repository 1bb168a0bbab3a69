import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../../../i18n/i18n';
import { PromotionStatus } from './promotion-status';

async function render(lang: 'EN' | 'TY', kind?: string) {
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces('promotions');
  return renderToStaticMarkup(<I18nextProvider i18n={i18n}>{kind ? <PromotionStatus status="signed" kind={kind} /> : <PromotionStatus status="signed" />}</I18nextProvider>);
}

describe('PromotionStatus signed', () => {
  it('says the player joined (signed up) a promotion, in EN and TY', async () => {
    expect(await render('EN', 'signup')).toContain('>Joined</span>');
    expect(await render('TY', 'request')).toContain('>Nakasali na</span>');
    expect(await render('EN')).toContain('>Joined</span>');
  });
  it("says today's sign-in is done for a daily sign-in", async () => {
    expect(await render('EN', 'daily_signin')).toContain('>Signed in today</span>');
    expect(await render('TY', 'daily_signin')).toContain('>Naka-sign in na ngayon</span>');
    await i18n.changeLanguage('EN');
  });
});
