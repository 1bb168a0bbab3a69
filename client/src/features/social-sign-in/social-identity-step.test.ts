import { describe, expect, it } from 'vitest';
import { identityNameProblem, type FieldRule } from '@portal/contracts/domain/registration';
import { identityProblems } from './social-identity-step';

describe('the identity step of a social sign-in', () => {
  const today = new Date(Date.UTC(2026, 10, 24));
  const ok = { payeeName: 'Juan Dela Cruz', birthday: '1990-05-06', ageConfirmed: true };
  // The merchant's payeeName rule as GET /wps/system/setting/register sends it (letters and spaces, 2-50).
  const nameRule: FieldRule = { enabled: false, required: false, acceptedPattern: '^[\\p{L} .,\'-]+$', patternId: 19, minLength: 2, maxLength: 50, type: 'text' };

  it('passes a full name, a real birth date of age and the ticked box', () => {
    expect(identityProblems(ok, nameRule, 21, today)).toEqual({});
  });

  it('names each problem: no name, no real date, under the minimum age on the merchant calendar, box not ticked', () => {
    expect(identityProblems({ payeeName: '  ', birthday: '', ageConfirmed: false }, nameRule, 21, today)).toEqual({
      payeeName: { key: 'social:identity_name_required' },
      birthday: { key: 'social:identity_birthday_required' },
      ageConfirmed: { key: 'social:identity_age_confirm', values: { age: 21 } },
    });
    expect(identityProblems({ ...ok, birthday: '1990-13-40' }, nameRule, 21, today).birthday).toEqual({ key: 'social:identity_birthday_required' });
    // 21 tomorrow is still 20 today
    expect(identityProblems({ ...ok, birthday: '2005-11-25' }, nameRule, 21, today).birthday).toEqual({ key: 'social:identity_underage', values: { age: 21 } });
    expect(identityProblems({ ...ok, birthday: '2005-11-24' }, nameRule, 21, today)).toEqual({});
    expect(identityProblems({ ...ok, birthday: '2005-11-25' }, nameRule, 18, today)).toEqual({});
  });

  it('checks the name with the server rule (identityNameProblem): the merchant pattern and length, and a name of only punctuation is no name', () => {
    // digits break the merchant's pattern: the registration's pattern message with its range
    expect(identityProblems({ ...ok, payeeName: 'Juan 12' }, nameRule, 21, today).payeeName).toEqual({ key: 'register:reg_pattern_19', values: { min: 2, max: 50, range: '2-50' } });
    expect(identityProblems({ ...ok, payeeName: 'J' }, nameRule, 21, today).payeeName?.key).toBe('register:reg_pattern_19');
    // the pattern lets ".-" through, but it has no letters: the server's matching key is empty
    expect(identityProblems({ ...ok, payeeName: '.-' }, nameRule, 21, today).payeeName).toEqual({ key: 'social:identity_name_required' });
    expect(identityNameProblem(nameRule, '.-')).toEqual({ kind: 'required' });
    // a disabled, optional rule (a merchant that turned the field off) is still required here
    expect(identityNameProblem(nameRule, '')).toEqual({ kind: 'required' });
    expect(identityNameProblem({ ...nameRule, acceptedPattern: '*' }, 'Juan Dela Cruz')).toBeNull();
  });
});
