import { useState } from 'react';

let counter = 0;

/**
 * An id unique in the page for the component's lifetime (labels, aria-describedby, dialog titles).
 * Not React's useId: the build runs on Preact, whose useId gave the register dialog's title and its
 * password field the same id (`P0-2`) across the lazy boundary, so the "Password" label focused the
 * dialog. The page renders on the client only (no hydration to match).
 */
export function useUniqueId(prefix = 'uid'): string {
  const [id] = useState(() => `${prefix}-${++counter}`);
  return id;
}
