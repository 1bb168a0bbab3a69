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
  return { title: translate(m.title, m.params), content: '' };
}
