import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api';
import { ErrorNote, OpsField } from './ops-ui';

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

  it('says the restricted-list import problems it knows in the console language (they showed in English in TY)', async () => {
    await i18n.loadNamespaces(['ops', 'common']);
    const err = new ApiError('VALIDATION', 'Invalid input', 400, [
      { path: 'line 3', message: 'birth_date must be a date written YYYY-MM-DD' },
      { path: 'line 4', message: 'category must be one of pagcor_employee, government_official' },
      { path: 'x', message: 'Something the console does not know' },
      { path: 'accounts', message: 'Unknown accounts: nosuchplayer, other1' },
      { path: 'endAt', message: 'The end must be after the start' },
    ]);
    await i18n.changeLanguage('TY');
    const ty = renderToStaticMarkup(<I18nextProvider i18n={i18n}><ErrorNote error={err} /></I18nextProvider>);
    expect(ty).toContain('<code>linya 3</code>: dapat nakasulat na YYYY-MM-DD ang petsa ng kapanganakan');
    expect(ty).toContain('<code>linya 4</code>: ang kategorya ay dapat isa sa pagcor_employee, government_official');
    expect(ty).toContain('<code>x</code>: Something the console does not know');
    expect(ty).toContain('<code>accounts</code>: Hindi kilalang mga account: nosuchplayer, other1');
    // The content forms' rules, in the console's language (they read in English in TY).
    expect(ty).toContain('<code>endAt</code>: dapat pagkatapos ng simula ang katapusan');
    // A language's block is named by its message, not by the API's key in front of it.
    const tyBlock = renderToStaticMarkup(<I18nextProvider i18n={i18n}><ErrorNote error={new ApiError('VALIDATION', 'Invalid input', 400, [{ path: 'ty', message: 'TY title and content are required to publish' }])} /></I18nextProvider>);
    expect(tyBlock).not.toContain('<code>');
    expect(tyBlock).toContain(i18n.getFixedT('TY', 'ops')('detail_ty_title_content_publish'));
    await i18n.changeLanguage('EN');
    const en = renderToStaticMarkup(<I18nextProvider i18n={i18n}><ErrorNote error={err} /></I18nextProvider>);
    expect(en).toContain('<code>line 3</code>: the birth date must be written YYYY-MM-DD');
  });
});

describe('a server rule the console does not know by its text', () => {
  it('is said by the rule the server names (size, kind, format) in the console language (it read in English in TY)', async () => {
    await i18n.loadNamespaces(['ops', 'common']);
    const err = new ApiError('VALIDATION', 'Invalid body', 400, [
      { path: 'reason', message: 'Too big: expected string to have <=200 characters', rule: 'max', of: 'string', limit: 200 },
      { path: 'note', message: 'Too small: expected string to have >=1 characters', rule: 'min', of: 'string', limit: 1 },
      { path: 'amount', message: 'Too small: expected number to be >0', rule: 'min', of: 'number' },
      { path: 'count', message: 'Invalid input: expected int, received number', rule: 'int' },
      { path: 'kind', message: 'Invalid option: expected one of "a"|"b"', rule: 'value' },
      { path: '', message: 'Unrecognized key: "x"', rule: 'keys' },
      { path: 'endAt', message: 'The end must be after the start', rule: 'format' },
    ]);
    await i18n.changeLanguage('TY');
    const ty = renderToStaticMarkup(<I18nextProvider i18n={i18n}><ErrorNote error={err} /></I18nextProvider>);
    expect(ty).toContain('<code>reason</code>: dapat may hindi hihigit sa 200 na karakter');
    expect(ty).toContain('<code>note</code>: kailangan');
    expect(ty).toContain('<code>amount</code>: masyadong maliit');
    expect(ty).toContain('<code>count</code>: dapat buong numero');
    expect(ty).toContain('<code>kind</code>: hindi isa sa mga pinapayagang halaga');
    expect(ty).toContain('may field na hindi tinatanggap ng form na ito');
    // a text the console knows wins over the rule
    expect(ty).toContain('<code>endAt</code>: dapat pagkatapos ng simula ang katapusan');
    // A language's block is named by its message, not by the API's key in front of it.
    const tyBlock = renderToStaticMarkup(<I18nextProvider i18n={i18n}><ErrorNote error={new ApiError('VALIDATION', 'Invalid input', 400, [{ path: 'ty', message: 'TY title and content are required to publish' }])} /></I18nextProvider>);
    expect(tyBlock).not.toContain('<code>');
    expect(tyBlock).toContain(i18n.getFixedT('TY', 'ops')('detail_ty_title_content_publish'));
    expect(ty).not.toMatch(/Too (big|small)|Invalid|Unrecognized/);
    await i18n.changeLanguage('EN');
    const en = renderToStaticMarkup(<I18nextProvider i18n={i18n}><ErrorNote error={err} /></I18nextProvider>);
    expect(en).toContain('<code>reason</code>: must have at most 200 characters');
    expect(en).toContain('<code>amount</code>: is too small');
  });
});

describe('an announcement in the console list', () => {
  it('reads published only between its start and its end; before it is scheduled, after it ended', async () => {
    const { publicationState } = await import('./content-page');
    const now = Date.parse('2026-12-07T00:00:00Z');
    const at = (h: number) => new Date(now + h * 3_600_000).toISOString();
    expect(publicationState(false, { startAt: at(-1), endAt: null }, now)).toBe('draft');
    expect(publicationState(true, { startAt: at(-1), endAt: null }, now)).toBe('published');
    expect(publicationState(true, { startAt: at(1), endAt: at(2) }, now)).toBe('scheduled');
    expect(publicationState(true, { startAt: at(-2), endAt: at(-1) }, now)).toBe('ended');
    expect(publicationState(true, null, now)).toBe('published');
    for (const lang of ['EN', 'TY'] as const) {
      await i18n.changeLanguage(lang);
      await i18n.loadNamespaces(['ops']);
      for (const k of ['content_scheduled', 'content_ended']) expect(i18n.getFixedT(lang, 'ops')(k)).not.toBe(k);
    }
    await i18n.changeLanguage('EN');
  });
});

describe('a console field', () => {
  it('says what is wrong while it is invalid, and its hint otherwise', () => {
    const field = (invalid: boolean) => renderToStaticMarkup(
      <OpsField label="Total" value="-5" onChange={() => undefined} testId="f" invalid={invalid} hint="The whole drop" problem="Enter an amount above 0" />);
    expect(field(true)).toContain('Enter an amount above 0');
    expect(field(true)).not.toContain('The whole drop');
    expect(field(true)).toContain('aria-invalid="true"');
    expect(field(false)).toContain('The whole drop');
    expect(field(false)).not.toContain('Enter an amount above 0');
  });
});

describe('a promotion form', () => {
  it('finds before sending what the server would refuse: texts, whole numbers, an end or a draw not after the start', async () => {
    const { promotionProblems } = await import('./promotions-page');
    const ok = {
      category: 'newbie', kind: 'signup', enabled: true, requiresJoin: true, titleEn: 'T', titleTy: 'T', rulesEn: 'R', rulesTy: 'R',
      startsAt: '2026-12-10T10:00', endsAt: '', rewardAmount: '0', rewardBps: '0', rewardCap: '', minDeposit: '0', wagerBonus: '0', wagerDeposit: '0',
      weights: '', rebates: '', bonusDays: '7', drawAt: '', winners: '',
    } as const;
    expect(promotionProblems({ ...ok })).toEqual({});
    expect(promotionProblems({ ...ok, wagerBonus: '-1', wagerDeposit: 'abc', bonusDays: '0', titleTy: ' ' })).toEqual({ wagerBonus: 'whole', wagerDeposit: 'whole', bonusDays: 'whole', titleTy: 'required' });
    expect(promotionProblems({ ...ok, endsAt: '2026-12-10T09:00' })).toEqual({ endsAt: 'after' });
    expect(promotionProblems({ ...ok, kind: 'raffle', winners: '2', drawAt: '2026-12-01T00:00' })).toEqual({ drawAt: 'after' });
    expect(promotionProblems({ ...ok, kind: 'raffle' })).toEqual({ drawAt: 'required', winners: 'whole' });
    // a field the kind does not use is not judged
    expect(promotionProblems({ ...ok, rewardBps: 'x' })).toEqual({});
    expect(promotionProblems({ ...ok, kind: 'first_deposit', rewardBps: 'x' })).toEqual({ rewardBps: 'whole' });
    // rates by game type: the catalogue's types, within bounds (a weight is a percentage, a rebate basis points)
    expect(promotionProblems({ ...ok, weights: 'FISH=50, live=100' })).toEqual({});
    expect(promotionProblems({ ...ok, weights: 'FISH=150' })).toEqual({ weights: 'map' });
    expect(promotionProblems({ ...ok, weights: 'SLOTS=10' })).toEqual({ weights: 'map' });
    expect(promotionProblems({ ...ok, weights: 'FISH:10' })).toEqual({ weights: 'map' });
    expect(promotionProblems({ ...ok, kind: 'rebate', rebates: 'RNG=500, CASINO=300' })).toEqual({ rebates: 'map' });
    expect(promotionProblems({ ...ok, kind: 'rebate', rebates: 'RNG=10001' })).toEqual({ rebates: 'map' });
    expect(promotionProblems({ ...ok, kind: 'rebate', rebates: 'RNG=500' })).toEqual({});
    expect(promotionProblems({ ...ok, rebates: 'junk' })).toEqual({});
  });
});

describe('a news article in the console', () => {
  it('needs its EN texts, and its TY texts once published (checked before sending, in the console language)', async () => {
    const { newsMissing } = await import('./content-page');
    const texts = (title: string, body: string) => ({ title, body });
    expect(newsMissing({ published: false, en: texts('T', 'B'), ty: texts('', '') })).toEqual([]);
    expect(newsMissing({ published: true, en: texts('T', 'B'), ty: texts('', ' ') })).toEqual(['ty.title', 'ty.body']);
    expect(newsMissing({ published: false, en: texts(' ', 'B'), ty: texts('', '') })).toEqual(['en.title']);
  });
});

describe('an announcement\'s dates in the console form', () => {
  it('needs a start and an end after it, checked before sending (the browser and the server said it in English)', async () => {
    const { annDateProblem } = await import('./content-page');
    expect(annDateProblem({ start: '', end: '' })).toBe('start');
    expect(annDateProblem({ start: '2026-12-10T10:00', end: '2026-12-09T10:00' })).toBe('end');
    expect(annDateProblem({ start: '2026-12-10T10:00', end: '2026-12-10T10:00' })).toBe('end');
    expect(annDateProblem({ start: '2026-12-10T10:00', end: '' })).toBeNull();
    expect(annDateProblem({ start: '2026-12-10T10:00', end: '2026-12-10T10:01' })).toBeNull();
    // before the year 2000 (0026 typed for 2026): said at the field, in the console's language
    expect(annDateProblem({ start: '0026-12-10T10:00', end: '' })).toBe('startYear');
    expect(annDateProblem({ start: '2026-12-10T10:00', end: '0027-01-01T00:00' })).toBe('endYear');
    await i18n.loadNamespaces(['ops']);
    await i18n.changeLanguage('TY');
    expect(i18n.t('ops:content_end_after_start')).toBe('Dapat pagkatapos ng simula ang katapusan');
    expect(i18n.t('ops:content_start_required')).not.toBe('content_start_required');
    await i18n.changeLanguage('EN');
  });
});
