import type { TMessage } from '@portal/contracts/api/wallet';

/**
 * What a message says in the UI language: an operator-written message its own texts (TY for
 * Tagalog, EN otherwise, EN where TY is empty); a system-made one its translated title key.
 */
export function messageText(
  m: Pick<TMessage, 'title' | 'params' | 'texts'>,
  language: string,
  translate: (key: string, params: Record<string, string | number>) => string,
): { title: string; content: string } {
  if (m.texts) {
    const ty = m.texts.TY;
    const pick = language.toUpperCase() === 'TY' && ty.title ? ty : m.texts.EN;
    return { title: pick.title, content: pick.content };
  }
  // A refusal's reason, as the operator wrote it (a reward request, a redeem, a withdrawal), opens below.
  const reason = typeof m.params.reason === 'string' && m.params.reason.trim() ? translate('message_reason', { reason: m.params.reason }) : '';
  return { title: translate(m.title, { ...m.params, ...namedIn(m.params, language) }), content: reason };
}

/**
 * What a system message names (a promotion, a points reward) is written by operators in both
 * languages: the gateway sends both (`title_EN`, `title_TY`) and the text takes `title` in the UI
 * language (EN where TY is empty). A message from before they were sent names its reference instead.
 */
function namedIn(params: Record<string, string | number>, language: string): { title?: string | number } {
  const named = (language.toUpperCase() === 'TY' && params.title_TY) || params.title_EN || params.reference;
  return named === undefined || named === '' ? {} : { title: named };
}
