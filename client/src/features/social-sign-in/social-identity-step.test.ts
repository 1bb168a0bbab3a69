import { describe, expect, it } from 'vitest';
import { identityProblems } from './social-identity-step';

describe('the identity step of a social sign-in', () => {
  const today = new Date(Date.UTC(2026, 10, 24));
  const ok = { payeeName: 'Juan Dela Cruz', birthday: '1990-05-06', ageConfirmed: true };

  it('passes a full name, a real birth date of age and the ticked box', () => {
    expect(identityProblems(ok, 21, today)).toEqual({});
  });

  it('names each problem: no name, no real date, under the minimum age on the merchant calendar, box not ticked', () => {
    expect(identityProblems({ payeeName: ' 12 ', birthday: '', ageConfirmed: false }, 21, today)).toEqual({ payeeName: 'name_required', birthday: 'birthday_required', ageConfirmed: 'age_confirm' });
    expect(identityProblems({ ...ok, birthday: '1990-13-40' }, 21, today).birthday).toBe('birthday_required');
    // 21 tomorrow is still 20 today
    expect(identityProblems({ ...ok, birthday: '2005-11-25' }, 21, today).birthday).toBe('underage');
    expect(identityProblems({ ...ok, birthday: '2005-11-24' }, 21, today)).toEqual({});
    expect(identityProblems({ ...ok, birthday: '2005-11-25' }, 18, today)).toEqual({});
  });
});
