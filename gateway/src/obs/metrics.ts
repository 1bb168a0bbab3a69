import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The portal's Prometheus series (GET /metrics, see obs/observability.ts). One registry per process:
 * the modules that count (ledger, vendor wallet, login, relay, sockets) import these objects
 * directly, at the cost of one increment on their paths. Labels are bounded sets only: route
 * patterns (never raw URLs), vendor call names, error codes, node ids.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Express routes: `route` is the matched pattern (`/wps/relay/:name`-style), 'unmatched' when none matched. */
export const httpDuration = new Histogram({
  name: 'portal_http_request_duration_seconds',
  help: 'HTTP request latency by route pattern (Express routes; the vendor API has its own series)',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

/** The vendor API is served by node:http directly (vendor-routes.ts); `call` is authenticate|balance|bet|win|rollback|openapi|other. */
export const vendorDuration = new Histogram({
  name: 'portal_vendor_request_duration_seconds',
  help: 'Vendor seamless-wallet API latency by call',
  labelNames: ['call'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

/** `outcome` is 'ok' or the refusal's error code (a closed set). */
export const vendorCalls = new Counter({
  name: 'portal_vendor_calls_total',
  help: 'Vendor API calls by call and outcome (ok, or the error code of the refusal)',
  labelNames: ['call', 'outcome'] as const,
  registers: [registry],
});

/** Client calls answered on the socket (red envelope grabs): `outcome` is 'ok' or the refusal's error code (a closed set). */
export const socketCallDuration = new Histogram({
  name: 'portal_socket_call_duration_seconds',
  help: 'Socket calls (envelope:grab) by call and outcome (ok, or the error code of the answer), receipt to ack',
  labelNames: ['call', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const socketsConnected = new Gauge({
  name: 'portal_sockets_connected',
  help: 'Socket.IO connections open on this node',
  labelNames: ['node'] as const,
  registers: [registry],
});

export const eventsPublished = new Counter({
  name: 'portal_events_published_total',
  help: 'Outbox events published to the bus by the relay of this node',
  labelNames: ['node'] as const,
  registers: [registry],
});

export const eventsReceived = new Counter({
  name: 'portal_events_received_total',
  help: 'Events this node read from the bus for its sockets',
  labelNames: ['node'] as const,
  registers: [registry],
});

/** One delivery = one event sent to one socket of this node (a broadcast counts once per socket). */
export const eventsDelivered = new Counter({
  name: 'portal_events_delivered_total',
  help: 'Event deliveries to sockets of this node (one per event per socket)',
  labelNames: ['node'] as const,
  registers: [registry],
});

export const relayLag = new Histogram({
  name: 'portal_relay_lag_seconds',
  help: 'Commit-to-publish time of the oldest event of each relay pass',
  labelNames: ['node'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60],
  registers: [registry],
});

/** Read from the database at scrape time (cluster-wide figures, each node reports the same). */
export const outboxBacklog = new Gauge({
  name: 'portal_outbox_backlog',
  help: 'Committed events not yet published (rows in outbox_pending), read at scrape',
  registers: [registry],
});

export const outboxOldestPending = new Gauge({
  name: 'portal_outbox_oldest_pending_seconds',
  help: 'Age of the oldest unpublished event (0 when none), read at scrape',
  registers: [registry],
});

export const jobQueueDepth = new Gauge({
  name: 'portal_job_queue_depth',
  help: 'Jobs waiting on the job queue (due now or later), read at scrape',
  labelNames: ['state'] as const,
  registers: [registry],
});

/** Counted after commit, never for an idempotent replay. `source`: ledger (transfer, hold) or vendor (the vendor wallet's SQL). */
export const ledgerTransfers = new Counter({
  name: 'portal_ledger_transfers_total',
  help: 'Ledger transfers committed by this node (replays not counted)',
  labelNames: ['source'] as const,
  registers: [registry],
});

/** db.single on PostgreSQL (db/group-commit.ts): `how` is alone (its own transaction) or batched (committed with others). */
export const singleStatements = new Counter({
  name: 'portal_db_single_statements_total',
  help: 'One-statement transactions (db.single) run on PostgreSQL, alone or committed together with others (group commit)',
  labelNames: ['how'] as const,
  registers: [registry],
});

/** Group commit batches: `outcome` committed, or refused (PostgreSQL refused a statement; the batch's statements then ran alone). */
export const groupCommits = new Counter({
  name: 'portal_db_group_commits_total',
  help: 'Batches of one-statement transactions sent together by group commit, by outcome (committed, refused)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const loginFailures = new Counter({
  name: 'portal_login_failures_total',
  help: 'Refused logins by error code',
  labelNames: ['code'] as const,
  registers: [registry],
});

export const ready = new Gauge({
  name: 'portal_ready',
  help: '1 when the last readiness check passed, else 0',
  labelNames: ['node'] as const,
  registers: [registry],
});

const countLedgerTransfer = () => ledgerTransfers.inc({ source: 'ledger' });
/** For ledger.ts: count one committed transfer (pass to tx.afterCommit). */
export const onLedgerTransferCommitted = countLedgerTransfer;
