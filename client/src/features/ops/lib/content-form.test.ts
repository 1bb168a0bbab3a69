import { describe, expect, it } from 'vitest';
import { fromLocalInput, toLocalInput } from './content-form';

describe('datetime-local round trip on the merchant clock', () => {
  it('turns an instant into the merchant wall time and back, whatever the browser zone', () => {
    const iso = '2026-11-24T13:05:00.000Z';
    expect(toLocalInput(iso, 480)).toBe('2026-11-24T21:05'); // GMT+8
    expect(fromLocalInput('2026-11-24T21:05', 480)).toBe(iso);
    expect(toLocalInput(iso, -210)).toBe('2026-11-24T09:35'); // GMT-3:30
    expect(fromLocalInput('2026-11-24T09:35', -210)).toBe(iso);
  });
  it('leaves what is not a date to the server to refuse', () => {
    expect(toLocalInput('nope', 480)).toBe('');
    expect(toLocalInput(null, 480)).toBe('');
    expect(fromLocalInput('', 480)).toBe('');
  });
});
