import { afterEach, expect } from 'vitest';
import { takeCspViolations } from './browser.ts';

// Every end-to-end test doubles as a check that the built client runs under the portal's strict
// Content-Security-Policy: a script, style, frame or connection the policy refused fails the test.
afterEach(() => {
  expect(takeCspViolations()).toEqual([]);
});
