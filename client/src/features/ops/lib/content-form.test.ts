import { describe, expect, it } from 'vitest';
import { fromLocalInput, toLocalInput } from './content-form';

describe('datetime-local round trip', () => {
  it('turns an instant into local wall time and back', () => {
    const iso = new Date(2026, 10, 24, 21, 5).toISOString();
    expect(toLocalInput(iso)).toBe('2026-11-24T21:05');
    expect(fromLocalInput('2026-11-24T21:05')).toBe(iso);
  });
  it('leaves what is not a date to the server to refuse', () => {
    expect(toLocalInput('nope')).toBe('');
    expect(fromLocalInput('')).toBe('');
  });
});
