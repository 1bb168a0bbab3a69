/** 'GMT+8', 'GMT-3:30', 'GMT+0' for an offset in minutes east of UTC. */
export function gmtLabel(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const h = Math.floor(abs / 60);
  const m = abs % 60;
  return `GMT${sign}${h}${m ? `:${String(m).padStart(2, '0')}` : ''}`;
}

/** The brand's wall clock, 'YYYY-MM-DD HH:mm:ss', whatever the browser's time zone. */
export function brandClock(nowMs: number, offsetMinutes: number): string {
  const d = new Date(nowMs + offsetMinutes * 60_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}
