import { z } from 'zod';
import { defineCall } from './envelope.ts';
import { OPS_PREFIX } from './ops.ts';
import { LAUNCH_URL_MAX } from '../domain/launch-url.ts';

/**
 * Game providers of the merchant in the operator console (/ops/providers): the connection the
 * launch and the seamless-wallet API use (`vendor_accounts`). Players see a provider's games only
 * while it is connected (the house provider always). Reading: `games.read`; changing:
 * `providers.manage`. Every change is audited and announced (`system.changed`, part `games`).
 */

/**
 * `house`: the built-in provider (always connected, not editable); `connected`: connected by an
 * operator; `simulated`: played by the vendor simulator (development); `disconnected`: it was
 * connected and was switched off; `not_connected`: never connected.
 */
export const PROVIDER_STATES = ['house', 'connected', 'simulated', 'disconnected', 'not_connected'] as const;
export type ProviderState = (typeof PROVIDER_STATES)[number];

const ZVendorCode = z.string().trim().regex(/^[A-Za-z0-9_]{1,32}$/, 'a vendor code');

export const ZOpsProvider = z.object({
  vendor: z.string(),
  displayName: z.string(),
  /** The product lines it has games in (RNG, LIVE, ...). */
  gameTypes: z.array(z.string()),
  /** Its games in the merchant's catalogue, and how many of them are hot. */
  games: z.number().int(),
  hotGames: z.number().int(),
  state: z.enum(PROVIDER_STATES),
  /** Where launches go (null: never connected). The signing secret is never sent again after it was made. */
  launchUrl: z.string().nullable(),
  /** When the current signing secret was made (null: not made from the console). */
  secretSetAt: z.string().nullable(),
  /** When the connection last changed from the console. */
  changedAt: z.string().nullable(),
  /** Why it was disconnected (state `disconnected`). */
  disconnectReason: z.string().nullable(),
});
export type TOpsProvider = z.infer<typeof ZOpsProvider>;

export const ZOpsProviders = z.object({
  list: z.array(ZOpsProvider),
  /** Launch URLs must be https here (production); a development server also takes http. */
  httpsOnly: z.boolean(),
});

/** Connect a provider, or change the launch URL of one connected from the console. */
export const ZOpsProviderConnectBody = z.object({
  vendor: ZVendorCode,
  /** Checked by the server with launchUrlProblem (https in production). */
  launchUrl: z.string().trim().min(1).max(LAUNCH_URL_MAX),
}).strict();
export const ZOpsProviderSecretBody = z.object({ vendor: ZVendorCode }).strict();
export const ZOpsProviderDisconnectBody = z.object({ vendor: ZVendorCode, reason: z.string().trim().min(2).max(500) }).strict();

/**
 * `secret`: the new signing secret of the seamless-wallet API (HMAC-SHA256 key, 64 hex digits), in
 * this answer only; null when the connection kept its secret (a launch URL change).
 */
export const ZOpsProviderConnected = z.object({ provider: ZOpsProvider, secret: z.string().nullable() });
export const ZOpsProviderRotated = z.object({ provider: ZOpsProvider, secret: z.string() });

const p = (s: string) => `${OPS_PREFIX}${s}`;

export const opsProviderCalls = {
  providers: defineCall({ method: 'GET', path: p('/providers'), auth: true, query: z.object({}).strict(), value: ZOpsProviders }),
  /**
   * Connect (a provider not connected, disconnected, or played by the simulator: a new secret is
   * made), or change the launch URL of a provider connected from the console (its secret is kept).
   */
  connect: defineCall({ method: 'POST', path: p('/providers/connect'), auth: true, body: ZOpsProviderConnectBody, value: ZOpsProviderConnected }),
  /** A new signing secret for a connected provider: the old one stops working (within seconds on every node). */
  rotateSecret: defineCall({ method: 'POST', path: p('/providers/secret'), auth: true, body: ZOpsProviderSecretBody, value: ZOpsProviderRotated }),
  /** Disconnect: its games leave the lobby, launches and wallet calls are refused. */
  disconnect: defineCall({ method: 'POST', path: p('/providers/disconnect'), auth: true, body: ZOpsProviderDisconnectBody, value: ZOpsProvider }),
};
