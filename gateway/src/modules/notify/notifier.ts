import nodemailer from 'nodemailer';
import { AppError, ErrorCode } from '../../app/errors.ts';
import type { DevSink } from '../dev/dev-sink.ts';

type Logger = { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };

/**
 * SMS goes through a provider behind this interface; the dev sink only outside production.
 * `isAvailable` is false when no provider is configured: callers check it before they spend a rate
 * limit or store a code. `send` throws AppError(PROVIDER_UNAVAILABLE) when nothing was sent, whether
 * no provider is configured or the configured one refused or failed.
 */
export type SmsProvider = { readonly isAvailable: boolean; send(to: string, text: string): Promise<void> };
export type Mailer = { readonly isAvailable: boolean; send(to: string, subject: string, text: string): Promise<void> };

export function createDevSms(sink: DevSink, log: Logger): SmsProvider {
  return {
    isAvailable: true,
    async send(to, text) {
      sink.push({ to, channel: 'sms', subject: null, body: text });
      log.info({ to }, 'dev sms captured');
    },
  };
}

/**
 * SMS through an HTTP gateway (SMS_GATEWAY_URL): one POST per message with the JSON body
 * `{ "to": "+639...", "text": "...", "sender": "..." }` and `Authorization: Bearer SMS_GATEWAY_TOKEN`;
 * any 2xx answer within 10 s counts as sent. Most aggregators take such a call directly or
 * through a few lines of relay; nothing else of theirs is assumed.
 */
export function createHttpSms(opts: { url: string; token?: string | undefined; sender?: string | undefined; log: Logger }): SmsProvider {
  return {
    isAvailable: true,
    async send(to, text) {
      let status = 0;
      try {
        const res = await fetch(opts.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
          body: JSON.stringify({ to, text, ...(opts.sender ? { sender: opts.sender } : {}) }),
          signal: AbortSignal.timeout(10_000),
        });
        status = res.status;
        await res.arrayBuffer();
      } catch (err) {
        opts.log.warn({ err }, 'SMS gateway unreachable');
        throw new AppError(ErrorCode.PROVIDER_UNAVAILABLE);
      }
      if (status < 200 || status > 299) {
        // The gateway refused: the caller undoes what it counted and stored.
        opts.log.warn({ status }, 'SMS gateway refused a message');
        throw new AppError(ErrorCode.PROVIDER_UNAVAILABLE);
      }
    },
  };
}

/** No SMS provider configured in production: every send is refused with a 503 code, never pretended. */
export function createMissingSms(): SmsProvider {
  return {
    isAvailable: false,
    async send() {
      throw new AppError(ErrorCode.PROVIDER_UNAVAILABLE);
    },
  };
}

/** No SMTP_URL in production: every e-mail is refused with a 503 code, never pretended. */
export function createMissingMailer(): Mailer {
  return {
    isAvailable: false,
    async send() {
      throw new AppError(ErrorCode.PROVIDER_UNAVAILABLE);
    },
  };
}

/** E-mail over SMTP (SMTP_URL, e.g. smtp://user:pass@host:587), also copied to the dev sink outside production. */
export function createSmtpMailer(url: string, from: string, sink: DevSink | null, log: Logger): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    isAvailable: true,
    async send(to, subject, text) {
      try {
        await transport.sendMail({ from, to, subject, text });
      } catch (err) {
        // The server refused or could not be reached: the caller undoes what it counted and stored.
        log.warn({ err }, 'SMTP send failed');
        throw new AppError(ErrorCode.PROVIDER_UNAVAILABLE);
      }
      sink?.push({ to, channel: 'email', subject, body: text });
    },
  };
}

export function createDevMailer(sink: DevSink, log: Logger): Mailer {
  return {
    isAvailable: true,
    async send(to, subject, text) {
      sink.push({ to, channel: 'email', subject, body: text });
      log.info({ to, subject }, 'dev e-mail captured');
    },
  };
}

/** Module flags that send an SMS code. */
const SMS_FLAGS = ['REGMOBVERF3', 'MOBILEVERCODELOGIN3'] as const;

/**
 * At start in production: say plainly which merchant features will answer 503 PROVIDER_UNAVAILABLE
 * because no provider is configured, and which merchants cannot be sent links (no main_domain).
 */
export function warnAboutMissingProviders(
  merchants: Array<{ code: string; mainDomain: string; modules: Record<string, boolean> }>,
  available: { sms: boolean; mail: boolean },
  log: Logger,
): void {
  for (const m of merchants) {
    const smsFlags = SMS_FLAGS.filter((f) => m.modules[f]);
    if (!available.sms) {
      log.warn({ merchant: m.code, flags: smsFlags }, 'no SMS provider configured: SMS codes (registration, SMS login, reset by mobile, second step by SMS) answer 503 PROVIDER_UNAVAILABLE');
    }
    if (!available.mail) {
      log.warn({ merchant: m.code }, 'SMTP_URL is not set: e-mail (password reset link, second step by e-mail) answers 503 PROVIDER_UNAVAILABLE');
    }
    if (!m.mainDomain) log.warn({ merchant: m.code }, 'merchant has no main_domain: no link (password reset, social sign-in) can be sent');
  }
}
