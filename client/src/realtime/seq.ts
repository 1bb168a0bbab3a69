import type { TEventEnvelope } from '@portal/contracts/events/events';

/**
 * Per-audience ordering of realtime events, as pure functions.
 *
 * `last[audience]` is the last applied seq. An event with seq <= last is a duplicate and dropped;
 * seq == last + 1 is applied (then any buffered successors drain); seq > last + 1 is buffered and
 * the audience needs a sync. The first event of an unknown audience is accepted as the baseline.
 * `system.resync` resets the audience to its own seq (the client refetches over HTTP).
 */
export type SeqState = {
  readonly last: Readonly<Record<string, number>>;
  /** Buffered events per audience, ascending by seq, all > last + 1 at rest. */
  readonly pending: Readonly<Record<string, readonly TEventEnvelope[]>>;
};

export type SeqOutcome = {
  state: SeqState;
  /** Events to apply now, in order. */
  apply: TEventEnvelope[];
  /** The audience has a gap the client should ask the server to fill. */
  gap: string | null;
};

export const INITIAL_SEQ_STATE: SeqState = { last: {}, pending: {} };

function withAudience(state: SeqState, audience: string, last: number | undefined, pending: readonly TEventEnvelope[]): SeqState {
  const nextLast = { ...state.last };
  if (last === undefined) delete nextLast[audience];
  else nextLast[audience] = last;
  const nextPending = { ...state.pending };
  if (pending.length === 0) delete nextPending[audience];
  else nextPending[audience] = pending;
  return { last: nextLast, pending: nextPending };
}

/** Applies consecutive buffered events after `last`; drops buffered ones at or below it. */
function drain(last: number, pending: readonly TEventEnvelope[]): { last: number; apply: TEventEnvelope[]; rest: TEventEnvelope[] } {
  const apply: TEventEnvelope[] = [];
  let cur = last;
  const rest: TEventEnvelope[] = [];
  for (const e of pending) {
    if (e.seq <= cur) continue;
    if (e.seq === cur + 1 && rest.length === 0) {
      apply.push(e);
      cur = e.seq;
    } else {
      rest.push(e);
    }
  }
  return { last: cur, apply, rest };
}

function insertSorted(pending: readonly TEventEnvelope[], env: TEventEnvelope): TEventEnvelope[] {
  if (pending.some((e) => e.seq === env.seq)) return [...pending];
  return [...pending, env].sort((a, b) => a.seq - b.seq);
}

export function receiveEvent(state: SeqState, env: TEventEnvelope): SeqOutcome {
  const audience = env.audience;
  const last = state.last[audience];
  const pending = state.pending[audience] ?? [];

  if (last !== undefined && env.seq <= last) return { state, apply: [], gap: null };

  if (env.type === 'system.resync' || last === undefined || env.seq === last + 1) {
    const d = drain(env.seq, pending);
    let next = withAudience(state, audience, d.last, d.rest);
    // A resync about another audience also drops that audience's baseline: its next event is accepted.
    if (env.type === 'system.resync') {
      const about = (env as TEventEnvelope<'system.resync'>).payload.audience;
      if (about !== audience) next = withAudience(next, about, undefined, []);
    }
    return { state: next, apply: [env, ...d.apply], gap: d.rest.length > 0 ? audience : null };
  }

  return { state: withAudience(state, audience, last, insertSorted(pending, env)), apply: [], gap: audience };
}

/** Feeds several events (e.g. a sync reply) in order. */
export function receiveEvents(state: SeqState, events: readonly TEventEnvelope[]): SeqOutcome {
  let cur = state;
  const apply: TEventEnvelope[] = [];
  for (const e of events) {
    const o = receiveEvent(cur, e);
    cur = o.state;
    apply.push(...o.apply);
  }
  const gaps = Object.keys(cur.pending);
  return { state: cur, apply, gap: gaps[0] ?? null };
}

/**
 * After a failed sync (the server cannot fill the gap): the client refetches over HTTP and takes
 * the oldest buffered event as the new baseline, or, with nothing buffered, accepts the next one.
 */
export function resetAudience(state: SeqState, audience: string): SeqOutcome {
  const pending = state.pending[audience] ?? [];
  const first = pending[0];
  if (!first) return { state: withAudience(state, audience, undefined, []), apply: [], gap: null };
  const d = drain(first.seq - 1, pending);
  return { state: withAudience(state, audience, d.last, d.rest), apply: d.apply, gap: d.rest.length > 0 ? audience : null };
}

/** The `sync` request for one audience. */
export function syncRequestFor(state: SeqState, audience: string): { last: Record<string, number> } {
  const last = state.last[audience];
  return { last: last === undefined ? {} : { [audience]: last } };
}
