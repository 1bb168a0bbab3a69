import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { EventObject } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { ApiError } from '../../../lib/api';
import type { TBotChallenge, TLoginRequest, TLoginValue, TMemberInfo } from '../lib/auth-types';
import { EMPTY_LOGIN_FORM, type LoginFormValues } from '../lib/login-validation';
import { loginMachine, type LoginMachineInput } from './login.machine';
import { definedTransitions, untakenTransitions } from './transition-coverage';

const flush = () => new Promise((r) => setTimeout(r, 0));

const VALUE: TLoginValue = { token: 'tok', firstTimeLogin: false, passwordExpired: false, defaultPassword: false, isAgent: false, isTrial: false };
const MEMBER: TMemberInfo = {
  id: 7, account: 'player01', nickname: 'P1', type: 0, isAgent: false, isTrial: false, currencySymbol: '₱', language: 'EN',
  imgUrl: null, mobileNum: null, email: null, totpEnabled: false,
};
const BOT: TBotChallenge = { botId: 'b1', image: 'data:image/png;base64,', width: 280, height: 140, pieceY: 30 };
const FORM: LoginFormValues = { ...EMPTY_LOGIN_FORM, username: ' player01 ', password: ' pw ', mobileNum: '917 123 4567', smsCode: '123456' };

type Fakes = {
  login?: (req: TLoginRequest) => Promise<TLoginValue>;
  verify?: (input: { challengeId: string; method: string; code: string }) => Promise<TLoginValue>;
  member?: () => Promise<TMemberInfo>;
  bot?: () => Promise<TBotChallenge>;
  freePlay?: () => Promise<TLoginValue>;
};

function start(fakes: Fakes = {}, input: LoginMachineInput = { types: ['username', 'sms'] }) {
  const requests: TLoginRequest[] = [];
  const verifies: Array<{ challengeId: string; method: string; code: string }> = [];
  const spy = {
    storeSession: vi.fn(), rememberUser: vi.fn(), showFirstLoginPopups: vi.fn(), openChangePassword: vi.fn(),
    afterLogin: vi.fn(), finish: vi.fn(), goAgentHome: vi.fn(), goHome: vi.fn(),
  };
  const machine = loginMachine.provide({
    actors: {
      loadBotChallenge: fromPromise(() => (fakes.bot ?? (async () => BOT))()),
      login: fromPromise(({ input: req }: { input: TLoginRequest }) => {
        requests.push(req);
        return (fakes.login ?? (async () => VALUE))(req);
      }),
      verifyLogin: fromPromise(({ input: v }: { input: { challengeId: string; method: 'sms' | 'email' | 'totp'; code: string } }) => {
        verifies.push(v);
        return (fakes.verify ?? (async () => VALUE))(v);
      }),
      freePlay: fromPromise(() => (fakes.freePlay ?? (async () => ({ ...VALUE, isTrial: true })))()),
      loadMember: fromPromise(() => (fakes.member ?? (async () => MEMBER))()),
    },
    actions: {
      storeSession: (_, p) => spy.storeSession(p),
      rememberUser: (_, p) => spy.rememberUser(p),
      showFirstLoginPopups: () => spy.showFirstLoginPopups(),
      openChangePassword: () => spy.openChangePassword(),
      afterLogin: (_, p) => spy.afterLogin(p),
      finish: () => spy.finish(),
      goAgentHome: () => spy.goAgentHome(),
      goHome: () => spy.goHome(),
    },
  });
  const actor = createActor(machine, { input }).start();
  return { actor, requests, verifies, spy };
}

describe('login machine', () => {
  it('starts on the first enabled type and switches only to enabled ones', () => {
    const { actor } = start({}, { types: ['sms'] });
    expect(actor.getSnapshot().context.type).toBe('sms');
    actor.send({ type: 'SWITCH_TYPE', loginType: 'username' });
    expect(actor.getSnapshot().context.type).toBe('sms');
    const both = start();
    both.actor.send({ type: 'SWITCH_TYPE', loginType: 'sms' });
    expect(both.actor.getSnapshot().context.type).toBe('sms');
  });

  it('validates before anything is sent', () => {
    const { actor, requests } = start();
    actor.send({ type: 'SUBMIT', form: EMPTY_LOGIN_FORM });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ username: 'field_required', password: 'field_required' });
    expect(requests).toEqual([]);
  });

  it('username login: slider, then login with the bot answer, token, member info, finish', async () => {
    const { actor, requests, spy } = start();
    actor.send({ type: 'SUBMIT', form: { ...FORM, remember: true } });
    expect(actor.getSnapshot().value).toBe('botLoading');
    await flush();
    expect(actor.getSnapshot().value).toBe('botSolving');
    expect(actor.getSnapshot().context.bot).toEqual(BOT);
    actor.send({ type: 'BOT_SOLVED', x: 101.6, y: 47.4 });
    await flush();
    await flush();
    // Trimmed username, untouched password, no captcha until asked for.
    expect(requests).toEqual([{ type: 'username', username: 'player01', password: ' pw ', botId: 'b1', botAnswer: 102, botAnswerY: 47 }]);
    expect(spy.storeSession).toHaveBeenCalledWith({ login: VALUE });
    expect(spy.rememberUser).toHaveBeenCalledWith({ form: { ...FORM, remember: true }, type: 'username' });
    expect(spy.showFirstLoginPopups).not.toHaveBeenCalled();
    expect(spy.afterLogin).toHaveBeenCalledWith({ member: MEMBER });
    expect(spy.finish).toHaveBeenCalledTimes(1);
    expect(spy.goAgentHome).not.toHaveBeenCalled();
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('cancelling the slider goes back to the form; every submit fetches a new challenge', async () => {
    let n = 0;
    const { actor } = start({ bot: async () => ({ ...BOT, botId: `b${++n}` }) });
    actor.send({ type: 'SUBMIT', form: FORM });
    await flush();
    actor.send({ type: 'BOT_CANCEL' });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'SUBMIT', form: FORM });
    await flush();
    expect(actor.getSnapshot().context.bot?.botId).toBe('b2');
  });

  it('a failed bot challenge fetch shows its error', async () => {
    const { actor } = start({ bot: async () => { throw new ApiError('NETWORK', 'offline'); } });
    actor.send({ type: 'SUBMIT', form: FORM });
    await flush();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.error).toBe('NETWORK');
  });

  it('shows the captcha when the failure asks for it, then sends it and reloads it after each failure', async () => {
    const { actor, requests } = start({
      login: async () => { throw new ApiError('INVALID_CREDENTIALS', 'Wrong username or password', 401, [], { captcha: true }); },
    });
    actor.send({ type: 'SUBMIT', form: FORM });
    await flush();
    actor.send({ type: 'BOT_SOLVED', x: 90, y: 47.4 });
    await flush();
    let ctx = actor.getSnapshot().context;
    expect(actor.getSnapshot().value).toBe('idle');
    expect(ctx).toMatchObject({ error: 'INVALID_CREDENTIALS', isCaptchaShown: true, captchaVersion: 1, bot: null });
    // Now the captcha is required.
    actor.send({ type: 'SUBMIT', form: FORM });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ captcha: 'captcha_required' });
    actor.send({ type: 'SUBMIT', form: { ...FORM, captcha: ' 1234 ', captchaKey: 'k1' } });
    await flush();
    actor.send({ type: 'BOT_SOLVED', x: 90, y: 47.4 });
    await flush();
    expect(requests[1]).toMatchObject({ captcha: '1234', captchaKey: 'k1' });
    ctx = actor.getSnapshot().context;
    expect(ctx.captchaVersion).toBe(2);
  });

  it('a plain failure keeps the captcha hidden and DISMISS_ERROR clears the message', async () => {
    const { actor } = start({ login: async () => { throw new ApiError('NON_AGENT', 'Non-agents cannot log in', 403); } }, { types: ['username'], agentLogin: true });
    actor.send({ type: 'SUBMIT', form: FORM });
    await flush();
    actor.send({ type: 'BOT_SOLVED', x: 90, y: 47.4 });
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ error: 'NON_AGENT', isCaptchaShown: false, captchaVersion: 0 });
    actor.send({ type: 'DISMISS_ERROR' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('agent logins carry agentLogin and go to /agentHome', async () => {
    const { actor, requests, spy } = start({}, { types: ['username'], agentLogin: true });
    actor.send({ type: 'SUBMIT', form: FORM });
    await flush();
    actor.send({ type: 'BOT_SOLVED', x: 90, y: 47.4 });
    await flush();
    await flush();
    expect(requests[0]).toMatchObject({ agentLogin: true });
    expect(spy.goAgentHome).toHaveBeenCalledTimes(1);
  });

  it('SMS login: no slider, mobile number as username and the code as password', async () => {
    const { actor, requests, spy } = start({ login: async () => ({ ...VALUE, defaultPassword: true, passwordExpired: true }) }, { types: ['sms', 'username'], forceExpiredChange: true });
    actor.send({ type: 'SUBMIT', form: { ...FORM, smsCode: ' 123456' } });
    expect(actor.getSnapshot().value).toBe('loggingIn');
    await flush();
    await flush();
    expect(requests).toEqual([{ type: 'sms', username: '9171234567', password: ' 123456', countryDialingCode: '63' }]);
    // An SMS login never forces the change.
    expect(spy.openChangePassword).not.toHaveBeenCalled();
    expect(spy.afterLogin).toHaveBeenCalled();
  });

  it('default password: the forced change modal instead of member info', async () => {
    const { actor, spy } = start({ login: async () => ({ ...VALUE, defaultPassword: true, firstTimeLogin: true }) });
    actor.send({ type: 'SUBMIT', form: FORM });
    await flush();
    actor.send({ type: 'BOT_SOLVED', x: 90, y: 47.4 });
    await flush();
    expect(actor.getSnapshot().value).toBe('passwordChange');
    expect(spy.showFirstLoginPopups).toHaveBeenCalledTimes(1);
    expect(spy.openChangePassword).toHaveBeenCalledTimes(1);
    expect(spy.finish).toHaveBeenCalledTimes(1);
    expect(spy.afterLogin).not.toHaveBeenCalled();
  });

  it('an expired password forces the change only with PWDEXPFORCECHANGE3', async () => {
    const expired = async () => ({ ...VALUE, passwordExpired: true });
    const off = start({ login: expired }, { types: ['username'], forceExpiredChange: false });
    off.actor.send({ type: 'SUBMIT', form: FORM });
    await flush();
    off.actor.send({ type: 'BOT_SOLVED', x: 90, y: 47.4 });
    await flush();
    await flush();
    expect(off.spy.openChangePassword).not.toHaveBeenCalled();
    const on = start({ login: expired }, { types: ['username'], forceExpiredChange: true });
    on.actor.send({ type: 'SUBMIT', form: FORM });
    await flush();
    on.actor.send({ type: 'BOT_SOLVED', x: 90, y: 47.4 });
    await flush();
    expect(on.spy.openChangePassword).toHaveBeenCalledTimes(1);
  });

  it('member info failing still finishes (the token works)', async () => {
    const { actor, spy } = start({ member: async () => { throw new ApiError('NETWORK', 'x'); } }, { types: ['sms'] });
    actor.send({ type: 'SUBMIT', form: FORM });
    await flush();
    await flush();
    expect(spy.afterLogin).toHaveBeenCalledWith({ member: null });
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('second step: pick a method, a 6-digit code, verify, then the success path', async () => {
    let verifyFails: ApiError | null = new ApiError('SMS_CODE_INVALID', 'Verification code is not valid', 400);
    const { actor, verifies, spy } = start({
      login: async () => { throw new ApiError('VERIFICATION_REQUIRED', 'x', 401, [], { challengeId: 'c1', methods: ['sms', 'email', 'bogus'] }); },
      verify: async () => {
        if (verifyFails) throw verifyFails;
        return VALUE;
      },
    });
    actor.send({ type: 'SUBMIT', form: FORM });
    await flush();
    actor.send({ type: 'BOT_SOLVED', x: 90, y: 47.4 });
    await flush();
    expect(actor.getSnapshot().value).toBe('secondStep');
    expect(actor.getSnapshot().context).toMatchObject({ secondStep: { challengeId: 'c1', methods: ['sms', 'email'] }, method: 'sms' });
    actor.send({ type: 'PICK_METHOD', method: 'totp' });
    expect(actor.getSnapshot().context.method).toBe('sms');
    actor.send({ type: 'PICK_METHOD', method: 'email' });
    expect(actor.getSnapshot().context.method).toBe('email');
    actor.send({ type: 'VERIFY', code: '12ab' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ code: 'code_invalid' });
    actor.send({ type: 'VERIFY', code: '111111' });
    await flush();
    expect(actor.getSnapshot().value).toBe('secondStep');
    expect(actor.getSnapshot().context.error).toBe('SMS_CODE_INVALID');
    verifyFails = null;
    actor.send({ type: 'VERIFY', code: ' 222222 ' });
    await flush();
    await flush();
    expect(verifies.at(-1)).toEqual({ challengeId: 'c1', method: 'email', code: '222222' });
    expect(spy.storeSession).toHaveBeenCalledWith({ login: VALUE });
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('second step: an expired challenge starts over; BACK returns to the form', async () => {
    const { actor } = start({
      login: async () => { throw new ApiError('VERIFICATION_REQUIRED', 'x', 401, [], { challengeId: 'c1', methods: ['totp'] }); },
      verify: async () => { throw new ApiError('VERIFICATION_REQUIRED', 'x', 401); },
    });
    actor.send({ type: 'SUBMIT', form: FORM });
    await flush();
    actor.send({ type: 'BOT_SOLVED', x: 90, y: 47.4 });
    await flush();
    actor.send({ type: 'VERIFY', code: '123456' });
    await flush();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context).toMatchObject({ error: 'VERIFICATION_REQUIRED', secondStep: null });
    actor.send({ type: 'SUBMIT', form: FORM });
    await flush();
    actor.send({ type: 'BOT_SOLVED', x: 90, y: 47.4 });
    await flush();
    actor.send({ type: 'BACK' });
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('VERIFICATION_REQUIRED without a usable challenge is an ordinary failure', async () => {
    const { actor } = start({ login: async () => { throw new ApiError('VERIFICATION_REQUIRED', 'x', 401, [], { methods: [] }); } });
    actor.send({ type: 'SUBMIT', form: FORM });
    await flush();
    actor.send({ type: 'BOT_SOLVED', x: 90, y: 47.4 });
    await flush();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.error).toBe('VERIFICATION_REQUIRED');
  });

  it('free play: stores the trial session and goes home; a failure shows its error', async () => {
    const ok = start({}, { types: ['username'], agentLogin: true });
    ok.actor.send({ type: 'FREE_PLAY' });
    await flush();
    expect(ok.spy.storeSession).toHaveBeenCalledWith({ login: { ...VALUE, isTrial: true } });
    expect(ok.spy.goHome).toHaveBeenCalledTimes(1);
    expect(ok.spy.goAgentHome).not.toHaveBeenCalled();
    expect(ok.spy.rememberUser).not.toHaveBeenCalled();
    const bad = start({ freePlay: async () => { throw new ApiError('MODULE_DISABLED', 'x', 403); } });
    bad.actor.send({ type: 'FREE_PLAY' });
    await flush();
    expect(bad.actor.getSnapshot().context.error).toBe('MODULE_DISABLED');
  });

  // Model-based coverage: shortest paths to every state, then every handled event from each.
  const failure = (code: string, value?: unknown) => new ApiError(code, code, 400, [], value);
  const events = [
    { type: 'SWITCH_TYPE', loginType: 'sms' },
    { type: 'SWITCH_TYPE', loginType: 'username' },
    { type: 'SUBMIT', form: FORM },
    { type: 'SUBMIT', form: EMPTY_LOGIN_FORM },
    { type: 'BOT_SOLVED', x: 100, y: 47.4 },
    { type: 'BOT_CANCEL' },
    { type: 'PICK_METHOD', method: 'email' },
    { type: 'VERIFY', code: '123456' },
    { type: 'VERIFY', code: 'x' },
    { type: 'BACK' },
    { type: 'FREE_PLAY' },
    { type: 'DISMISS_ERROR' },
    { type: 'xstate.done.actor.loadBotChallenge', output: BOT },
    { type: 'xstate.error.actor.loadBotChallenge', error: failure('NETWORK') },
    { type: 'xstate.done.actor.login', output: VALUE },
    { type: 'xstate.done.actor.login', output: { ...VALUE, defaultPassword: true, firstTimeLogin: true } },
    { type: 'xstate.error.actor.login', error: failure('INVALID_CREDENTIALS', { captcha: true }) },
    { type: 'xstate.error.actor.login', error: failure('VERIFICATION_REQUIRED', { challengeId: 'c', methods: ['sms', 'email'] }) },
    { type: 'xstate.done.actor.verifyLogin', output: VALUE },
    { type: 'xstate.error.actor.verifyLogin', error: failure('SMS_CODE_INVALID') },
    { type: 'xstate.error.actor.verifyLogin', error: failure('VERIFICATION_REQUIRED') },
    { type: 'xstate.done.actor.freePlay', output: { ...VALUE, isTrial: true } },
    { type: 'xstate.error.actor.freePlay', error: failure('MODULE_DISABLED') },
    { type: 'xstate.done.actor.loadMember', output: MEMBER },
    { type: 'xstate.error.actor.loadMember', error: failure('NETWORK') },
  ] as EventObject[];
  type Snap = { value: unknown; context: { type: string; isCaptchaShown: boolean; method: string | null; error: string | null } };
  const serializeState = (s: Snap) => JSON.stringify([s.value, s.context.type, s.context.isCaptchaShown, s.context.method, s.context.error]);
  const input: LoginMachineInput = { types: ['username', 'sms'], forceExpiredChange: true };

  it('reaches every state', () => {
    const paths = getShortestPaths(loginMachine, { events: events as never, serializeState: serializeState as never, input });
    const reached = new Set(paths.map((p) => String(p.state.value)));
    expect([...reached].sort()).toEqual(
      ['botLoading', 'botSolving', 'done', 'freePlaying', 'idle', 'loadingMember', 'loggingIn', 'passwordChange', 'secondStep', 'verifying'].sort(),
    );
  });

  it('takes every transition', () => {
    expect(definedTransitions(loginMachine).length).toBeGreaterThan(25);
    expect(untakenTransitions(loginMachine, { events, serializeState, input })).toEqual([]);
  });
});
