/**
 * Browser storage that never throws (private mode, disabled storage, tests without a DOM).
 * Only non-sensitive values go here (theme, language, which popups were closed, offers put away);
 * the session token never does (page memory, and an HttpOnly cookie for reloads).
 */
type StorageKind = 'local' | 'session';

function storage(kind: StorageKind): Storage | null {
  try {
    if (typeof window === 'undefined') return null;
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export function readStorage(kind: StorageKind, key: string): string | null {
  try {
    return storage(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStorage(kind: StorageKind, key: string, value: string | null): void {
  try {
    const s = storage(kind);
    if (!s) return;
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
  } catch {
    // Storage full or blocked: the in-memory value still works for this page.
  }
}
