import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, transition } from 'xstate';
import type { EventObject, SnapshotFrom } from 'xstate';
import { getShortestPaths, getSimplePaths } from 'xstate/graph';
import type { ContractToEnd, TContractTerms } from '@portal/contracts/domain/agent-contracts';
import { CONTRACT_STATUSES } from '@portal/contracts/events/events';
import { ApiError, CLIENT_ERROR_CODE } from '../../../lib/api';
import { untakenTransitions } from '../../../lib/machine-coverage';
import { buildResources, flattenKeys } from '../../../i18n/resources';
import {
  AWAITING_BUSY_STATES, AWAITING_RESTING_STATES, AWAITING_STATE_MESSAGE_KEYS, AWAITING_TEXT_KEYS,
  OFFER_BUSY_STATES, OFFER_RESTING_STATES, OFFER_STATE_MESSAGE_KEYS, OFFER_TEXT_KEYS,
  contractAwaitingMachine, contractOfferMachine, mustEndOf, outcomeOf,
} from './contract-offer.machine';
import type {
  AcceptOfferInput, AcceptOfferOutput, ContractEventPayload, ContractOfferEvent, ContractOfferInput, RejectOfferInput, WithdrawOfferInput, WithdrawOfferOutput,
} from './contract-offer.machine';

const flush = () => new Promise((r) => setTimeout(r, 0));

const offer = (over: Partial<ContractEventPayload> = {}): ContractEventPayload => ({
  contractId: 'c-1', kind: 'daily_salary', status: 'offered', uplineId: 7, uplineAccount: 'agent01', downlineId: 9, rateBps: 80, ...over,
});
const terms: TContractTerms = { kind: 'dailyWages', rate: 80, activeMembers: 3, betAmount: 100_000, validBetPeriod: 'daily' };
const ending = (contractId: number, downlineId: number, rate: number): ContractToEnd => ({
  contractId, downlineId, rate, reason: 'rateAboveNewUplineRate', uplineLimits: { rate: 80, activeMembers: 3, betAmount: 100_000 },
});
const LIST = [ending(31, 12, 100), ending(32, 13, 90)];

const updated = (status: ContractEventPayload['status'], contractId = 'c-1') =>
  ({ type: 'contract.updated', payload: offer({ status, contractId }) }) as const;
const apiError = (code: string, status: number | null = 400, value?: unknown) => new ApiError(code, code, status, [], value);
const networkError = () => new ApiError(CLIENT_ERROR_CODE.NETWORK, 'offline', null);
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output }) as unknown as EventObject;
const fail = (id: string, error: unknown) => ({ type: `xstate.error.actor.${id}`, error }) as unknown as EventObject;

type OfferSnapshot = SnapshotFrom<typeof contractOfferMachine>;
const input = (mustEnd: ContractToEnd[] = [], o: ContractEventPayload = offer()): ContractOfferInput => ({ offer: o, terms, mustEnd });

/** Pure stepping: no actor runs, the test plays the actors' answers. */
function walk(start: ContractOfferInput, events: (EventObject | ContractOfferEvent)[]): OfferSnapshot {
  let [s] = initialTransition(contractOfferMachine, start);
  for (const e of events) [s] = transition(contractOfferMachine, s, e as never);
  return s;
}

describe('outcomeOf', () => {
  it('places every status of the event schema', () => {
    expect(CONTRACT_STATUSES.map(outcomeOf)).toEqual(['open', 'accepted', 'rejected', 'withdrawn', 'ended', 'ended']);
  });
});

describe('mustEndOf', () => {
  it('reads the list from a CONTRACT_CONSENT_REQUIRED envelope value, refusing anything malformed', () => {
    expect(mustEndOf(apiError('CONTRACT_CONSENT_REQUIRED', 409, { mustEnd: LIST }))).toEqual(LIST);
    expect(mustEndOf(apiError('CONTRACT_CONSENT_REQUIRED', 409, { mustEnd: [{ contractId: 'x' }] }))).toBeNull();
    expect(mustEndOf(apiError('CONTRACT_CONSENT_REQUIRED', 409))).toBeNull();
    expect(mustEndOf(new Error('x'))).toBeNull();
  });
});

describe('contract offer machine (downline), transitions', () => {
  it('shows an open offer, and a payload that is not an open offer ends at once', () => {
    expect(walk(input(), []).value).toBe('offered');
    for (const status of ['accepted', 'rejected', 'withdrawn', 'terminated'] as const) {
      const s = walk(input([], offer({ status })), []);
      expect(s.value).toBe('invalid');
      expect(s.status).toBe('done');
    }
  });

  it('the notification opens the details or is put away and opened later', () => {
    expect(walk(input(), [{ type: 'OPEN' }]).value).toBe('reviewing');
    expect(walk(input(), [{ type: 'DISMISS' }]).value).toBe('deferred');
    expect(walk(input(), [{ type: 'DISMISS' }, { type: 'OPEN' }]).value).toBe('reviewing');
    expect(walk(input(), [{ type: 'OPEN' }, { type: 'CLOSE' }]).value).toBe('deferred');
  });

  it('an offer that ends nothing is accepted without a consent step', () => {
    expect(walk(input(), [{ type: 'OPEN' }, { type: 'ACCEPT' }]).value).toBe('accepting');
    expect(walk(input(), [{ type: 'OPEN' }, { type: 'ACCEPT' }, done('acceptOffer', { contractId: 'c-1', endedContractIds: [] })]).value).toBe('accepted');
  });

  it('a lower rate is accepted only after the user agrees to the list of contracts that end', () => {
    const noConsent = walk(input(LIST), [{ type: 'OPEN' }, { type: 'ACCEPT' }]);
    expect(noConsent.value).toBe('reviewing');
    const withdrawnConsent = walk(input(LIST), [{ type: 'OPEN' }, { type: 'AGREE', agreed: true }, { type: 'AGREE', agreed: false }, { type: 'ACCEPT' }]);
    expect(withdrawnConsent.value).toBe('reviewing');
    const consent = walk(input(LIST), [{ type: 'OPEN' }, { type: 'AGREE', agreed: true }, { type: 'ACCEPT' }]);
    expect(consent.value).toBe('accepting');
    expect(consent.context.mustEnd).toEqual(LIST);
  });

  it('withdrawn by the upline while reviewing: withdrawn, and accepting is no longer possible', () => {
    const s = walk(input(LIST), [{ type: 'OPEN' }, { type: 'AGREE', agreed: true }, updated('withdrawn'), { type: 'ACCEPT' }]);
    expect(s.value).toBe('withdrawn');
    expect(s.status).toBe('done');
  });

  it('withdrawn while the acceptance is in flight: withdrawn wins, a late success changes nothing', () => {
    const s = walk(input(), [{ type: 'OPEN' }, { type: 'ACCEPT' }, updated('withdrawn'), done('acceptOffer', { contractId: 'c-1', endedContractIds: [] })]);
    expect(s.value).toBe('withdrawn');
  });

  it('news about another contract is ignored; answered in another tab closes this one', () => {
    expect(walk(input(), [{ type: 'OPEN' }, updated('withdrawn', 'c-2')]).value).toBe('reviewing');
    expect(walk(input(), [updated('accepted')]).value).toBe('accepted');
    expect(walk(input(), [{ type: 'DISMISS' }, updated('rejected')]).value).toBe('rejected');
    expect(walk(input(), [{ type: 'OPEN' }, updated('terminated')]).value).toBe('ended');
    // An echo of status offered (a resync) leaves it open.
    expect(walk(input(), [{ type: 'OPEN' }, updated('offered')]).value).toBe('reviewing');
  });

  it('INVALID_STATE from the server: the offer is no longer open (withdrawn or answered)', () => {
    expect(walk(input(), [{ type: 'OPEN' }, { type: 'ACCEPT' }, fail('acceptOffer', apiError('INVALID_STATE', 409))]).value).toBe('noLongerOpen');
    expect(walk(input(), [{ type: 'OPEN' }, { type: 'REJECT' }, fail('rejectOffer', apiError('INVALID_STATE', 409))]).value).toBe('noLongerOpen');
  });

  it('CONTRACT_CONSENT_REQUIRED: back to the details with the server list and the agreement cleared', () => {
    const fresh = [ending(40, 20, 120)];
    const s = walk(input(), [{ type: 'OPEN' }, { type: 'ACCEPT' }, fail('acceptOffer', apiError('CONTRACT_CONSENT_REQUIRED', 409, { mustEnd: fresh }))]);
    expect(s.value).toBe('reviewing');
    expect(s.context.mustEnd).toEqual(fresh);
    expect(s.context.agreed).toBe(false);
    expect(transition(contractOfferMachine, s, { type: 'ACCEPT' })[0].value).toBe('reviewing');
    // Without a list in the answer the known list stays, and consent must be given again.
    const kept = walk(input(LIST), [{ type: 'OPEN' }, { type: 'AGREE', agreed: true }, { type: 'ACCEPT' }, fail('acceptOffer', apiError('CONTRACT_CONSENT_REQUIRED', 409))]);
    expect(kept.value).toBe('reviewing');
    expect(kept.context.mustEnd).toEqual(LIST);
    expect(kept.context.agreed).toBe(false);
  });

  it('a network error or a 5xx may be retried; a refusal may not, and goes back to the details', () => {
    for (const e of [networkError(), apiError('INTERNAL', 500), new TypeError('Failed to fetch')]) {
      const failed = walk(input(), [{ type: 'OPEN' }, { type: 'ACCEPT' }, fail('acceptOffer', e)]);
      expect(failed.value).toBe('acceptFailed');
      expect(transition(contractOfferMachine, failed, { type: 'RETRY' })[0].value).toBe('accepting');
    }
    const refused = walk(input(), [{ type: 'OPEN' }, { type: 'ACCEPT' }, fail('acceptOffer', apiError('CONTRACT_RATE_ABOVE_UPLINE', 400))]);
    expect(refused.value).toBe('acceptFailed');
    expect(transition(contractOfferMachine, refused, { type: 'RETRY' })[0].value).toBe('acceptFailed');
    expect(transition(contractOfferMachine, refused, { type: 'CLOSE' })[0].value).toBe('reviewing');
    const rejectFailed = walk(input(), [{ type: 'OPEN' }, { type: 'REJECT' }, fail('rejectOffer', networkError())]);
    expect(rejectFailed.value).toBe('rejectFailed');
    expect(transition(contractOfferMachine, rejectFailed, { type: 'RETRY' })[0].value).toBe('rejecting');
  });
});

describe('contract offer machine (downline), with actors', () => {
  function start(mustEnd: ContractToEnd[], accept: (i: AcceptOfferInput) => Promise<AcceptOfferOutput>) {
    const accepted: AcceptOfferInput[] = [];
    const rejected: RejectOfferInput[] = [];
    const actor = createActor(
      contractOfferMachine.provide({
        actors: {
          acceptOffer: fromPromise(({ input: i }: { input: AcceptOfferInput }) => {
            accepted.push(i);
            return accept(i);
          }),
          rejectOffer: fromPromise(async ({ input: i }: { input: RejectOfferInput }) => {
            rejected.push(i);
            return { contractId: i.contractId };
          }),
        },
      }),
      { input: input(mustEnd) },
    ).start();
    return { actor, accepted, rejected };
  }

  it('sends exactly the agreed list with the acceptance', async () => {
    const { actor, accepted } = start(LIST, async (i) => ({ contractId: i.contractId, endedContractIds: i.endContractIds }));
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'ACCEPT' });
    expect(accepted).toEqual([]);
    actor.send({ type: 'AGREE', agreed: true });
    actor.send({ type: 'ACCEPT' });
    await flush();
    expect(accepted).toEqual([{ contractId: 'c-1', endContractIds: [31, 32] }]);
    expect(actor.getSnapshot().value).toBe('accepted');
  });

  it('a withdrawal arriving during the request stops it: the machine never reports accepted', async () => {
    let resolve: (v: AcceptOfferOutput) => void = () => {};
    const { actor, accepted } = start([], () => new Promise((r) => { resolve = r; }));
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'ACCEPT' });
    actor.send(updated('withdrawn'));
    resolve({ contractId: 'c-1', endedContractIds: [] });
    await flush();
    expect(accepted).toHaveLength(1);
    expect(actor.getSnapshot().value).toBe('withdrawn');
  });

  it('once withdrawn, later news (even an accepted echo) changes nothing', () => {
    const { actor } = start([], async () => { throw new Error('not called'); });
    actor.send(updated('withdrawn'));
    actor.send(updated('accepted'));
    expect(actor.getSnapshot().value).toBe('withdrawn');
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('retries after a network error with the same request', async () => {
    let calls = 0;
    const { actor, accepted } = start(LIST, async (i) => {
      calls += 1;
      if (calls === 1) throw networkError();
      return { contractId: i.contractId, endedContractIds: i.endContractIds };
    });
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'AGREE', agreed: true });
    actor.send({ type: 'ACCEPT' });
    await flush();
    expect(actor.getSnapshot().value).toBe('acceptFailed');
    actor.send({ type: 'RETRY' });
    await flush();
    expect(accepted).toEqual([{ contractId: 'c-1', endContractIds: [31, 32] }, { contractId: 'c-1', endContractIds: [31, 32] }]);
    expect(actor.getSnapshot().value).toBe('accepted');
  });

  it('rejects', async () => {
    const { actor, rejected } = start(LIST, async () => { throw new Error('not called'); });
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'REJECT' });
    await flush();
    expect(rejected).toEqual([{ contractId: 'c-1' }]);
    expect(actor.getSnapshot().value).toBe('rejected');
  });
});

// ---------------------------------------------------------------------------------------------------
// Model-based: every simple path and every shortest path, with every event the machine knows.

const OFFER_FINAL = ['invalid', 'accepted', 'rejected', 'withdrawn', 'noLongerOpen', 'ended'];
const ERRORS = [
  apiError('INVALID_STATE', 409),
  apiError('CONTRACT_CONSENT_REQUIRED', 409, { mustEnd: [ending(40, 20, 120)] }),
  apiError('CONTRACT_CONSENT_REQUIRED', 409),
  networkError(),
  apiError('INTERNAL', 500),
  apiError('CONTRACT_RATE_ABOVE_UPLINE', 400),
];
/**
 * What can happen in a state: nothing once the machine is done (a stopped actor takes no events; pure
 * transition() would still apply them), and an actor's answers only while its request runs.
 */
const offerEvents = (s: OfferSnapshot): EventObject[] => s.status !== 'active' ? [] : [
  { type: 'OPEN' }, { type: 'DISMISS' }, { type: 'CLOSE' }, { type: 'ACCEPT' }, { type: 'REJECT' }, { type: 'RETRY' },
  { type: 'AGREE', agreed: true } as EventObject, { type: 'AGREE', agreed: false } as EventObject,
  ...CONTRACT_STATUSES.map((s) => updated(s) as EventObject),
  updated('withdrawn', 'c-other') as EventObject,
  ...((OFFER_BUSY_STATES as readonly string[]).includes(s.value as string) ? outcomesOf(s.value as string) : []),
];
const serializeOffer = (s: OfferSnapshot) =>
  JSON.stringify([s.value, s.context.agreed, s.context.mustEnd.map((c) => c.contractId), (s.context.error as ApiError | null)?.code ?? null]);
const OFFER_INPUTS = [input(), input(LIST), input([], offer({ status: 'withdrawn' }))];

/** What the busy state's request can answer. */
const outcomesOf = (value: string): EventObject[] => {
  const id = value === 'accepting' ? 'acceptOffer' : value === 'rejecting' ? 'rejectOffer' : 'withdrawOffer';
  return [done(id, { contractId: 'c-1', endedContractIds: [] }), ...ERRORS.map((e) => fail(id, e))];
};

function checkOfferPath(steps: { state: OfferSnapshot; event: EventObject }[]) {
  let sawClosed = false;
  for (let i = 0; i < steps.length; i += 1) {
    const { state, event } = steps[i]!;
    const value = state.value as string;
    const prev = i > 0 ? (steps[i - 1]!.state.value as string) : null;
    // Never accepted after the offer was withdrawn or found closed.
    if (value === 'accepted') expect(sawClosed).toBe(false);
    if (value === 'withdrawn' || value === 'noLongerOpen') sawClosed = true;
    // An acceptance request starts only with consent to a non-empty list.
    if (value === 'accepting' && prev !== 'accepting') {
      expect(state.context.mustEnd.length === 0 || state.context.agreed).toBe(true);
    }
    // Accepted only by the server's yes to our request, or by news that it was accepted elsewhere.
    if (value === 'accepted' && prev !== 'accepted') {
      const byRequest = prev === 'accepting' && event.type === 'xstate.done.actor.acceptOffer';
      const byNews = event.type === 'contract.updated' && (event as ReturnType<typeof updated>).payload.status === 'accepted';
      expect(byRequest || byNews).toBe(true);
    }
  }
  // Every path ends in a final state, a resting state, or a request whose every answer leads to one.
  const end = steps[steps.length - 1]!.state;
  const endValue = end.value as string;
  const settles = (s: OfferSnapshot) => OFFER_FINAL.includes(s.value as string) || (OFFER_RESTING_STATES as readonly string[]).includes(s.value as string);
  if ((OFFER_BUSY_STATES as readonly string[]).includes(endValue)) {
    for (const e of outcomesOf(endValue)) expect(settles(transition(contractOfferMachine, end, e as never)[0])).toBe(true);
  } else {
    expect(settles(end)).toBe(true);
  }
  if (OFFER_FINAL.includes(endValue)) expect(end.status).toBe('done');
}

describe('contract offer machine (downline), model-based', () => {
  it('every shortest path to every distinct state keeps the invariants', () => {
    let paths = 0;
    const reached = new Set<string>();
    for (const i of OFFER_INPUTS) {
      // Shortest paths to every distinct state (value, consent, list, error). Simple paths of this machine
      // do not finish (its cycles: details <-> later, agree <-> disagree, failed <-> details).
      for (const generate of [getShortestPaths] as const) {
        for (const path of generate(contractOfferMachine, { events: offerEvents as never, input: i, serializeState: serializeOffer as never })) {
          paths += 1;
                    reached.add(path.state.value as string);
          checkOfferPath(path.steps as never);
        }
      }
    }
    expect(paths).toBeGreaterThan(100);
    expect([...reached].sort()).toEqual(Object.keys(OFFER_STATE_MESSAGE_KEYS).sort());
  });

  it('takes every transition of the machine', () => {
    const untaken = OFFER_INPUTS.map((i) => new Set(untakenTransitions(contractOfferMachine, { events: offerEvents as never, input: i, serialize: serializeOffer as never })));
    expect([...untaken[0]!].filter((k) => untaken.every((u) => u.has(k)))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------
// The upline side.

type AwaitingSnapshot = SnapshotFrom<typeof contractAwaitingMachine>;
function walkUp(o: ContractEventPayload, events: EventObject[]): AwaitingSnapshot {
  let [s] = initialTransition(contractAwaitingMachine, { offer: o });
  for (const e of events) [s] = transition(contractAwaitingMachine, s, e as never);
  return s;
}

describe('contract awaiting machine (upline)', () => {
  it('waits for the answer and shows it live', () => {
    expect(walkUp(offer(), []).value).toBe('awaitingAnswer');
    expect(walkUp(offer(), [updated('accepted')]).value).toBe('accepted');
    expect(walkUp(offer(), [updated('rejected')]).value).toBe('rejected');
    expect(walkUp(offer(), [updated('terminated')]).value).toBe('ended');
    expect(walkUp(offer(), [updated('withdrawn')]).value).toBe('withdrawn'); // from another tab
    expect(walkUp(offer(), [updated('accepted', 'c-2')]).value).toBe('awaitingAnswer');
    expect(walkUp(offer({ status: 'accepted' }), []).value).toBe('invalid');
  });

  it('withdraws; answered meanwhile goes back to waiting for the answer event; network errors retry', () => {
    expect(walkUp(offer(), [{ type: 'WITHDRAW' }, done('withdrawOffer', { contractId: 'c-1' })]).value).toBe('withdrawn');
    const raced = walkUp(offer(), [{ type: 'WITHDRAW' }, fail('withdrawOffer', apiError('INVALID_STATE', 409))]);
    expect(raced.value).toBe('awaitingAnswer');
    expect(transition(contractAwaitingMachine, raced, updated('accepted'))[0].value).toBe('accepted');
    const failed = walkUp(offer(), [{ type: 'WITHDRAW' }, fail('withdrawOffer', networkError())]);
    expect(failed.value).toBe('withdrawFailed');
    expect(transition(contractAwaitingMachine, failed, { type: 'RETRY' })[0].value).toBe('withdrawing');
    const refused = walkUp(offer(), [{ type: 'WITHDRAW' }, fail('withdrawOffer', apiError('FORBIDDEN', 403))]);
    expect(transition(contractAwaitingMachine, refused, { type: 'RETRY' })[0].value).toBe('withdrawFailed');
    expect(transition(contractAwaitingMachine, refused, { type: 'CLOSE' })[0].value).toBe('awaitingAnswer');
  });

  it('the answer arriving during the withdrawal wins', async () => {
    const calls: WithdrawOfferInput[] = [];
    const actor = createActor(
      contractAwaitingMachine.provide({
        actors: { withdrawOffer: fromPromise<WithdrawOfferOutput, WithdrawOfferInput>(async ({ input: i }) => { calls.push(i); await flush(); throw apiError('INVALID_STATE', 409); }) },
      }),
      { input: { offer: offer() } },
    ).start();
    actor.send({ type: 'WITHDRAW' });
    actor.send(updated('accepted'));
    await flush();
    await flush();
    expect(calls).toEqual([{ contractId: 'c-1' }]);
    expect(actor.getSnapshot().value).toBe('accepted');
  });

  const AWAITING_FINAL = ['invalid', 'accepted', 'rejected', 'withdrawn', 'ended'];
  const awaitingEvents = (s: AwaitingSnapshot): EventObject[] => s.status !== 'active' ? [] : [
    { type: 'WITHDRAW' }, { type: 'RETRY' }, { type: 'CLOSE' },
    ...CONTRACT_STATUSES.map((s) => updated(s) as EventObject),
    updated('accepted', 'c-other') as EventObject,
    ...(s.value === 'withdrawing' ? outcomesOf('withdrawing') : []),
  ];
  const serializeAwaiting = (s: AwaitingSnapshot) => JSON.stringify([s.value, (s.context.error as ApiError | null)?.code ?? null]);

  it('model-based: every path ends settled, withdrawn is never followed by an answer, every transition is taken', () => {
    let paths = 0;
    const reached = new Set<string>();
    const settles = (s: AwaitingSnapshot) => AWAITING_FINAL.includes(s.value as string) || (AWAITING_RESTING_STATES as readonly string[]).includes(s.value as string);
    for (const o of [offer(), offer({ status: 'rejected' })]) {
      for (const generate of [getSimplePaths, getShortestPaths] as const) {
        for (const path of generate(contractAwaitingMachine, { events: awaitingEvents as never, input: { offer: o }, serializeState: serializeAwaiting as never })) {
          paths += 1;
          reached.add(path.state.value as string);
          let closed = false;
          for (const { state } of path.steps) {
            if (closed) expect(['accepted', 'rejected']).not.toContain(state.value);
            if (state.value === 'withdrawn') closed = true;
          }
          const end = path.state;
          if ((AWAITING_BUSY_STATES as readonly string[]).includes(end.value as string)) {
            for (const e of outcomesOf(end.value as string)) expect(settles(transition(contractAwaitingMachine, end, e as never)[0])).toBe(true);
          } else {
            expect(settles(end)).toBe(true);
          }
        }
      }
    }
    expect(paths).toBeGreaterThan(10);
    expect([...reached].sort()).toEqual(Object.keys(AWAITING_STATE_MESSAGE_KEYS).sort());
    const untaken = [offer(), offer({ status: 'rejected' })].map((o) => new Set(untakenTransitions(contractAwaitingMachine, { events: awaitingEvents as never, input: { offer: o }, serialize: serializeAwaiting as never })));
    expect([...untaken[0]!].filter((k) => untaken.every((u) => u.has(k)))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('offer strings', () => {
  const resources = buildResources(import.meta.glob<unknown>('../../../i18n/locales/*/*.json', { eager: true, import: 'default' }));
  const flatten = (obj: object): string[] => Object.values(obj).flatMap((v) => (typeof v === 'string' ? [v] : flatten(v as object)));
  it('every key the machines name has EN and TY text', () => {
    const keys = [OFFER_STATE_MESSAGE_KEYS, OFFER_TEXT_KEYS, AWAITING_STATE_MESSAGE_KEYS, AWAITING_TEXT_KEYS].flatMap(flatten);
    expect(keys.length).toBeGreaterThan(30);
    const missing: string[] = [];
    for (const lang of ['EN', 'TY']) {
      for (const full of keys) {
        const [ns, key] = full.split(':') as [string, string];
        const text = flattenKeys(resources[lang]?.[ns] ?? {}).get(key);
        if (typeof text !== 'string' || text.trim() === '') missing.push(`${lang} ${full}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
