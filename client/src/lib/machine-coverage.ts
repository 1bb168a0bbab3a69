import type { AnyStateMachine, AnyStateNode, EventObject, SnapshotFrom } from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';

/**
 * Model-based coverage for machine tests: walk every state reachable with the given events
 * (xstate/graph) and list the machine's transitions that no step took. Transitions are named
 * `stateId|eventType|index`; guarded alternatives on one event count separately.
 * Used by tests only.
 */
export function allTransitions(machine: AnyStateMachine): string[] {
  const out: string[] = [];
  const visit = (node: AnyStateNode) => {
    for (const [eventType, list] of node.transitions) list.forEach((_, i) => out.push(`${node.id}|${eventType}|${i}`));
    for (const child of Object.values(node.states)) visit(child as AnyStateNode);
  };
  visit(machine.root);
  return out;
}

export function untakenTransitions<M extends AnyStateMachine>(
  machine: M,
  options: {
    events: (snapshot: SnapshotFrom<M>) => readonly EventObject[];
    input?: unknown;
    serialize?: (snapshot: SnapshotFrom<M>) => string;
  },
): string[] {
  const adjacency = getAdjacencyMap(machine, {
    events: options.events as never,
    input: options.input as never,
    ...(options.serialize ? { serializeState: options.serialize as never } : {}),
  });
  const taken = new Set<string>();
  for (const { state } of Object.values(adjacency)) {
    const snapshot = state as SnapshotFrom<M>;
    for (const event of options.events(snapshot)) {
      for (const t of machine.getTransitionData(snapshot as never, event as never)) {
        const list = (t.source as AnyStateNode).transitions.get(t.eventType) ?? [];
        taken.add(`${t.source.id}|${t.eventType}|${list.indexOf(t)}`);
      }
    }
  }
  return allTransitions(machine).filter((k) => !taken.has(k));
}
