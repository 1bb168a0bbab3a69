import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { getAdjacencyMap, getShortestPaths } from 'xstate/graph';
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition, EventObject } from 'xstate';

/**
 * Test support: which transitions of a machine a set of event sequences takes. Paths come from
 * xstate/graph (pure traversal); they are replayed on a live actor whose invoked actors never settle
 * and whose clock never advances, so every done/error/delayed event is the one the path sends.
 */
function nodesOf(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((n) => nodesOf(n))];
}

function labelOf(t: AnyTransitionDefinition): string {
  const source = t.source;
  const always = source.always ?? [];
  const inAlways = always.indexOf(t);
  if (inAlways >= 0) return `${source.id} --always[${inAlways}]`;
  const list = source.transitions.get(t.eventType) ?? [];
  return `${source.id} --${t.eventType}[${list.indexOf(t)}]`;
}

/** Every transition the machine defines, as `stateId --event[candidate]`. */
export function definedTransitions(machine: AnyStateMachine): string[] {
  const out: string[] = [];
  for (const node of nodesOf(machine.root)) {
    for (const list of node.transitions.values()) for (const t of list) out.push(labelOf(t));
    for (const t of node.always ?? []) out.push(labelOf(t));
  }
  return out;
}

/** Replays each event sequence from the initial state and returns the transitions taken. */
export function takenTransitions(machine: AnyStateMachine, sequences: ReadonlyArray<ReadonlyArray<EventObject>>, input?: unknown): Set<string> {
  const taken = new Set<string>();
  const pending = fromPromise(() => new Promise<never>(() => {}));
  const quiet = machine.provide({
    actors: Object.fromEntries(Object.keys(machine.implementations.actors).map((name) => [name, pending])),
  });
  for (const events of sequences) {
    const actor = createActor(quiet, {
      input,
      clock: new SimulatedClock(),
      inspect: (ev) => {
        if (ev.type === '@xstate.microstep') for (const t of ev._transitions) taken.add(labelOf(t));
      },
    });
    actor.start();
    for (const e of events) actor.send(e);
    actor.stop();
  }
  return taken;
}

type Traversal = {
  events: ReadonlyArray<EventObject>;
  serializeState: (snapshot: any) => string; // eslint-disable-line @typescript-eslint/no-explicit-any -- any machine's snapshot
  input?: unknown;
};

/**
 * Every edge of the reachable graph as an event sequence: the shortest path to a state, then one
 * more event. Replaying them takes every transition that can be taken from a reachable state.
 */
export function edgeSequences(machine: AnyStateMachine, opts: Traversal): EventObject[][] {
  const options = {
    events: opts.events as never,
    serializeState: opts.serializeState,
    input: opts.input as never,
    // Only events the state handles: an unhandled actor error event would stop the actor.
    filterEvents: (snapshot: { can: (e: EventObject) => boolean }, event: EventObject) => snapshot.can(event),
  };
  const paths = getShortestPaths(machine, options);
  const adjacency = getAdjacencyMap(machine, options);
  const pathTo = new Map<string, EventObject[]>();
  for (const p of paths) pathTo.set(opts.serializeState(p.state), p.steps.map((s) => s.event as EventObject));
  const out: EventObject[][] = [];
  for (const [key, { transitions }] of Object.entries(adjacency)) {
    const prefix = pathTo.get(key);
    if (!prefix) continue;
    for (const { event } of Object.values(transitions) as Array<{ event: EventObject }>) out.push([...prefix, event]);
  }
  return out;
}

/** The defined transitions no sequence takes (expected to be empty). */
export function untakenTransitions(machine: AnyStateMachine, opts: Traversal): string[] {
  const taken = takenTransitions(machine, edgeSequences(machine, opts), opts.input);
  return definedTransitions(machine).filter((t) => !taken.has(t));
}
