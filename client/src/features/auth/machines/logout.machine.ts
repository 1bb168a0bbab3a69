import { fromPromise, setup } from 'xstate';

/**
 * Sign out (spec section 4): confirm, a loader while DELETE /wps/session/logout runs, then the
 * local session ends whatever the server said (a session it already dropped is still over here):
 * session storage cleared, merchant set again, logged out, and home (or /agent from the agent page).
 */
export const logoutMachine = setup({
  types: {
    events: {} as { type: 'REQUEST' } | { type: 'CONFIRM' } | { type: 'CANCEL' },
  },
  actors: {
    logout: fromPromise<unknown>(async () => {
      throw new Error('logout is not provided');
    }),
  },
  actions: {
    /** Clear session storage, set the merchant again, mark logged out. */
    endSession: () => {},
    /** Home, or /agent from the agent pages. */
    leave: () => {},
  },
}).createMachine({
  id: 'logout',
  initial: 'idle',
  states: {
    idle: { on: { REQUEST: 'confirming' } },
    confirming: { on: { CONFIRM: 'loggingOut', CANCEL: 'idle' } },
    loggingOut: {
      invoke: {
        id: 'logout',
        src: 'logout',
        onDone: { target: 'idle', actions: ['endSession', 'leave'] },
        onError: { target: 'idle', actions: ['endSession', 'leave'] },
      },
    },
  },
});
