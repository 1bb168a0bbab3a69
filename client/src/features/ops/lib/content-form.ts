import { merchantClock } from '@portal/contracts/domain/clock';

/**
 * `<input type="datetime-local">` speaks wall time without a zone. In /ops that wall time is the
 * merchant's clock (`offsetMinutes` east of UTC, the brand's GMT offset), the clock every time in the
 * console is shown on (useOpsTime), whatever the browser's own zone: to and from ISO instants.
 */
export function toLocalInput(iso: string | null | undefined, offsetMinutes: number): string {
  if (!iso) return '';
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) return '';
  const d = merchantClock(offsetMinutes, at);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** The ISO instant of a datetime-local value on the merchant's clock; what is not one stays as typed ('' stays '': the server refuses it). */
export function fromLocalInput(value: string, offsetMinutes: number): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!m) return value;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
  return new Date(wall - offsetMinutes * 60_000).toISOString();
}
