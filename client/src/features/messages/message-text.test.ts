import { describe, expect, it } from 'vitest';
import { messageText } from './message-text';

const texts = { EN: { title: 'Weekend reload', content: '20% bonus' }, TY: { title: 'Reload ngayong weekend', content: '20% na bonus' } };
const translate = (key: string, params: Record<string, string | number>) => `${key}:${JSON.stringify(params)}`;

describe('messageText', () => {
  it('shows an operator message in the UI language, EN for other languages', () => {
    expect(messageText({ title: 'message_marketing', params: {}, texts }, 'TY', translate)).toEqual(texts.TY);
    expect(messageText({ title: 'message_marketing', params: {}, texts }, 'EN', translate)).toEqual(texts.EN);
    expect(messageText({ title: 'message_marketing', params: {}, texts }, 'VI', translate)).toEqual(texts.EN);
  });
  it('falls back to EN when TY is empty', () => {
    expect(messageText({ title: 'message_marketing', params: {}, texts: { ...texts, TY: { title: '', content: '' } } }, 'TY', translate)).toEqual(texts.EN);
  });
  it('translates the title key of a system-made message with its params', () => {
    expect(messageText({ title: 'message_deposit_credited', params: { amount: 100 }, texts: null }, 'TY', translate)).toEqual({ title: 'message_deposit_credited:{"amount":100}', content: '' });
  });
  it('names what a system message is about in the UI language: TY, else EN, else its reference', () => {
    const params = { reference: 'R7', points: 100, title_EN: 'Cash 5', title_TY: 'Cash na 5' };
    const title = (p: Record<string, string | number>, lang: string) => JSON.parse(messageText({ title: 'message_points_redeem_approved', params: p, texts: null }, lang, translate).title.replace(/^[^:]*:/, '')).title;
    expect(title(params, 'TY')).toBe('Cash na 5');
    expect(title(params, 'EN')).toBe('Cash 5');
    expect(title({ ...params, title_TY: '' }, 'TY')).toBe('Cash 5');
    expect(title({ reference: 'R7', points: 100 }, 'TY')).toBe('R7');
  });
  it("opens a refusal's reason below its title; none without one", () => {
    const m = (params: Record<string, string | number>) => messageText({ title: 'message_withdrawal_rejected', params, texts: null }, 'TY', translate);
    expect(m({ amount: '₱100.00', reference: 'W3', reason: 'Wrong account name' }).content).toBe('message_reason:{"reason":"Wrong account name"}');
    expect(m({ amount: '₱100.00', reference: 'W3' }).content).toBe('');
    expect(m({ amount: '₱100.00', reference: 'W3', reason: '  ' }).content).toBe('');
  });
});
