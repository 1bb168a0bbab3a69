import nodemailer from 'nodemailer';
import type { DevSink } from '../dev/dev-sink.ts';

type Logger = { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };

/** SMS goes through a provider behind this interface; the dev sink only outside production. */
export type SmsProvider = { send(to: string, text: string): Promise<void> };
export type Mailer = { send(to: string, subject: string, text: string): Promise<void> };

export function createDevSms(sink: DevSink, log: Logger): SmsProvider {
  return {
    async send(to, text) {
      sink.push({ to, channel: 'sms', subject: null, body: text });
      log.info({ to }, 'dev sms captured');
    },
  };
}

/** No SMS provider configured in production: sending fails loudly rather than pretending. */
export function createMissingSms(): SmsProvider {
  return {
    async send() {
      throw new Error('no SMS provider configured');
    },
  };
}

/** E-mail over SMTP (SMTP_URL, e.g. smtp://user:pass@host:587), also copied to the dev sink outside production. */
export function createSmtpMailer(url: string, from: string, sink: DevSink | null): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(to, subject, text) {
      await transport.sendMail({ from, to, subject, text });
      sink?.push({ to, channel: 'email', subject, body: text });
    },
  };
}

export function createDevMailer(sink: DevSink, log: Logger): Mailer {
  return {
    async send(to, subject, text) {
      sink.push({ to, channel: 'email', subject, body: text });
      log.info({ to, subject }, 'dev e-mail captured');
    },
  };
}
