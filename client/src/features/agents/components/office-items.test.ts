import { describe, expect, it } from 'vitest';
import { AGENT_CENTRE_ITEMS } from '@portal/contracts/domain/constants';
import type { TConsolidatedFunds } from '@portal/contracts/api/agent-reports';
import { AGENT_OFFICE_ITEMS, DEFAULT_AGENT_ITEM, flagsOf, isGatedItem, NO_AGENT_FLAGS, resolveItem, visibleItems } from './office-items';

const flag = (active: boolean, pendingOffer = false, hasPayouts = false) => ({ active, rateBps: active ? 500 : null, pendingOffer, hasPayouts });
const funds = (over: Partial<TConsolidatedFunds> = {}): TConsolidatedFunds => ({
  dividend: flag(false),
  dailySalary: flag(false),
  hourSalary: flag(false),
  realtimeSalary: flag(false),
  pendingOffers: 0,
  isAgent: true,
  ...over,
});
const ALL = { dividend: true, dailySalary: true, hourSalary: true };

describe('agent centre items', () => {
  it('the back office has the sixteen spec entries in order, the popup the twelve spec items', () => {
    expect(AGENT_OFFICE_ITEMS).toHaveLength(16);
    expect(visibleItems('page', ALL)).toEqual([...AGENT_OFFICE_ITEMS]);
    expect(visibleItems('popup', ALL)).toEqual([...AGENT_CENTRE_ITEMS]);
    expect(AGENT_OFFICE_ITEMS.slice(0, 4)).toEqual(['agentDeposit', 'agentWithdraw', 'agentAnnouncement', 'agentTeamOverview']);
    expect(AGENT_OFFICE_ITEMS.slice(-2)).toEqual(['agentMessages', 'agentCustomerService']);
    // Every popup item is a back-office item: both variants render the same screen for one name.
    for (const i of AGENT_CENTRE_ITEMS) expect(AGENT_OFFICE_ITEMS).toContain(i);
  });

  it('without flags (loading, failed, AGENTPOLICY3 off) the three contract items are hidden, real-time salary stays', () => {
    const page = visibleItems('page', NO_AGENT_FLAGS);
    expect(page).toHaveLength(13);
    expect(page).not.toContain('agentDividendRecordCopy2');
    expect(page).not.toContain('agentDailyWages2');
    expect(page).not.toContain('agentHourSalary');
    expect(page).toContain('agentRealtimeSalary');
    expect(visibleItems('popup', NO_AGENT_FLAGS)).toHaveLength(9);
    expect(flagsOf(undefined)).toEqual(NO_AGENT_FLAGS);
  });

  it('each item follows its own flag from the consolidated call (live contract or pending offer)', () => {
    const onlyDaily = flagsOf(funds({ dailySalary: flag(true) }));
    expect(onlyDaily).toEqual({ dividend: false, dailySalary: true, hourSalary: false });
    const page = visibleItems('page', onlyDaily);
    expect(page).toContain('agentDailyWages2');
    expect(page).not.toContain('agentDividendRecordCopy2');
    expect(page).not.toContain('agentHourSalary');

    expect(flagsOf(funds({ dividend: flag(false, true) })).dividend).toBe(true);
    // a contract that ended leaves its payouts: the record stays in the menu (their statements and disputes)
    expect(flagsOf(funds({ dailySalary: flag(false, false, true) })).dailySalary).toBe(true);
    expect(flagsOf(funds({ hourSalary: flag(true) }))).toEqual({ dividend: false, dailySalary: false, hourSalary: true });
    // real-time salary has no gate of its own in the spec
    expect(flagsOf(funds({ realtimeSalary: flag(true) }))).toEqual(NO_AGENT_FLAGS);
  });

  it('the URL item is used when it is in the menu, otherwise team overview', () => {
    expect(DEFAULT_AGENT_ITEM).toBe('agentTeamOverview');
    expect(resolveItem(null, 'page', ALL)).toBe('agentTeamOverview');
    expect(resolveItem('registerCenter', 'page', NO_AGENT_FLAGS)).toBe('registerCenter');
    expect(resolveItem('agentDeposit', 'page', NO_AGENT_FLAGS)).toBe('agentDeposit');
    expect(resolveItem('agentDeposit', 'popup', ALL)).toBe('agentTeamOverview');
    expect(resolveItem('agentHourSalary', 'page', NO_AGENT_FLAGS)).toBe('agentTeamOverview');
    expect(resolveItem('agentHourSalary', 'page', { ...NO_AGENT_FLAGS, hourSalary: true })).toBe('agentHourSalary');
    expect(resolveItem('nonsense', 'page', ALL)).toBe('agentTeamOverview');
  });

  it('names the items a link must wait for the flags to open: the three contract items, nothing else', () => {
    expect(AGENT_OFFICE_ITEMS.filter(isGatedItem)).toEqual(['agentDividendRecordCopy2', 'agentDailyWages2', 'agentHourSalary']);
    expect(isGatedItem(null)).toBe(false);
    expect(isGatedItem('nonsense')).toBe(false);
  });
});
