import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, transition, type SnapshotFrom } from 'xstate';
import type { TFieldRule } from '@portal/contracts/api/auth';
import { PATTERNS } from '@portal/contracts/domain/patterns';
import { REGISTRATION_FIELDS, type RegistrationField } from '@portal/contracts/domain/registration';
import { ApiError } from '../../../lib/api';
import { untakenTransitions } from '../../../lib/machine-coverage';
import { buildRegisterBody, validateRegistration, visibleFields, serverErrors, type RegistrationSetup } from './registration-form';
import { registrationMachine, type RegistrationEvent } from './registration-machine';

function rule(field: RegistrationField, enabled: boolean, required: boolean, patternId: number, type: TFieldRule['type'] = 'text', min?: number, max?: number): TFieldRule {
  const p = PATTERNS[patternId]!;
  return { field, enabled, required, patternId, type, acceptedPattern: p.pattern, minLength: min ?? p.min, maxLength: max ?? p.max };
}

/** The demo merchant's defaults (gateway registration-settings). */
const DEMO_RULES: TFieldRule[] = [
  rule('username', true, true, 1, 'text', 6, 16),
  rule('password', true, true, 5, 'password', 6, 20),
  rule('confirmPassword', true, true, 5, 'password', 6, 20),
  rule('payeeName', true, false, 19),
  rule('email', true, false, 3, 'email'),
  rule('mobileNum', true, false, 18, 'tel'),
  rule('verificationCode', true, true, 6, 'text', 6, 6),
  rule('affiliateCode', true, false, 4, 'text', 4, 16),
  rule('captcha', true, true, 6, 'text', 4, 4),
  rule('birthday', true, false, 11, 'date'),
  rule('paymentPassword', false, true, 6, 'password', 6, 6),
  ...(['qqNum', 'line', 'whatsapp', 'facebook', 'wechat', 'idNumber', 'recommenderId'] as const).map((f) => rule(f, false, false, 9)),
];

const SETUP: RegistrationSetup = {
  rules: DEMO_RULES,
  minAge: 21,
  gmtOffsetMinutes: 480,
  kinds: ['register', 'registerMobile'],
  smsVerification: true,
  urlAffiliateCode: null,
  domain: 'portal.test',
  registerUrl: 'http://portal.test/register',
};
const OK = { termsAccepted: true, ageConfirmed: true };

describe('registration form rules', () => {
  it('covers every registration field in the display order', () => {
    expect(new Set(visibleFields({ ...SETUP, rules: REGISTRATION_FIELDS.map((f) => rule(f, true, false, 0)) }, 'register').map((f) => f.field)))
      .toEqual(new Set(REGISTRATION_FIELDS));
  });

  it('shows enabled fields; mobile registration drops the username but keeps the password and its confirmation', () => {
    expect(visibleFields(SETUP, 'register').map((f) => f.field)).toEqual([
      'username', 'mobileNum', 'verificationCode', 'password', 'confirmPassword', 'payeeName', 'email', 'birthday', 'affiliateCode', 'captcha',
    ]);
    const mobile = visibleFields(SETUP, 'registerMobile');
    expect(mobile.map((f) => f.field)).toEqual(['mobileNum', 'verificationCode', 'password', 'confirmPassword', 'payeeName', 'email', 'birthday', 'affiliateCode', 'captcha']);
    expect(mobile.find((f) => f.field === 'mobileNum')?.rule.required).toBe(true);
    expect(mobile.find((f) => f.field === 'password')?.rule.required).toBe(true);
    // an empty password is refused on the mobile form as on the username form
    const errors = validateRegistration(SETUP, 'registerMobile', { mobileNum: '9171234567', verificationCode: '123456' }, { termsAccepted: true, ageConfirmed: true });
    expect(Object.keys(errors)).toEqual(expect.arrayContaining(['password', 'confirmPassword']));
    expect(visibleFields({ ...SETUP, smsVerification: false }, 'registerMobile').map((f) => f.field)).not.toContain('verificationCode');
  });

  it('asks the SMS code on username registration for a number given: required with a required number, else once one is typed', () => {
    const rules = DEMO_RULES.map((r) => (r.field === 'mobileNum' ? { ...r, required: true } : r));
    expect(visibleFields({ ...SETUP, rules }, 'register').find((f) => f.field === 'verificationCode')?.rule.required).toBe(true);
    // optional number (the demo merchant): the code is shown with it, needed only when a number is typed
    expect(visibleFields(SETUP, 'register').find((f) => f.field === 'verificationCode')?.rule.required).toBe(false);
    const base = { username: 'newplayer1', password: 'abc12345', confirmPassword: 'abc12345', captcha: '1234' };
    expect(validateRegistration(SETUP, 'register', base, OK).verificationCode).toBeUndefined();
    expect(validateRegistration(SETUP, 'register', { ...base, mobileNum: '9171234567' }, OK).verificationCode).toBeDefined();
    expect(validateRegistration(SETUP, 'register', { ...base, mobileNum: '9171234567', verificationCode: '123456' }, OK).verificationCode).toBeUndefined();
    // no SMS verification: no code
    expect(visibleFields({ ...SETUP, smsVerification: false }, 'register').map((f) => f.field)).not.toContain('verificationCode');
  });

  it('reports empty required fields, pattern ranges, the confirmation, terms and age', () => {
    const errors = validateRegistration(SETUP, 'register', { username: '1bad', password: 'abc123', confirmPassword: 'abc124', email: 'x' }, { termsAccepted: false, ageConfirmed: false });
    expect(errors).toEqual({
      username: { key: 'register:reg_pattern_1', values: { min: 6, max: 16, range: '6-16' } },
      confirmPassword: { key: 'register:confirm_mismatch' },
      email: { key: 'register:reg_pattern_3', values: { min: 5, max: 64, range: '5-64' } },
      captcha: { key: 'register:input_empty' },
      terms: { key: 'register:terms_required' },
      age: { key: 'register:age_required', values: { age: 21 } },
    });
    const captcha = validateRegistration(SETUP, 'register', { captcha: '12' }, OK).captcha;
    expect(captcha).toEqual({ key: 'register:reg_pattern_6', values: { min: 4, max: 4, range: '4' } });
  });

  it("treats '*' as any characters and checks the birthday against the merchant's minimum age", () => {
    const rules = DEMO_RULES.map((r) => (r.field === 'payeeName' ? { ...r, acceptedPattern: '*' } : r));
    const values = { username: 'player01', password: 'abc123', confirmPassword: 'abc123', captcha: '1234', payeeName: '¿?', birthday: '2015-01-01' };
    const errors = validateRegistration({ ...SETUP, rules }, 'register', values, OK, new Date('2026-01-01'));
    expect(errors).toEqual({ birthday: { key: 'register:underage', values: { age: 21 } } });
    // A date the calendar does not have passes the pattern but not the form (the server refuses it too).
    expect(validateRegistration({ ...SETUP, rules }, 'register', { ...values, birthday: '1990-02-30' }, OK, new Date('2026-01-01')))
      .toEqual({ birthday: { key: 'register:date_invalid' } });
  });

  it('refuses a transaction password equal to the login password, as the server does', () => {
    const rules = DEMO_RULES.map((r) => (r.field === 'paymentPassword' ? rule('paymentPassword', true, true, 5, 'password', 6, 20) : r));
    const values = { username: 'player01', password: 'abc12345', confirmPassword: 'abc12345', captcha: '1234', paymentPassword: 'abc12345' };
    expect(validateRegistration({ ...SETUP, rules }, 'register', values, OK).paymentPassword).toEqual({ key: 'common:error_PASSWORDS_MUST_DIFFER' });
    expect(validateRegistration({ ...SETUP, rules }, 'register', { ...values, paymentPassword: 'pay12345' }, OK).paymentPassword).toBeUndefined();
  });

  it('refuses a required full name of punctuation only, as the server does (identityNameProblem)', () => {
    const rules = DEMO_RULES.map((r) => (r.field === 'payeeName' ? { ...r, required: true, acceptedPattern: '*' } : r));
    const values = { username: 'player01', password: 'abc123', confirmPassword: 'abc123', captcha: '1234', birthday: '1990-01-01' };
    expect(validateRegistration({ ...SETUP, rules }, 'register', { ...values, payeeName: '¿? -' }, OK, new Date('2026-01-01')).payeeName).toBeDefined();
    expect(validateRegistration({ ...SETUP, rules }, 'register', { ...values, payeeName: 'Juan Dela Cruz' }, OK, new Date('2026-01-01'))).toEqual({});
  });

  it('builds the body: trimmed fields, invitation code from the address when the field is hidden, mobile as username', () => {
    const hidden = DEMO_RULES.map((r) => (r.field === 'affiliateCode' ? { ...r, enabled: false } : r));
    const body = buildRegisterBody(
      { ...SETUP, rules: hidden, urlAffiliateCode: 'LUCKY8' },
      'registerMobile',
      { mobileNum: ' 9171234567 ', verificationCode: '123456', captcha: '1234', captchaKey: 'k1', countryDialingCode: '63' },
      OK,
    );
    expect(body).toEqual({
      mobileNum: '9171234567', username: '9171234567', verificationCode: '123456', captcha: '1234', captchaKey: 'k1', countryDialingCode: '63',
      affiliateCode: 'LUCKY8', domain: 'portal.test', registerUrl: 'http://portal.test/register', registerMethod: 'WEB', login: true,
      termsAccepted: true, ageConfirmed: true,
    });
  });

  it('sends the referral code of a referral link (?referralCode=) beside the invitation code', () => {
    const values = { username: 'player02', password: 'abc123', confirmPassword: 'abc123', captcha: '1234', captchaKey: 'k1' };
    const body = buildRegisterBody({ ...SETUP, urlReferralCode: ' ABCD2345 ' }, 'register', values, OK);
    expect(body).toMatchObject({ username: 'player02', referralCode: 'ABCD2345' });
    expect(buildRegisterBody(SETUP, 'register', values, OK)).not.toHaveProperty('referralCode');
  });

  it('maps server details and codes to fields', () => {
    const validation = new ApiError('VALIDATION', 'Invalid input', 400, [
      { path: 'username', message: 'reg_pattern_1:6-16' },
      { path: 'email', message: 'Input cannot be empty' },
      { path: 'captcha', message: 'reg_pattern_6:4' },
    ]);
    expect(serverErrors(validation, 'register')).toEqual({
      fields: {
        username: { key: 'register:reg_pattern_1', values: { min: 6, max: 16, range: '6-16' } },
        email: { key: 'register:input_empty' },
        captcha: { key: 'register:reg_pattern_6', values: { min: 4, max: 4, range: '4' } },
      },
      form: null,
    });
    expect(serverErrors(new ApiError('ACCOUNT_EXISTS', ''), 'registerMobile').fields).toEqual({ mobileNum: { key: 'common:error_ACCOUNT_EXISTS' } });
    expect(serverErrors(new ApiError('SMS_CODE_EXPIRED', ''), 'register').fields).toEqual({ verificationCode: { key: 'common:error_SMS_CODE_EXPIRED' } });
    expect(serverErrors(new ApiError('TOO_MANY_REQUESTS', ''), 'register')).toEqual({ fields: {}, form: { key: 'common:error_TOO_MANY_REQUESTS' } });
  });
});

const change = (field: string, value: string) => ({ type: 'FIELD.CHANGE', field, value }) as RegistrationEvent;
const fill = (events: RegistrationEvent[]) => {
  let [s] = initialTransition(registrationMachine, { setup: SETUP });
  for (const e of events) [s] = transition(registrationMachine, s, e);
  return s;
};
const VALID = [change('username', 'player01'), change('password', 'abc123'), change('confirmPassword', 'abc123'), change('captcha', '1234'), { type: 'AGE.TOGGLE' } as const];

describe('registrationMachine (pure transitions)', () => {
  it('starts with the first allowed type, terms checked and age unchecked', () => {
    const [s] = initialTransition(registrationMachine, { setup: { ...SETUP, kinds: ['registerMobile'] } });
    expect(s.value).toBe('editing');
    expect(s.context).toMatchObject({ kind: 'registerMobile', termsAccepted: true, ageConfirmed: false });
  });

  it('switches only to allowed types', () => {
    const s = fill([{ type: 'KIND.SET', kind: 'registerMobile' }]);
    expect(s.context.kind).toBe('registerMobile');
    const [only] = initialTransition(registrationMachine, { setup: { ...SETUP, kinds: ['register'] } });
    expect(transition(registrationMachine, only, { type: 'KIND.SET', kind: 'registerMobile' })[0].context.kind).toBe('register');
  });

  it('stays and shows problems on an invalid submit; typing clears that field', () => {
    const s = fill([{ type: 'TERMS.TOGGLE' }, { type: 'SUBMIT' }]);
    expect(s.value).toBe('editing');
    expect(s.context.errors.terms).toEqual({ key: 'register:terms_required' });
    expect(s.context.errors.username).toEqual({ key: 'register:input_empty' });
    const [s2] = transition(registrationMachine, s, change('username', 'p'));
    expect(s2.context.errors.username).toBeUndefined();
    expect(s2.context.errors.terms).toBeDefined();
  });

  it('CHECK shows every problem and sends nothing, even when the values are valid', () => {
    const s = fill([{ type: 'TERMS.TOGGLE' }, { type: 'CHECK' }]);
    expect(s.value).toBe('editing');
    expect(s.context.errors.username).toEqual({ key: 'register:input_empty' });
    const ok = fill([...VALID, { type: 'CHECK' }]);
    expect(ok.value).toBe('editing');
    expect(ok.context.errors).toEqual({});
  });

  it('registers directly without an invitation code and stores the session on success', () => {
    const s = fill([...VALID, { type: 'SUBMIT' }]);
    expect(s.value).toBe('registering');
    const [done, actions] = transition(registrationMachine, s, { type: 'xstate.done.actor.register', output: { memberId: 7, token: 'tok' } } as never);
    expect(done.value).toBe('registered');
    expect(done.status).toBe('done');
    expect(done.context.result).toEqual({ memberId: 7, token: 'tok' });
    expect(actions.map((a) => a.type)).toContain('storeSession');
  });

  it('checks an invitation code first; a refusal opens the dialog and stops', () => {
    const s = fill([...VALID, change('affiliateCode', 'NOPE1'), { type: 'SUBMIT' }]);
    expect(s.value).toBe('checkingAffiliate');
    const [refused] = transition(registrationMachine, s, { type: 'xstate.error.actor.checkAffiliate', error: new ApiError('INVALID_INVITATION_CODE', '') } as never);
    expect(refused.value).toBe('invitationRefused');
    expect(transition(registrationMachine, refused, { type: 'DIALOG.CLOSE' })[0].value).toBe('editing');
    const [ok] = transition(registrationMachine, s, { type: 'xstate.done.actor.checkAffiliate', output: { valid: true } } as never);
    expect(ok.value).toBe('registering');
    const [down] = transition(registrationMachine, s, { type: 'xstate.error.actor.checkAffiliate', error: new ApiError('NETWORK', '') } as never);
    expect(down.value).toBe('editing');
    expect(down.context.formError).toEqual({ key: 'common:error_NETWORK' });
  });

  it('shows server field errors and asks for a new captcha', () => {
    const s = fill([...VALID, { type: 'SUBMIT' }]);
    const error = new ApiError('VALIDATION', 'Invalid input', 400, [{ path: 'username', message: 'reg_pattern_1:6-16' }]);
    const [back, actions] = transition(registrationMachine, s, { type: 'xstate.error.actor.register', error } as never);
    expect(back.value).toBe('editing');
    expect(back.context.errors.username?.key).toBe('register:reg_pattern_1');
    expect(actions.map((a) => a.type)).toContain('captchaUsed');
    // The new picture's key clears the stale answer (it was sent again and refused as a wrong captcha);
    // a captcha error from the server stays until the player types.
    const refused = transition(registrationMachine, s, { type: 'xstate.error.actor.register', error: new ApiError('VALIDATION', 'Invalid input', 400, [{ path: 'captcha', message: 'captcha' }]) } as never)[0];
    expect(refused.context.values.captcha).toBe('1234');
    expect(refused.context.errors.captcha).toBeDefined();
    const [fresh] = transition(registrationMachine, refused, change('captchaKey', 'k2'));
    expect(fresh.context.values).toMatchObject({ captchaKey: 'k2', captcha: '' });
    expect(fresh.context.errors.captcha).toEqual(refused.context.errors.captcha);
  });

  it('runs with provided actors: the body goes to the chosen endpoint', async () => {
    const seen: unknown[] = [];
    const stored: unknown[] = [];
    const actor = createActor(
      registrationMachine.provide({
        actors: {
          checkAffiliate: fromPromise(async ({ input }) => void seen.push(['affiliate', input])),
          register: fromPromise(async ({ input }) => {
            seen.push([input.kind, input.body.username, input.body.affiliateCode]);
            return { memberId: 1, token: 't' };
          }),
        },
        actions: { storeSession: ({ context }) => void stored.push(context.result?.token) },
      }),
      { input: { setup: { ...SETUP, urlAffiliateCode: 'LUCKY8', rules: DEMO_RULES.map((r) => (r.field === 'affiliateCode' ? { ...r, enabled: false } : r)) } } },
    ).start();
    for (const e of VALID) actor.send(e);
    actor.send({ type: 'SUBMIT' });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toBe('registered');
    expect(seen).toEqual([['affiliate', { code: 'LUCKY8', domain: 'portal.test' }], ['register', 'player01', 'LUCKY8']]);
    expect(stored).toEqual(['t']);
  });

  it("a link's referral code refused is dropped: the player is told, and the next submit registers without it (every retry failed)", async () => {
    const sent: Array<string | undefined> = [];
    let dropped = 0;
    const actor = createActor(
      registrationMachine.provide({
        actors: {
          checkAffiliate: fromPromise<unknown, { code: string; domain: string }>(async () => undefined),
          register: fromPromise(async ({ input }) => {
            sent.push(input.body.referralCode);
            if (input.body.referralCode) throw new ApiError('REFERRAL_CODE_INVALID', 'Invalid referral code', 400);
            return { memberId: 1, token: 't' };
          }),
        },
        actions: { referralDropped: () => void dropped++ },
      }),
      { input: { setup: { ...SETUP, urlReferralCode: 'ZZZZZZZZ' } } },
    ).start();
    for (const e of VALID) actor.send(e);
    actor.send({ type: 'SUBMIT' });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.formError).toEqual({ key: 'register:referral_dropped' });
    expect(dropped).toBe(1);
    actor.send({ type: 'SUBMIT' });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toBe('registered');
    expect(sent).toEqual(['ZZZZZZZZ', undefined]);
  });

  it('an invitation link fills the shown invitation field: its code is checked and sent unless the player changes it', async () => {
    const seen: unknown[] = [];
    const make = () => createActor(
      registrationMachine.provide({
        actors: {
          checkAffiliate: fromPromise(async ({ input }) => void seen.push(['affiliate', input.code])),
          register: fromPromise(async ({ input }) => {
            seen.push(['register', input.body.affiliateCode ?? null]);
            return { memberId: 1, token: 't' };
          }),
        },
        actions: { storeSession: () => undefined },
      }),
      { input: { setup: { ...SETUP, urlAffiliateCode: ' LUCKY8 ' } } },
    ).start();
    const a = make();
    expect(a.getSnapshot().context.values.affiliateCode).toBe('LUCKY8');
    for (const e of VALID) a.send(e);
    a.send({ type: 'SUBMIT' });
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual([['affiliate', 'LUCKY8'], ['register', 'LUCKY8']]);
    seen.length = 0;
    const b = make();
    for (const e of VALID) b.send(e);
    b.send(change('affiliateCode', ''));
    b.send({ type: 'SUBMIT' });
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual([['register', null]]);
  });
});

describe('registrationMachine (model)', () => {
  it('every transition is taken on some path', () => {
    type Snap = SnapshotFrom<typeof registrationMachine>;
    const events = (): RegistrationEvent[] => [
      { type: 'KIND.SET', kind: 'register' },
      ...VALID,
      change('affiliateCode', 'LUCKY8'),
      change('affiliateCode', ''),
      { type: 'TERMS.TOGGLE' },
      { type: 'SUBMIT' },
      { type: 'CHECK' },
      { type: 'DIALOG.CLOSE' },
      { type: 'xstate.done.actor.checkAffiliate', output: {} } as never,
      { type: 'xstate.error.actor.checkAffiliate', error: new ApiError('INVALID_INVITATION_CODE', '') } as never,
      { type: 'xstate.error.actor.checkAffiliate', error: new ApiError('NETWORK', '') } as never,
      { type: 'xstate.done.actor.register', output: { memberId: 1, token: 't' } } as never,
      { type: 'xstate.error.actor.register', error: new ApiError('INVALID_INVITATION_CODE', '') } as never,
      { type: 'xstate.error.actor.register', error: new ApiError('ACCOUNT_EXISTS', '') } as never,
      { type: 'xstate.error.actor.register', error: new ApiError('REFERRAL_CODE_INVALID', '') } as never,
    ];
    const missing = untakenTransitions(registrationMachine, {
      // A referral link's code, so the refusal that drops it is reachable.
      input: { setup: { ...SETUP, urlReferralCode: 'ZZZZZZZZ' } },
      events,
      serialize: (s: Snap) => JSON.stringify([s.value, s.context.kind, s.context.values, s.context.termsAccepted, s.context.ageConfirmed, s.context.setup.urlReferralCode]),
    });
    expect(missing).toEqual([]);
  });

  it("the mobile field's dialing code starts as the merchant's own (+84 on LuckyDong), +63 without one", () => {
    expect(initialTransition(registrationMachine, { setup: SETUP })[0].context.values.countryDialingCode).toBe('63');
    expect(initialTransition(registrationMachine, { setup: { ...SETUP, dialingCode: '84' } })[0].context.values.countryDialingCode).toBe('84');
  });
});
