import { describe, expect, it } from 'vitest';
import { toggleExpanded } from './notice-list';

describe('toggleExpanded', () => {
  it('opens one notice at a time and collapses on a second click', () => {
    let open: string | null = null;
    open = toggleExpanded(open, 'a');
    expect(open).toBe('a');
    open = toggleExpanded(open, 'b');
    expect(open).toBe('b');
    open = toggleExpanded(open, 'b');
    expect(open).toBeNull();
  });
});
