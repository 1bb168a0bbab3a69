import { createStore } from './store';
import { readStorage, writeStorage } from './storage';

/**
 * The merchant code from the brand config, sent as `X-Merchant-Code` once known. The gateway
 * resolves the merchant from the host first, so this only matters where the host is shared.
 */
const MERCHANT_KEY = 'portal.merchant';

const merchantStore = createStore<string | null>(readStorage('session', MERCHANT_KEY));

export function getMerchantCode(): string | null {
  return merchantStore.get();
}

export function setMerchantCode(code: string): void {
  writeStorage('session', MERCHANT_KEY, code);
  merchantStore.set(code);
}

export const subscribeMerchant = merchantStore.subscribe;
