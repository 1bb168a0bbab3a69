import { z } from 'zod';

const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  /** Real PostgreSQL; when absent, PGlite under DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  /**
   * Connections of this node's PostgreSQL pool, shared by HTTP requests, socket handshakes, use cases
   * and jobs (the outbox relay has 2 more of its own, the bet stream 1). Every node opens up to this
   * many: keep nodes x (DB_POOL_SIZE + 3) under the server's max_connections. Unused on PGlite.
   */
  DB_POOL_SIZE: z.coerce.number().int().min(2).max(500).default(20),
  DATA_DIR: z.string().default('./.data'),
  /** Redis Streams bus and Socket.IO adapter; when absent, the in-process bus. */
  REDIS_URL: z.string().url().optional(),
  /** Stream name on Redis, so test runs can share one Redis without crossing. */
  BUS_STREAM: z.string().default('portal:events'),
  NODE_ID: z.string().default(`node-${process.pid}`),
  /** Trust X-Forwarded-For from this many proxies (nginx in the scaled deployment). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(5).default(0),
  /** The proxy's country header (ISO alpha-2) used for region blocking, read only when TRUST_PROXY > 0. */
  REGION_HEADER: z.string().regex(/^[A-Za-z0-9-]{1,64}$/).default('cf-ipcountry'),
  /** Serve the built client from here when it exists. */
  CLIENT_DIST: z.string().default('client/dist'),
  /** How long the outbox keeps published events for reconnect catch-up. */
  OUTBOX_RETENTION_HOURS: z.coerce.number().positive().default(24),
  RELAY_POLL_MS: z.coerce.number().int().min(1).max(5000).default(25),
  /**
   * Under load the relay starts a pass at most this often; the commits of one gap share its one
   * transaction. After a quiet spell a commit is relayed at once. 10 ms: half the relay transactions of
   * 5 ms at 1,000 events/s (PostgreSQL's CPU in the bench's paced phase 18-25% of a core against 23-27%),
   * for up to 5 ms more commit-to-client latency under load (README, Performance).
   */
  RELAY_MIN_GAP_MS: z.coerce.number().int().min(0).max(1000).default(10),
  /**
   * How often each open console socket checks that its operator session still holds (not idled out, not
   * ended by another process such as `npm run ops:reset-operator`); one that does not is closed.
   */
  OPS_SOCKET_RECHECK_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /**
   * GET /metrics: with a token, readable by `Authorization: Bearer <token>` from anywhere; without one,
   * only from this machine's loopback and not through a proxy (README, "Observability").
   */
  METRICS_TOKEN: z.string().min(16).max(256).optional(),
  /**
   * Carry the X-Request-Id of each HTTP request into the events its transactions write (envelope
   * `requestId`). It needs AsyncLocalStorage, whose hooks cost every promise of the process (measured:
   * about +25 % server CPU per realtime event, +30 us per HTTP request), so production has it off unless
   * set to 'on'; elsewhere it is on. The id is echoed and logged either way.
   */
  REQUEST_ID_IN_EVENTS: z.enum(['on', 'off']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * 'demo' seeds the demo merchant with accounts whose password is known ('{secret}'): the default
   * outside production, refused in production. Production defaults to 'none' (see assertSafeConfig).
   */
  SEED: z.enum(['demo', 'none']).optional(),
  /** With SEED=demo: 'full' loads infra/seed/catalogue.json (about 10,500 games) on first start; 'small' keeps the demo's few hundred. */
  SEED_CATALOGUE: z.enum(['full', 'small']).default('full'),
  /** E-mail over SMTP, e.g. smtp://user:pass@mail.example:587; without it e-mail goes to the dev sink (not in production). */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('LuckyPeso <no-reply@luckypeso.example>'),
  /** SMS over an HTTP gateway (see notify/notifier.ts createHttpSms); without it SMS goes to the dev sink (not in production: 503). */
  SMS_GATEWAY_URL: z.string().url().optional(),
  /** Bearer token for SMS_GATEWAY_URL; never commit it. */
  SMS_GATEWAY_TOKEN: z.string().min(1).optional(),
  /** Sender name passed to the SMS gateway. */
  SMS_SENDER: z.string().min(1).max(11).optional(),
  /** argon2id hashes allowed at once (and waiting) before logins get 429. */
  /** The built-in house provider's signing secret; without it one is made at first start and kept in the database. */
  HOUSE_VENDOR_SECRET: z.string().min(32).optional(),
  /** Where the house game server reaches the wallet API; default: this node's own loopback address after listen. */
  HOUSE_WALLET_URL: z.string().url().optional(),
  /**
   * The vendor simulator (gateway/src/vendor-sim, its own process): its public URL (launch pages) and
   * the master secret each simulated vendor's signing secret is derived from. Both or neither; `npm start`
   * sets them in development. Production runs it only when both are set explicitly.
   */
  VENDOR_SIM_URL: z.string().url().optional(),
  VENDOR_SIM_SECRET: z.string().min(32).optional(),
  HASH_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** Social sign-in: the OpenID Connect issuer (discovered lazily); without it and OIDC_CLIENT_ID the button is hidden. */
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  /** Without a secret the client is public (PKCE only). */
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_PROVIDER_NAME: z.string().min(1).max(40).default('Google'),
  /** Public origin for the redirect_uri (behind proxies); default: the request's own origin. */
  OIDC_REDIRECT_BASE: z.string().url().optional(),
  /** HMAC-SHA256 secret of the built-in payment simulator's callbacks; generated per process when unset (set it for several nodes). Development only: refused in production. */
  PAYMENT_SIM_SECRET: z.string().min(16).optional(),
});
export type Config = Omit<z.infer<typeof ZEnv>, 'SEED' | 'REQUEST_ID_IN_EVENTS'> & { SEED: 'demo' | 'none'; REQUEST_ID_IN_EVENTS: 'on' | 'off'; isProduction: boolean };

/**
 * Settings a production node must never run with; thrown at start (loadConfig and createPortal both
 * check, so a config built by hand cannot slip past). The demo seed creates ops01, agent01 and
 * player01 with the published password '{secret}': whoever logs in first would own the back office.
 * The payment simulator credits any order whose Pay button is pressed.
 */
export function assertSafeConfig(config: Pick<Config, 'isProduction' | 'SEED' | 'PAYMENT_SIM_SECRET'> & Partial<Pick<Config, 'VENDOR_SIM_URL' | 'VENDOR_SIM_SECRET'>>): void {
  if (!config.VENDOR_SIM_URL !== !config.VENDOR_SIM_SECRET) {
    throw new Error('VENDOR_SIM_URL and VENDOR_SIM_SECRET go together: set both to connect the catalogue vendors to the vendor simulator, or neither.');
  }
  if (config.isProduction && config.SEED === 'demo') {
    throw new Error(
      'SEED=demo is refused in production: it creates back-office and member accounts with a published password. ' +
        'Unset SEED (production defaults to none), then create the merchant and the first operator with ' +
        '`npm run merchant:create` and `npm run ops:create-operator` (README.md, "Development mode (the default) and production mode").',
    );
  }
  if (config.isProduction && config.PAYMENT_SIM_SECRET) {
    throw new Error(
      'PAYMENT_SIM_SECRET is refused in production: the payment simulator credits whoever presses Pay and is a development helper only. ' +
        'Unset it; production takes deposits through real providers and manual bank deposits.',
    );
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable counts as unset (`DATABASE_URL= npm start` runs on PGlite).
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZEnv.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid environment:\n${lines}`);
  }
  const isProduction = parsed.data.NODE_ENV === 'production';
  const config: Config = {
    ...parsed.data, SEED: parsed.data.SEED ?? (isProduction ? 'none' : 'demo'), REQUEST_ID_IN_EVENTS: parsed.data.REQUEST_ID_IN_EVENTS ?? (isProduction ? 'off' : 'on'), isProduction,
  };
  assertSafeConfig(config);
  return config;
}
