import { BOOT_DATA_ELEMENT_ID, type TBootData } from '@portal/contracts/domain/boot-data';

/**
 * index.html's boot data (the gateway's answers of the first page's bootstrap calls, and the merchant
 * audience's seq they reflect; contracts/src/domain/boot-data.ts). lib/api.ts answers a guest's GET
 * from here once per URL instead of sending it; realtime starts its seqs from `bootSeq()`.
 *
 * The answers are only good until something may have changed them: they are all dropped at the first
 * live event this tab applies (the event may be about them), when realtime asks for a re-read (a
 * resync, a failed catch-up, a newly joined audience), and 30 s after the page started at the latest. Absent (the dev server, a gateway that could not build it) everything goes over HTTP as before.
 */
const MAX_AGE_MS = 30_000;

let data: TBootData | null | undefined;

function read(): TBootData | null {
  if (data !== undefined) return data;
  data = null;
  if (typeof document === 'undefined') return data;
  const el = document.getElementById(BOOT_DATA_ELEMENT_ID);
  if (!el?.textContent) return data;
  try {
    const parsed: unknown = JSON.parse(el.textContent);
    if (typeof parsed === 'object' && parsed !== null && (parsed as TBootData).v === 1) data = parsed as TBootData;
  } catch {
    data = null;
  }
  el.remove();
  return data;
}

/**
 * The envelope index.html carries for this GET URL, or undefined. Several queries may ask for one URL
 * (the vendors' list has two users): each gets it until the answers are dropped.
 */
export function takeBootAnswer(url: string): unknown {
  const d = read();
  if (!d) return undefined;
  if (typeof performance !== 'undefined' && performance.now() > MAX_AGE_MS) {
    dropBootAnswers();
    return undefined;
  }
  if (!Object.prototype.hasOwnProperty.call(d.calls, url)) return undefined;
  return d.calls[url];
}

/** The seqs the boot answers reflect (audience -> seq); empty without boot data. */
export function bootSeq(): Record<string, number> {
  const d = read();
  return d ? { ...d.seq } : {};
}

/** A live event arrived, or realtime re-reads the data: no more answers from index.html. */
export function dropBootAnswers(): void {
  const d = read();
  if (d) d.calls = {};
}
