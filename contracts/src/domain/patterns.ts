/**
 * The registration pattern catalogue (spec section 5): ids 0-20, each a pattern with default bounds.
 * The message key is `reg_pattern_{id}` with {min} and {max} filled in (one number when equal).
 */
export type PatternDef = { id: number; pattern: string; min: number; max: number; description: string };

export const PATTERNS: readonly PatternDef[] = [
  { id: 0, pattern: '^[\\s\\S]*$', min: 0, max: 255, description: 'any characters' },
  { id: 1, pattern: '^[A-Za-z][A-Za-z0-9]*$', min: 6, max: 16, description: 'a letter first, then letters and digits' },
  { id: 2, pattern: '^[\\u4e00-\\u9fa50-9]+$', min: 1, max: 32, description: 'Chinese characters and digits' },
  { id: 3, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]{2,}$', min: 5, max: 64, description: 'e-mail address' },
  { id: 4, pattern: '^[A-Za-z0-9]+$', min: 1, max: 32, description: 'letters and digits, no special characters' },
  { id: 5, pattern: '^(?=.*[A-Za-z])(?=.*\\d)[A-Za-z0-9]+$', min: 6, max: 20, description: 'letters plus digits' },
  { id: 6, pattern: '^\\d+$', min: 1, max: 32, description: 'digits only' },
  { id: 7, pattern: '^(?=.*[A-Z])[A-Za-z0-9]+$', min: 6, max: 20, description: 'letters and digits with at least one uppercase' },
  { id: 8, pattern: '^[A-Za-z ]+$', min: 2, max: 64, description: 'English letters and spaces' },
  { id: 9, pattern: '^\\S+$', min: 1, max: 64, description: 'no spaces' },
  { id: 10, pattern: '^[\\u4e00-\\u9fa5\\u3000-\\u303f\\uff00-\\uffef·]+$', min: 1, max: 64, description: 'Chinese with punctuation' },
  { id: 11, pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$', min: 10, max: 10, description: 'date yyyy-MM-dd' },
  { id: 12, pattern: '^(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])-\\d{4}$', min: 10, max: 10, description: 'date MM-dd-yyyy' },
  { id: 13, pattern: '^[\\uac00-\\ud7a3\\u1100-\\u11ff\\u3130-\\u318f ]+$', min: 1, max: 64, description: 'Korean only' },
  { id: 14, pattern: '^[\\u0e00-\\u0e7f]+$', min: 1, max: 64, description: 'Thai only' },
  { id: 15, pattern: '^[\\u0e00-\\u0e7fA-Za-z ]+$', min: 1, max: 64, description: 'Thai or English with spaces' },
  { id: 16, pattern: '^[!-~]+$', min: 6, max: 32, description: 'letters, numbers and symbols' },
  { id: 17, pattern: '^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d)(?=.*[^A-Za-z0-9\\s])\\S+$', min: 8, max: 32, description: 'password with uppercase, lowercase, digit and special symbol' },
  { id: 18, pattern: '^\\d{7,15}$', min: 7, max: 15, description: 'mobile number, digits' },
  { id: 19, pattern: "^[\\p{L}][\\p{L} .'-]*$", min: 2, max: 64, description: 'real name: letters of any script, spaces, dots, apostrophes, hyphens' },
  { id: 20, pattern: '^[a-z0-9_]+$', min: 4, max: 20, description: 'lowercase letters, digits and underscore' },
];

export function patternById(id: number): PatternDef | undefined {
  return PATTERNS.find((p) => p.id === id);
}

/** `*` means any characters. Patterns compile with the unicode flag. */
export function compilePattern(accepted: string): RegExp {
  const source = accepted === '*' ? '.*' : accepted;
  return new RegExp(source.startsWith('^') ? source : `^(?:${source})$`, 'u');
}

/** The pattern message parameters: min equal to max gives one number. */
export function patternMessage(patternId: number, minLength: number, maxLength: number): { key: string; range: string } {
  return { key: `reg_pattern_${patternId}`, range: minLength === maxLength ? String(minLength) : `${minLength}-${maxLength}` };
}
