import { REGISTRATION_FIELDS, type FieldRule, type RegistrationField } from '@portal/contracts/domain/registration';
import { patternById } from '@portal/contracts/domain/patterns';
import { marketRules } from '@portal/contracts/domain/markets';
import type { TFieldRule } from '@portal/contracts/api/auth';
import { REGISTRATION_FIXED_FIELDS } from '@portal/contracts/api/ops-players';
import type { Merchant } from '../merchants/merchant-directory.ts';

type Partial = Omit<TFieldRule, 'acceptedPattern' | 'minLength' | 'maxLength'> & { minLength?: number; maxLength?: number; acceptedPattern?: string };

function rule(field: RegistrationField, enabled: boolean, required: boolean, patternId: number, type: TFieldRule['type'] = 'text', bounds: { min?: number; max?: number } = {}): Partial {
  return { field, enabled, required, patternId, type, ...(bounds.min !== undefined ? { minLength: bounds.min } : {}), ...(bounds.max !== undefined ? { maxLength: bounds.max } : {}) };
}

/** Defaults for a merchant that configured nothing; a merchant's own rules override them per field. */
const DEFAULTS: Partial[] = [
  rule('username', true, true, 1, 'text', { min: 6, max: 16 }),
  rule('password', true, true, 5, 'password', { min: 6, max: 20 }),
  rule('confirmPassword', true, true, 5, 'password', { min: 6, max: 20 }),
  rule('payeeName', true, false, 19, 'text'),
  rule('email', true, false, 3, 'email'),
  rule('mobileNum', true, false, 18, 'tel'),
  rule('verificationCode', true, true, 6, 'text', { min: 6, max: 6 }),
  rule('affiliateCode', true, false, 4, 'text', { min: 4, max: 16 }),
  rule('captcha', true, true, 6, 'text', { min: 4, max: 4 }),
  rule('birthday', true, false, 11, 'date'),
  rule('paymentPassword', false, true, 6, 'password', { min: 6, max: 6 }),
  rule('qqNum', false, false, 6),
  rule('line', false, false, 9),
  rule('whatsapp', false, false, 6),
  rule('facebook', false, false, 9),
  rule('wechat', false, false, 9),
  rule('idNumber', false, false, 4),
  rule('recommenderId', false, false, 4),
];

function complete(p: Partial): TFieldRule {
  const def = patternById(p.patternId);
  return {
    field: p.field, enabled: p.enabled, required: p.required, patternId: p.patternId, type: p.type,
    acceptedPattern: p.acceptedPattern ?? def?.pattern ?? '*',
    minLength: p.minLength ?? def?.min ?? 0,
    maxLength: p.maxLength ?? def?.max ?? 255,
  };
}

/** Fields a market makes required whatever the merchant configured (see MARKET_RULES). */
const IDENTITY_FIELDS: ReadonlySet<RegistrationField> = new Set(['payeeName', 'birthday']);

/** The fields a merchant cannot switch off or make optional: the account's own, and those its market requires. */
export function fixedRegistrationFields(m: Merchant): RegistrationField[] {
  const identity = marketRules(m.market).identityAtRegistration;
  return REGISTRATION_FIELDS.filter((f) => (REGISTRATION_FIXED_FIELDS as readonly string[]).includes(f) || (identity && IDENTITY_FIELDS.has(f)));
}

/**
 * The merchant's registration rules: stored overrides on top of the defaults, one per field; a market
 * that screens identities (the Philippines) makes the full name and the birth date required.
 */
export function registrationRules(m: Merchant & { registration?: unknown }): TFieldRule[] {
  const overrides = new Map<string, Partial>();
  if (Array.isArray(m.registration)) for (const o of m.registration as Partial[]) if (o && typeof o.field === 'string') overrides.set(o.field, o);
  const identity = marketRules(m.market).identityAtRegistration;
  return REGISTRATION_FIELDS.map((f) => {
    const base = DEFAULTS.find((d) => d.field === f) ?? rule(f, false, false, 0);
    const r = complete({ ...base, ...(overrides.get(f) ?? {}) });
    return identity && IDENTITY_FIELDS.has(f) ? { ...r, enabled: true, required: true } : r;
  });
}

export function ruleOf(rules: TFieldRule[], field: RegistrationField): FieldRule {
  const r = rules.find((x) => x.field === field);
  if (!r) throw new Error(`no rule for ${field}`);
  return r;
}

export const COUNTRIES = [
  { countryCode: 'PH', countryDialingCode: '63' },
  { countryCode: 'VN', countryDialingCode: '84' },
  { countryCode: 'TH', countryDialingCode: '66' },
  { countryCode: 'ID', countryDialingCode: '62' },
  { countryCode: 'MY', countryDialingCode: '60' },
];

/**
 * The countries of the register settings with the merchant's own market first: the client takes the
 * first as the default dialing code of its mobile fields (LuckyDong's Vietnamese players were given +63).
 */
export function countriesFor(market: string): typeof COUNTRIES {
  const home = COUNTRIES.filter((c) => c.countryCode === market.toUpperCase());
  return [...home, ...COUNTRIES.filter((c) => c.countryCode !== market.toUpperCase())];
}
