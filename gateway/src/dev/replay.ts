import { readFile } from 'node:fs/promises';
import { parseEvent, type TEventEnvelope } from '@portal/contracts/events/events';

/** Read a recorded stream: one envelope per line; a line that is not a valid event is an error with its number. */
export async function readStream(file: string): Promise<TEventEnvelope[]> {
  const text = await readFile(file, 'utf8');
  const events: TEventEnvelope[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new Error(`${file}:${i + 1}: not JSON`);
    }
    const env = parseEvent(json);
    if (!env) throw new Error(`${file}:${i + 1}: not a valid event envelope`);
    events.push(env);
  });
  return events;
}

/**
 * Group a stream into batches separated by the recorded gaps, scaled by speed (speed 0: one batch).
 * Each batch is sent after `waitMs` from the previous one.
 */
export function schedule(events: TEventEnvelope[], speed: number): Array<{ waitMs: number; events: TEventEnvelope[] }> {
  const out: Array<{ waitMs: number; events: TEventEnvelope[] }> = [];
  let prevAt: number | null = null;
  for (const e of events) {
    const at = Date.parse(e.at);
    const gap = prevAt === null || speed <= 0 ? 0 : Math.max(0, (at - prevAt) / speed);
    prevAt = at;
    const last = out[out.length - 1];
    if (last && gap < 5 && last.events.length < 1000) last.events.push(e);
    else out.push({ waitMs: gap, events: [e] });
  }
  return out;
}

/** Push a stream through the gateway's replay call: into the outbox, then the normal fan-out path. */
export async function replay(url: string, events: TEventEnvelope[], opts: { speed: number; userId?: number; merchant?: string; log?: (s: string) => void }) {
  let sent = 0;
  for (const batch of schedule(events, opts.speed)) {
    if (batch.waitMs > 0) await new Promise((r) => setTimeout(r, Math.min(batch.waitMs, 60_000)));
    const res = await fetch(`${url}/wps/dev/replay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(opts.merchant ? { 'x-merchant-code': opts.merchant } : {}) },
      body: JSON.stringify({ events: batch.events, ...(opts.userId !== undefined ? { userId: opts.userId } : {}) }),
    });
    if (res.status === 404) throw new Error('replay is not available on this server (production mode has none)');
    const body = (await res.json()) as { success: boolean; message?: string };
    if (!body.success) throw new Error(`replay refused: ${body.message ?? res.status}`);
    sent += batch.events.length;
    opts.log?.(`replayed ${sent}/${events.length}`);
  }
  return sent;
}
