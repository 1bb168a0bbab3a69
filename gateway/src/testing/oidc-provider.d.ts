/**
 * The few parts of oidc-provider (a devDependency that ships no types) that the test provider uses.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type ClaimsFn = (use: string, scope: string) => Promise<Record<string, unknown>> | Record<string, unknown>;
  export type Account = { accountId: string; claims: ClaimsFn };
  export type ClientMetadata = {
    client_id: string;
    client_secret?: string;
    redirect_uris: string[];
    grant_types?: string[];
    response_types?: string[];
    token_endpoint_auth_method?: string;
  };
  export type Configuration = {
    clients?: ClientMetadata[];
    findAccount?: (ctx: unknown, id: string) => Promise<Account | undefined> | Account | undefined;
    claims?: Record<string, string[] | null>;
    cookies?: { keys?: string[] };
    jwks?: { keys: Array<Record<string, unknown>> };
    features?: Record<string, { enabled: boolean }>;
    pkce?: { required?: () => boolean };
    ttl?: Record<string, number>;
    renderError?: (ctx: { type: string; body: unknown }, out: Record<string, unknown>, error: Error) => void | Promise<void>;
  };
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
