/** Query keys of the back office: everything under ['ops'] so sign-out drops it at once. */
export const OPS_KEY = ['ops'] as const;
/** Lists refresh this often so a second operator sees what the first did. */
export const OPS_POLL_MS = 5_000;
