import type { TSiteSettings } from '@portal/contracts/api/ops';

/** Module flags whose feature sends an SMS code (registration by mobile with a code, SMS login). */
const SMS_MODULES = ['MOBILENUMREG3', 'REGMOBVERF3', 'MOBILEVERCODELOGIN3'] as const;

export type ProviderWarning = { channel: 'sms'; flags: string[] } | { channel: 'mail' };

/**
 * What the site offers that this deployment cannot send (production without SMS_GATEWAY_URL or
 * SMTP_URL): players would meet "cannot send a message" there. SMS: the modules above that are on, or
 * the forgot-password page opening on the mobile reset. E-mail: the forgot-password page opening on the
 * e-mailed reset link.
 */
export function providerWarnings(site: Pick<TSiteSettings, 'modules' | 'whitelabel' | 'providers'>): ProviderWarning[] {
  const out: ProviderWarning[] = [];
  if (!site.providers) return out;
  const forgotByMobile = site.whitelabel.CHNGPASSVERIF3 === 'mobile';
  if (!site.providers.sms) {
    const flags: string[] = SMS_MODULES.filter((f) => site.modules[f] === true);
    if (forgotByMobile) flags.push('CHNGPASSVERIF3');
    if (flags.length) out.push({ channel: 'sms', flags });
  }
  if (!site.providers.mail && !forgotByMobile) out.push({ channel: 'mail' });
  return out;
}
