import { AGENT_TYPES, TRIAL_TYPE } from './constants.ts';

/** Agent status follows the numeric member type, or the merchant's configured agent list. */
export function isAgentType(type: number, extraAgentTypes: readonly number[] = []): boolean {
  return (AGENT_TYPES as readonly number[]).includes(type) || extraAgentTypes.includes(type);
}

export function isTrialType(type: number, extraTrialTypes: readonly number[] = []): boolean {
  return type === TRIAL_TYPE || extraTrialTypes.includes(type);
}
