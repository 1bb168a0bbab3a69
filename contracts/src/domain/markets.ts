/**
 * Market rules that are data (a merchant belongs to one market, ISO 3166 alpha-2). The minimum age
 * is the merchant's own setting (brand.minAge: 21 in the Philippines); these are the rest.
 */
export type MarketRules = {
  /**
   * Registration collects the player's full name (payeeName) and birth date, both required: the age
   * is checked against the birth date and the person against the restricted-persons list.
   */
  identityAtRegistration: boolean;
  /** The merchant screens players against its restricted-persons list (Philippine rules). */
  restrictedPersons: boolean;
};

const DEFAULT_RULES: MarketRules = { identityAtRegistration: false, restrictedPersons: false };
export const MARKET_RULES: Record<string, MarketRules> = {
  PH: { identityAtRegistration: true, restrictedPersons: true },
};
export const marketRules = (market: string): MarketRules => MARKET_RULES[market] ?? DEFAULT_RULES;
