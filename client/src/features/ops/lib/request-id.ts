/** A fresh idempotency key for one submission (matches ZRequestId: 8-64 of [A-Za-z0-9_-]). */
export function newRequestId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}
