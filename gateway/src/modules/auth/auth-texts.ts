/**
 * The texts the portal sends outside the page (SMS codes, the password reset e-mail), in the player's
 * language: the one the page was in when it asked (`language` of the request), else the brand's
 * default. EN and TY are complete; any other language gets EN, as the page falls back to EN.
 */
export type TextLanguage = 'EN' | 'TY';

export function textLanguage(asked: string | undefined, brandDefault: string | undefined): TextLanguage {
  const l = (asked ?? brandDefault ?? 'EN').toUpperCase();
  return l === 'TY' ? 'TY' : 'EN';
}

export type CodePurpose = 'register' | 'login' | 'reset' | 'bind';

export function smsCodeText(lang: TextLanguage, site: string, purpose: CodePurpose, code: string): string {
  if (lang === 'TY') {
    const what = { register: 'pagpaparehistro', login: 'pag-log in', reset: 'pag-reset ng password', bind: 'pagdagdag ng numerong ito' }[purpose];
    return `${site}: ang iyong code sa ${what} ay ${code}. May bisa nang 5 minuto. Huwag itong ibahagi kaninuman.`;
  }
  const what = { register: 'registration', login: 'login', reset: 'password reset', bind: 'number confirmation' }[purpose];
  return `${site}: your ${what} code is ${code}. Valid 5 minutes. Never share it.`;
}

/**
 * The login's second step (a code sent to a known number or e-mail when a login comes from a new
 * address): valid as long as its challenge (10 minutes from the login), so it says the `minutes` the
 * challenge has left (a resend at minute 8 said 10). It was always English, and said so.
 */
export function secondStepBody(lang: TextLanguage, site: string, code: string, minutes: number): string {
  if (lang === 'TY') return `${site}: ang iyong code sa beripikasyon ng pag-log in ay ${code}. May bisa nang ${minutes} minuto. Huwag itong ibahagi kaninuman.`;
  return `Your ${site} login verification code is ${code}. It expires in ${minutes} minute${minutes === 1 ? '' : 's'}. Never share it.`;
}

/** The subject of the second step's e-mail (its body is secondStepBody). */
export function secondStepSubject(lang: TextLanguage, site: string): string {
  return lang === 'TY' ? `${site}: beripikasyon ng pag-log in` : `${site} login verification`;
}

export function resetMail(lang: TextLanguage, site: string, name: string, link: string): { subject: string; body: string } {
  if (lang === 'TY') {
    return {
      subject: `${site}: i-reset ang iyong password`,
      body: `Kumusta ${name},\n\nBuksan ang link na ito sa loob ng 30 minuto para magtakda ng bagong password:\n${link}\n\nKung hindi ikaw ang humiling nito, huwag pansinin ang e-mail na ito.`,
    };
  }
  return {
    subject: `${site}: reset your password`,
    body: `Hello ${name},\n\nOpen this link within 30 minutes to set a new password:\n${link}\n\nIf you did not ask for this, ignore this e-mail.`,
  };
}
