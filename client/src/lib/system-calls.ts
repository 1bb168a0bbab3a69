import { systemCalls } from '@portal/contracts/api/system';
import type { TSystemStatus, TWhitelabel } from '@portal/contracts/api/system';
import { call } from './api';
import { setMerchantCode } from './merchant';

/** GET /wps/system/status: 0 normal, 1 maintenance, 2 blocked (no session needed). */
export function getSystemStatus(signal?: AbortSignal): Promise<TSystemStatus> {
  return call(systemCalls.status, { query: {}, signal });
}

/** GET /wps/system/whitelabel: module flags and brand config; remembers the merchant code for `X-Merchant-Code`. */
export async function getWhitelabel(signal?: AbortSignal): Promise<TWhitelabel> {
  const value = await call(systemCalls.whitelabel, { query: {}, signal });
  setMerchantCode(value.brand.merchantCode);
  return value;
}

type BootCalls = { status: Promise<TSystemStatus>; whitelabel: Promise<TWhitelabel> };
let started: Partial<BootCalls> = {};

/**
 * main.tsx, before the session is restored: the two calls every page waits for before it paints
 * (SystemGate holds the app until the status is known; the brand comes with the whitelabel). They
 * need no session, so they go out beside the session call instead of after the first render.
 */
export function startBootCalls(): void {
  started = { status: getSystemStatus(), whitelabel: getWhitelabel() };
  // A failure is the query's to report (app/provider.tsx hands the promise to it), not the page's.
  for (const p of Object.values(started)) p.catch(() => undefined);
}

/** The call started by startBootCalls, once (the first query client takes it), else undefined. */
export function takeBootCall<K extends keyof BootCalls>(name: K): BootCalls[K] | undefined {
  const p = started[name];
  delete started[name];
  return p as BootCalls[K] | undefined;
}
