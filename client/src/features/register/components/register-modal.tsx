import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { RegistrationField } from '@portal/contracts/domain/registration';
import { closePopup, openPopup } from '../../../lib/popups';
import { homeDialingCode, useRegisterSettings, type TRegisterSettings } from '../../../lib/register-settings';
import { setSessionToken } from '../../../lib/session';
import { useBrandOffset, useWhitelabel } from '../../../lib/whitelabel';
import { errorMessage, MSG, type FieldMessage } from '../../../lib/field-message';
import { arrivalCodes, forgetReferralCode } from '../lib/arrival-codes';
import { FormField, FormMessage } from '../../../ui/form-field';
import { Modal } from '../../../ui/modal';
import { focusFirstInvalid } from '../../../ui/focus-invalid';
import { useUniqueId } from '../../../lib/unique-id';
import { SmsCodeButton } from '../../../ui/sms-code-button';
import { checkAffiliate } from '../api/check-affiliate';
import { register } from '../api/register';
import { sendRegisterSms } from '../api/send-register-sms';
import { getBotChallenge } from '../../auth/api/get-bot-challenge';
import { BotCheckSlider } from '../../auth/components/bot-check-slider';
import type { TBotChallenge } from '../../auth/lib/auth-types';
import { ApiError } from '../../../lib/api';
import type { SmsSendInput } from '../../../lib/sms-countdown-machine';
import { ErrorCode } from '@portal/contracts/api/errors';
import { registrationMachine } from '../machines/registration-machine';
import { visibleFields, type RegisterKind, type RegistrationSetup } from '../machines/registration-form';
import { CaptchaImage } from './captcha-image';
import { DialingCodeSelect } from '../../../ui/dialing-code-select';

type Props = {
  open: boolean;
  onClose: () => void;
  /** Shown once the new member is signed in, before the modal closes (the responsible-gaming limits offer); `done` closes it. */
  afterRegister?: (done: () => void) => ReactNode;
};

const AUTOCOMPLETE: Partial<Record<RegistrationField, string>> = {
  username: 'username', password: 'new-password', confirmPassword: 'new-password', payeeName: 'name', email: 'email',
  mobileNum: 'tel-national', verificationCode: 'one-time-code', birthday: 'bday', paymentPassword: 'off', captcha: 'off',
};
const NUMERIC: ReadonlySet<RegistrationField> = new Set(['mobileNum', 'verificationCode', 'captcha']);

/** registerModal: opened by the header's register button and /register (spec sections 2-5). */
export function RegisterModal({ open, onClose, afterRegister }: Props) {
  const { t } = useTranslation('register');
  const settings = useRegisterSettings();
  const whitelabel = useWhitelabel();
  // The step after sign-up (the limits offer) is titled as such, not "Create your account".
  const [isAfterStep, setAfterStep] = useState(false);
  return (
    <Modal name="registerModal" open={open} onClose={onClose} title={t(isAfterStep ? 'register_done_title' : 'register_title')} width={460} height={360}>
      {settings.data && whitelabel.data ? (
        <RegisterForm settings={settings.data} modules={whitelabel.data.modules} botCheck={whitelabel.data.security.botCheck} afterRegister={afterRegister} onAfterStep={() => setAfterStep(true)} />
      ) : settings.error || whitelabel.error ? (
        <FormMessage message={errorMessage(settings.error ?? whitelabel.error)} />
      ) : (
        <p className="form-notice" role="status">
          {t('loading')}
        </p>
      )}
    </Modal>
  );
}

/** The link's codes: this address's, else the ones the visit began with (features/register/lib/arrival-codes.ts). */
const linkCodes = () => arrivalCodes(window.location.search, window.location.pathname);

type BotPrompt = { challenge: TBotChallenge; solved: (x: number, y: number) => void; cancelled: () => void };

/** An SMS send refused because of the number itself (not the code, the slider or a limit). */
const isNumberProblem = (m: FieldMessage) => m.key === MSG.mobileInvalid.key || m.key === 'common:error_INVALID_PHONE' || m.key === 'common:error_MOBILE_EXISTS';

function RegisterForm({ settings, modules, botCheck, afterRegister, onAfterStep }: { settings: TRegisterSettings; modules: Record<string, boolean>; botCheck: boolean; afterRegister?: Props['afterRegister']; onAfterStep?: () => void }) {
  const { t } = useTranslation('register');
  const formId = useUniqueId('register');
  const navigate = useNavigate();
  const [captchaRound, setCaptchaRound] = useState(0);
  const [smsError, setSmsError] = useState<FieldMessage | null>(null);
  // The registration SMS carries a solved slider while the merchant's bot check is on (spec: "mobileNo
  // plus geetest fields"): "Send code" shows it first, for the number typed; a cancelled slider sends
  // nothing and says why under the field.
  const [botPrompt, setBotPrompt] = useState<BotPrompt | null>(null);
  const sendSms = useCallback(async (input: SmsSendInput) => {
    if (!botCheck) return sendRegisterSms(input);
    const challenge = await getBotChallenge(input.mobileNum, undefined, 'sms-register');
    const answer = await new Promise<{ x: number; y: number }>((resolve, reject) =>
      setBotPrompt({
        challenge,
        solved: (x, y) => resolve({ x, y }),
        cancelled: () => reject(new ApiError(ErrorCode.BOT_CHECK_REQUIRED, 'The slider was not solved')),
      }));
    return sendRegisterSms(input, { botId: challenge.botId, botAnswer: answer.x, botAnswerY: answer.y });
  }, [botCheck]);
  const offset = useBrandOffset();
  const setup = useMemo<RegistrationSetup>(() => {
    const codes = linkCodes();
    return {
      rules: settings.fields,
      minAge: settings.minAge,
      gmtOffsetMinutes: offset,
      kinds: [...(modules.USERNAMEREG3 ? (['register'] as const) : []), ...(modules.MOBILENUMREG3 ? (['registerMobile'] as const) : [])],
      smsVerification: !!modules.REGMOBVERF3,
      urlAffiliateCode: codes.affiliateCode,
      urlReferralCode: codes.referralCode,
      domain: window.location.host,
      registerUrl: window.location.href,
      dialingCode: homeDialingCode(settings),
    };
  }, [settings, modules, offset]);
  const [state, send] = useMachine(
    registrationMachine.provide({
      actors: {
        checkAffiliate: fromPromise(({ input }) => checkAffiliate(input.code, input.domain)),
        register: fromPromise(({ input }) => register(input.kind, input.body)),
      },
      actions: {
        storeSession: ({ context }) => {
          if (context.result?.token) setSessionToken(context.result.token);
        },
        captchaUsed: () => setCaptchaRound((n) => n + 1),
        referralDropped: () => {
          forgetReferralCode();
          const url = new URL(window.location.href);
          if (url.searchParams.has('referralCode')) {
            url.searchParams.delete('referralCode');
            window.history.replaceState(window.history.state, '', url);
          }
        },
      },
    }),
    { input: { setup } },
  );
  const { context } = state;
  const isDone = state.matches('registered');
  // Signed in at once: the optional step (limits offer) comes before the modal closes.
  const hasAfterStep = isDone && !!afterRegister && !!context.result?.token;
  const navigated = useRef(false);
  const finish = () => {
    if (navigated.current) return;
    navigated.current = true;
    closePopup();
    navigate('/');
  };
  useEffect(() => {
    if (!isDone || hasAfterStep) return;
    finish();
  });
  useEffect(() => {
    if (hasAfterStep) onAfterStep?.();
  }, [hasAfterStep, onAfterStep]);

  // A date field holding a date the calendar lacks (typed 02/30/1990): the browser gives its value as ''
  // and says badInput, so the form's rules saw it empty. Found at submit, it is named as not a real date.
  const [badDates, setBadDates] = useState<readonly string[]>([]);

  // As wide as the form it follows: the offer's long lines made the dialog grow to the page's width.
  if (hasAfterStep) return <div className="form register-after" data-testid="register-after">{afterRegister(finish)}</div>;

  if (setup.kinds.length === 0) return <FormMessage message={{ key: 'common:error_MODULE_DISABLED' }} />;

  const isBusy = state.matches('checkingAffiliate') || state.matches('registering') || isDone;
  const fields = visibleFields(setup, context.kind);
  const value = (f: string) => context.values[f as keyof typeof context.values] ?? '';
  const change = (field: keyof typeof context.values) => (v: string) => {
    if (badDates.includes(field)) setBadDates((b) => b.filter((f) => f !== field));
    send({ type: 'FIELD.CHANGE', field, value: v });
  };

  return (
    <form
      className="form"
      noValidate
      data-register-kind={context.kind}
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const bad = [...form.querySelectorAll<HTMLInputElement>('input[type="date"]')].filter((i) => i.validity.badInput).map((i) => i.name);
        setBadDates(bad);
        // With a date the calendar lacks nothing is sent, but every other field's problem shows at once too.
        send({ type: bad.length === 0 ? 'SUBMIT' : 'CHECK' });
        // Bring the first problem into view (the form is taller than small screens), its field focused.
        focusFirstInvalid(form);
      }}
    >
      {setup.kinds.length > 1 && (
        <div className="form-tabs" role="tablist" aria-label={t('kinds_label')}>
          {setup.kinds.map((k: RegisterKind) => (
            <button key={k} type="button" role="tab" aria-selected={context.kind === k} onClick={() => send({ type: 'KIND.SET', kind: k })}>
              {t(`kind_${k}`)}
            </button>
          ))}
        </div>
      )}
      {fields.map(({ field, rule }) => {
        const common = {
          name: field,
          label: t(`field_${field}`),
          // The code of an optional number is needed once a number is typed (validateRegistration asks it).
          required: rule.required || (field === 'verificationCode' && value('mobileNum').trim() !== ''),
          type: rule.type,
          value: value(field),
          onChange: change(field),
          // A send refused for the number is said under the number (it marked the code field).
          error: badDates.includes(field) ? MSG.dateInvalid : context.errors[field] ?? (field === (smsError && isNumberProblem(smsError) ? 'mobileNum' : 'verificationCode') ? (smsError ?? undefined) : undefined),
          autoComplete: AUTOCOMPLETE[field],
          maxLength: rule.maxLength || undefined,
          ...(NUMERIC.has(field) ? { inputMode: 'numeric' as const } : {}),
        };
        if (field === 'mobileNum') {
          return (
            <FormField
              key={field}
              {...common}
              prefix={
                <DialingCodeSelect
                  countries={settings.countries}
                  value={value('countryDialingCode') || homeDialingCode(settings)}
                  onChange={(v) => send({ type: 'FIELD.CHANGE', field: 'countryDialingCode', value: v })}
                  label={t('country_code')}
                />
              }
            />
          );
        }
        if (field === 'verificationCode') {
          return (
            <FormField
              key={field}
              {...common}
              addon={<SmsCodeButton mobileNum={value('mobileNum')} countryDialingCode={value('countryDialingCode') || homeDialingCode(settings)} send={sendSms} onError={setSmsError} />}
            />
          );
        }
        if (field === 'captcha') {
          return (
            <FormField
              key={field}
              {...common}
              addon={<CaptchaImage round={captchaRound} onKey={(key) => send({ type: 'FIELD.CHANGE', field: 'captchaKey', value: key })} />}
            />
          );
        }
        return <FormField key={field} {...common} />;
      })}
      <div className="form-checks">
        <CheckField name="termsAccepted" checked={context.termsAccepted} onToggle={() => send({ type: 'TERMS.TOGGLE' })} label={t('terms_label')}
          error={context.errors.terms && t(context.errors.terms.key)} errorId={`${formId}-terms-error`} />
        <CheckField name="ageConfirmed" checked={context.ageConfirmed} onToggle={() => send({ type: 'AGE.TOGGLE' })} label={t('age_label', { age: setup.minAge })}
          error={context.errors.age && t(context.errors.age.key, context.errors.age.values)} errorId={`${formId}-age-error`} />
      </div>
      <FormMessage message={context.formError} />
      <button type="submit" className="btn btn--primary btn--block btn--lg" disabled={isBusy} aria-busy={isBusy}>
        {isBusy ? t('please_wait') : t('submit_register')}
      </button>
      <p className="form-foot">
        {t('have_account')}{' '}
        <button type="button" className="link-btn" onClick={() => openPopup('loginPopupModal')}>
          {t('go_login')}
        </button>
      </p>
      <Modal name="smsBotCheck" open={!!botPrompt} onClose={() => { botPrompt?.cancelled(); setBotPrompt(null); }} title={t('sms_bot_title')} lockScroll={false} width={340} height={330}>
        {botPrompt && (
          <div className="form">
            <BotCheckSlider
              challenge={botPrompt.challenge}
              onSolved={(x, y) => { botPrompt.solved(x, y); setBotPrompt(null); }}
              onCancel={() => { botPrompt.cancelled(); setBotPrompt(null); }}
            />
          </div>
        )}
      </Modal>
      <Modal
        name="invitation_code_error"
        open={state.matches('invitationRefused')}
        onClose={() => send({ type: 'DIALOG.CLOSE' })}
        title={t('invitation_code_error')}
        lockScroll={false}
        width={340}
        height={160}
      >
        <div className="form">
          <p className="form-notice">{t('invitation_code_error_text')}</p>
          <button type="button" className="btn btn--primary btn--block" onClick={() => send({ type: 'DIALOG.CLOSE' })}>
            {t('ok')}
          </button>
        </div>
      </Modal>
    </form>
  );
}

/** A checkbox the form requires (terms, age), with its message; refused, it says so (aria-invalid, described by the message). */
function CheckField({ name, checked, onToggle, label, error, errorId }: { name: string; checked: boolean; onToggle: () => void; label: string; error: string | undefined; errorId: string }) {
  return (
    <>
      <label className="form-check">
        <input type="checkbox" name={name} checked={checked} onChange={onToggle} {...(error ? { 'aria-invalid': true, 'aria-describedby': errorId } : {})} />
        <span>{label}</span>
      </label>
      {error && (
        <p className="form-field__error" role="alert" id={errorId}>
          {error}
        </p>
      )}
    </>
  );
}
