import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n';
import { renderStatic, textOf as text } from '../lib/testing/static-render';
import { ExclusionNotice } from './exclusion-notice';

afterEach(async () => {
  await i18n.changeLanguage('EN');
});

const renderClosed = (lang: 'EN' | 'TY', node: React.ReactNode) => renderStatic(lang, node, { namespaces: ['rg'] });

describe('the notice of a money-in place closed by an exclusion', () => {
  it('says which exclusion, what is closed and until when (merchant clock), with the way to withdraw, in EN and TY', async () => {
    const until = '2027-06-05T15:15:00.000Z';
    const en = await renderClosed('EN', <ExclusionNotice exclusion={{ kind: 'self', until }} place="deposit" />);
    expect(text(en)).toContain('Your account is excluded: self-exclusion');
    expect(text(en)).toContain('Deposits are closed for your account. Until 2027-06-05 23:15.');
    expect(text(en)).toContain('you can still withdraw it');
    expect(en).toContain('href="/member?tab=withdraw"');
    expect(en).toContain('href="/member?tab=responsibleGaming"');
    const ty = await renderClosed('TY', <ExclusionNotice exclusion={{ kind: 'cooling', until }} place="points" />);
    expect(text(ty)).toContain('Naka-exclude ang iyong account: pahinga (cooling-off)');
    expect(text(ty)).toContain('Sarado ang pag-redeem at pag-convert ng puntos para sa iyong account. Hanggang 2027-06-05 23:15.');
    expect(text(ty)).toContain('Mag-withdraw');
  });

  it('an open-ended exclusion (operator, restricted person) says until an operator lifts it', async () => {
    const en = await renderClosed('EN', <ExclusionNotice exclusion={{ kind: 'operator', until: null }} place="games" />);
    expect(text(en)).toContain('Games are closed for your account. Until an operator lifts it.');
  });
});
