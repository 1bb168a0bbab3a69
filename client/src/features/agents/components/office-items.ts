import { AGENT_CENTRE_ITEMS } from '@portal/contracts/domain/constants';
import type { TConsolidatedFunds } from '@portal/contracts/api/agent-reports';

/** The popup agent centre's twelve items (spec section 2), default agentTeamOverview. */
export type AgentCentreItem = (typeof AGENT_CENTRE_ITEMS)[number];

/**
 * The back-office page's sixteen menu entries in the spec's order (Deposit, Withdraw, Announcement,
 * Team overview, Register centre, Downline management, Team betting, User loss, My income, Account
 * details, Dividend record, Daily wages, Hourly salary, Real-time salary, Platform messages, Customer
 * service). Entries shared with the popup keep the popup's item names, so one URL names one screen.
 */
export const AGENT_OFFICE_ITEMS = [
  'agentDeposit',
  'agentWithdraw',
  'agentAnnouncement',
  'agentTeamOverview',
  'registerCenter',
  'downlineManagmentView',
  'personalHistoryCopy',
  'palStatementsAgentCopy',
  'agentRevenueReport',
  'agentDownlineTransactionDetailsCopy',
  'agentDividendRecordCopy2',
  'agentDailyWages2',
  'agentHourSalary',
  'agentRealtimeSalary',
  'agentMessages',
  'agentCustomerService',
] as const;
export type AgentOfficeItem = (typeof AGENT_OFFICE_ITEMS)[number];

export const DEFAULT_AGENT_ITEM: AgentOfficeItem = 'agentTeamOverview';

/** Which contract-driven items apply (from the consolidated call); unknown (loading, failed) hides them. */
export type AgentItemFlags = { dividend: boolean; dailySalary: boolean; hourSalary: boolean };

export const NO_AGENT_FLAGS: AgentItemFlags = { dividend: false, dailySalary: false, hourSalary: false };

/**
 * A kind "applies" when the member has a live contract of it or an offer of it waiting (the record
 * screen is where the offer's terms and later the payouts are seen), or payouts of it: once its contract
 * ended, its statements stayed unreachable (and undisputable) from the menu.
 */
export function flagsOf(funds: TConsolidatedFunds | undefined): AgentItemFlags {
  if (!funds) return NO_AGENT_FLAGS;
  const applies = (f: TConsolidatedFunds['dividend']) => f.active || f.pendingOffer || f.hasPayouts;
  return { dividend: applies(funds.dividend), dailySalary: applies(funds.dailySalary), hourSalary: applies(funds.hourSalary) };
}

/** Spec: dividend record only when dividend applies, daily wages with dailySalary, hourly with hourSalary. */
export function isItemShown(item: AgentOfficeItem, flags: AgentItemFlags): boolean {
  switch (item) {
    case 'agentDividendRecordCopy2':
      return flags.dividend;
    case 'agentDailyWages2':
      return flags.dailySalary;
    case 'agentHourSalary':
      return flags.hourSalary;
    default:
      return true;
  }
}

/** Whether `raw` names an item the contract flags may hide (dividend record, daily wages, hourly salary). */
export function isGatedItem(raw: string | null): boolean {
  return (AGENT_OFFICE_ITEMS as readonly string[]).includes(raw ?? '') && !isItemShown(raw as AgentOfficeItem, NO_AGENT_FLAGS);
}

export type AgentCentreVariant = 'page' | 'popup';

/** The menu of the page (16 entries) or of the popup (12), gated by the flags. */
export function visibleItems(variant: AgentCentreVariant, flags: AgentItemFlags): AgentOfficeItem[] {
  const all: readonly AgentOfficeItem[] = variant === 'page' ? AGENT_OFFICE_ITEMS : AGENT_CENTRE_ITEMS;
  return all.filter((i) => isItemShown(i, flags));
}

/** The item named in the URL if it is in the menu, else the default (team overview). */
export function resolveItem(raw: string | null, variant: AgentCentreVariant, flags: AgentItemFlags): AgentOfficeItem {
  const items = visibleItems(variant, flags);
  return items.find((i) => i === raw) ?? DEFAULT_AGENT_ITEM;
}
