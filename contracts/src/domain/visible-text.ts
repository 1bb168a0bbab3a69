/**
 * Whether a text shows anything: blanks and invisible format characters (zero-width spaces and joiners,
 * direction marks) alone do not count (a notice titled with one U+200B was a blank row in the list).
 */
export const isVisibleText = (s: string) => s.replace(/[\s\p{Cf}\u034F\u115F\u1160\u2800\u3164\uFFA0]/gu, '').length > 0;
