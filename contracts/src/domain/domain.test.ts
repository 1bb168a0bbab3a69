import { describe, expect, it } from 'vitest';
import { PATTERNS, compilePattern, patternMessage } from './patterns.ts';
import { ageOn, checkField, merchantClock, type FieldRule } from './registration.ts';
import { formatMinor, maskName } from './money.ts';
import { isAgentType, isTrialType } from './member.ts';
import { parseEvent } from '../events/events.ts';

describe('pattern catalogue', () => {
  it('has ids 0 to 20, each compiling', () => {
    expect(PATTERNS.map((p) => p.id)).toEqual(Array.from({ length: 21 }, (_, i) => i));
    for (const p of PATTERNS) expect(() => compilePattern(p.pattern)).not.toThrow();
  });
  it.each([
    [1, 'abc123', true], [1, '1abc', false], [3, 'a@b.ph', true], [3, 'a@b', false], [5, 'abc123', true], [5, 'abcdef', false],
    [6, '0917', true], [6, '09a', false], [7, 'Abc123', true], [7, 'abc123', false], [8, 'Juan Cruz', true], [9, 'a b', false],
    [11, '2000-02-29', true], [11, '2000-13-01', false], [12, '12-31-1999', true], [14, 'สวัสดี', true], [14, 'abc', false],
    [17, 'Abcdef1!', true], [17, 'abcdef1!', false], [19, 'Ma. José Dela Cruz', true], [19, '123', false], [20, 'juan_99', true], [20, 'Juan', false],
  ])('pattern %i on %s is %s', (id, value, ok) => {
    expect(compilePattern(PATTERNS[id]!.pattern).test(value)).toBe(ok);
  });
  it("treats '*' as any characters and formats ranges", () => {
    expect(compilePattern('*').test('anything at all')).toBe(true);
    expect(patternMessage(3, 6, 6)).toEqual({ key: 'reg_pattern_3', range: '6' });
    expect(patternMessage(3, 6, 16)).toEqual({ key: 'reg_pattern_3', range: '6-16' });
  });
});

describe('registration field rules', () => {
  const rule: FieldRule = { enabled: true, required: true, acceptedPattern: '^[a-z0-9]+$', patternId: 4, minLength: 4, maxLength: 8, type: 'text' };
  it('reports required, pattern and length problems', () => {
    expect(checkField(rule, '')).toEqual({ kind: 'required' });
    expect(checkField(rule, 'ab')).toMatchObject({ kind: 'pattern', key: 'reg_pattern_4', range: '4-8' });
    expect(checkField(rule, 'ABCD')).toMatchObject({ kind: 'pattern' });
    expect(checkField(rule, 'abcd')).toBeNull();
    expect(checkField({ ...rule, required: false }, '')).toBeNull();
    expect(checkField({ ...rule, enabled: false }, '!!')).toBeNull();
  });
  it('computes age on a date', () => {
    expect(ageOn('2005-11-22', new Date('2026-11-22T00:00:00Z'))).toBe(21);
    expect(ageOn('2005-11-23', new Date('2026-11-22T00:00:00Z'))).toBe(20);
    expect(ageOn('bad', new Date())).toBeNull();
    // 01:00 on the 24th in Manila is still the 23rd in UTC: the birthday counts on the merchant's calendar
    const now = Date.UTC(2026, 10, 23, 17, 0);
    expect(ageOn('2005-11-24', merchantClock(8 * 60, now))).toBe(21);
    expect(ageOn('2005-11-24', merchantClock(0, now))).toBe(20);
    expect(ageOn('2005-11-23', merchantClock(-10 * 60, Date.UTC(2026, 10, 23, 9, 0)))).toBe(20);
  });
});

describe('money and names', () => {
  it('formats minor units with 2 decimals, separators and symbol', () => {
    expect(formatMinor(123456789, '₱')).toBe('₱1,234,567.89');
    expect(formatMinor(5)).toBe('0.05');
    expect(formatMinor(-100050, '₱')).toBe('-₱1,000.50');
  });
  it('masks names', () => {
    expect(maskName('Juanito')).toBe('J****o');
    expect(maskName('Al')).toBe('A*');
  });
  it('knows agent and trial types', () => {
    expect([1, 2, 41, 42].every((t) => isAgentType(t))).toBe(true);
    expect(isAgentType(0)).toBe(false);
    expect(isAgentType(7, [7])).toBe(true);
    expect(isTrialType(4)).toBe(true);
  });
});

describe('event envelopes', () => {
  const base = { id: 'x', v: 1, audience: 'merchant:DEMO', seq: 1, at: new Date().toISOString() };
  it('parses by type and rejects mismatched payloads', () => {
    expect(parseEvent({ ...base, type: 'system.maintenance', payload: { systemStatus: 1 } })).not.toBeNull();
    expect(parseEvent({ ...base, type: 'system.maintenance', payload: { systemStatus: 9 } })).toBeNull();
    expect(parseEvent({ ...base, type: 'nope', payload: {} })).toBeNull();
    expect(parseEvent({ ...base, audience: 'everyone', type: 'system.maintenance', payload: { systemStatus: 0 } })).toBeNull();
  });
});
