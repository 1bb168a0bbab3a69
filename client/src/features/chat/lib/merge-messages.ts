/**
 * Messages of a chat, oldest first, each once: what a page already shows merged with what arrived
 * (its own send's answer, a live event, an older page), in any order and with repeats, since the
 * answer to a send and its event both bring the same message.
 */
export function mergeMessages<T extends { id: string }>(shown: readonly T[], incoming: readonly T[]): T[] {
  if (!incoming.length) return shown as T[];
  const byId = new Map<string, T>();
  for (const m of shown) byId.set(m.id, m);
  for (const m of incoming) byId.set(m.id, m);
  // Ids are decimal strings of a bigserial: shorter is smaller, then text order.
  return [...byId.values()].sort((a, b) => a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
