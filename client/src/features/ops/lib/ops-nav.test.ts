import { describe, expect, it } from 'vitest';
import { opsCan } from '@portal/contracts/api/ops';
import { sectionOf } from './ops-nav';

describe('the section of a console address', () => {
  it('is the section it is, or is under; none for /ops itself or an unknown address', () => {
    expect(sectionOf('/ops/players')?.id).toBe('players');
    expect(sectionOf('/ops/players/7')?.id).toBe('players');
    expect(sectionOf('/ops/audit/')?.id).toBe('audit');
    expect(sectionOf('/ops/agent-contracts')?.id).toBe('agent-contracts');
    expect(sectionOf('/ops/agents')?.id).toBe('agents');
    // whatever the case, as the router matches it
    expect(sectionOf('/ops/AUDIT')?.id).toBe('audit');
    expect(sectionOf('/ops/Adjustments')?.id).toBe('adjustments');
    expect(sectionOf('/OPS/Players/7')?.id).toBe('players');
    expect(sectionOf('/ops')).toBeUndefined();
    expect(sectionOf('/ops/nowhere')).toBeUndefined();
    // no section is taken for another one that merely starts like it
    expect(sectionOf('/ops/playersx')).toBeUndefined();
  });
  it("names the permission that opens it: a content operator's audit, players and adjustments are closed", () => {
    for (const path of ['/ops/audit', '/ops/players/2', '/ops/adjustments', '/ops/operators']) {
      expect(opsCan(['content'], sectionOf(path)!.action), path).toBe(false);
    }
    expect(opsCan(['content'], sectionOf('/ops/content')!.action)).toBe(true);
  });
});
