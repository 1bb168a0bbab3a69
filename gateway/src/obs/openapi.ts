import type { Express, Request, Response } from 'express';
import { z } from 'zod';
import type { CallDef } from '@portal/contracts/api/envelope';
import { RELAY_ALIASES, relayPath, ZErrorEnvelope } from '@portal/contracts/api/envelope';
import { ERROR_MESSAGES, ERROR_STATUS, ErrorCode } from '@portal/contracts/api/errors';
import * as agentApplications from '@portal/contracts/api/agent-applications';
import * as agentContracts from '@portal/contracts/api/agent-contracts';
import * as agentPayouts from '@portal/contracts/api/agent-payouts';
import * as agentReports from '@portal/contracts/api/agent-reports';
import * as auth from '@portal/contracts/api/auth';
import * as bets from '@portal/contracts/api/bets';
import * as cashier from '@portal/contracts/api/cashier';
import * as content from '@portal/contracts/api/content';
import * as dev from '@portal/contracts/api/dev';
import * as games from '@portal/contracts/api/games';
import * as house from '@portal/contracts/api/house';
import * as system from '@portal/contracts/api/system';
import * as vendor from '@portal/contracts/api/vendor';
import * as wallet from '@portal/contracts/api/wallet';
import * as rg from '@portal/contracts/api/rg';
import * as feedback from '@portal/contracts/api/feedback';
import * as chat from '@portal/contracts/api/chat';
import * as referral from '@portal/contracts/api/referral';
import * as profit from '@portal/contracts/api/profit';
import * as promotions from '@portal/contracts/api/promotions';
import * as missions from '@portal/contracts/api/missions';
import * as redEnvelopes from '@portal/contracts/api/red-envelopes';
import * as points from '@portal/contracts/api/points';

/** Where the document is served (GET, no session, no merchant needed). */
export const OPENAPI_PATH = '/wps/openapi.json';

type AnyCall = CallDef<z.ZodType | undefined, z.ZodType | undefined, z.ZodType>;
/** An operation of the document: a contract call, or a route mounted by hand (described here). */
type Op = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  summary?: string;
  auth: boolean;
  trial?: boolean;
  /** The envelope's message on success (CallDef okMessage). */
  okMessage?: string;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Body media type when not JSON. */
  bodyType?: string;
  /** The envelope's value on success; absent for redirects and raw answers (see response). */
  value?: z.ZodType;
  /** A non-envelope success answer, e.g. a 302. */
  response?: { status: number; description: string };
  /** Codes this call refuses with beyond the ones every call of its kind can meet. */
  refusals?: readonly ErrorCode[];
  devOnly?: boolean;
};

const isCall = (v: unknown): v is AnyCall =>
  !!v && typeof v === 'object' && typeof (v as AnyCall).method === 'string' && typeof (v as AnyCall).path === 'string' && (v as AnyCall).value instanceof z.ZodType;

/** The player API (/wps, /lgw) calls of every contract module: exported calls and objects of calls. */
export function contractCalls(): AnyCall[] {
  const modules: Record<string, unknown>[] = [agentApplications, agentContracts, agentPayouts, agentReports, auth, bets, cashier, chat, content, feedback, games, house, missions, profit, promotions, redEnvelopes, referral, rg, system, vendor, wallet];
  const out = new Map<string, AnyCall>();
  modules.push(points);
  for (const m of modules) {
    for (const v of Object.values(m)) {
      const calls = isCall(v) ? [v] : v && typeof v === 'object' ? Object.values(v).filter(isCall) : [];
      for (const c of calls) if (/^\/(wps|lgw)\//.test(c.path)) out.set(`${c.method} ${c.path}`, c);
    }
  }
  return [...out.values()];
}

/**
 * Routes under /wps mounted by hand, not from a contract call (browser redirects, provider callbacks,
 * the development tools). The route test (openapi.test.ts) fails when a mounted route is in neither list.
 */
const HAND_MOUNTED: Op[] = [
  { method: 'GET', path: OPENAPI_PATH, auth: false, summary: 'This document', response: { status: 200, description: 'OpenAPI 3.1 document (not enveloped)' } },
  { method: 'GET', path: auth.OIDC_PATHS.start, auth: false, query: auth.ZOidcStartQuery, summary: 'Social sign-in: redirect to the provider (browser navigation)',
    response: { status: 302, description: 'Redirect to the OpenID provider; on a refusal, back to the page with ?oidcError=<code>' } },
  { method: 'GET', path: auth.OIDC_PATHS.callback, auth: false, query: auth.ZOidcCallbackQuery, summary: 'Social sign-in: the provider returns here (browser navigation)',
    response: { status: 302, description: 'Back to the page with ?oidc=<one-time code> for oidcExchange, or ?oidcError=<code>' } },
  { method: 'POST', path: cashier.paymentCallbackPath(':provider'), auth: false, bodyType: 'application/octet-stream',
    summary: "Payment provider callback: the provider's own signed body (verified by the provider adapter)", value: z.unknown() },
  { method: 'POST', path: cashier.cashierCalls.confirmWithdrawal.path, auth: true, body: cashier.ZConfirmWithdrawalFields, bodyType: 'multipart/form-data',
    summary: 'Confirm receipt of a paid withdrawal (multipart form: fields and proof images)', value: cashier.cashierCalls.confirmWithdrawal.value },
  { method: 'PUT', path: feedback.FEEDBACK_PATHS.send, auth: true, body: feedback.ZFeedbackFields, bodyType: 'multipart/form-data',
    summary: 'Send feedback (multipart form: field content, at most 140 characters; up to 3 files images, png or jpg, 5 MB each, judged by their bytes)',
    value: feedback.ZFeedback, refusals: [ErrorCode.IMAGE_INVALID, ErrorCode.UNSUPPORTED_MEDIA_TYPE, ErrorCode.TOO_MANY_REQUESTS, ErrorCode.BAD_REQUEST] },
  { method: 'GET', path: feedback.FEEDBACK_PATHS.image, auth: true, summary: "One of the member's own feedback images (the image bytes, png or jpeg)",
    response: { status: 200, description: 'image/png or image/jpeg' } },
  { method: 'GET', path: content.CONTENT_IMAGE_PATH, auth: false, summary: 'An image an operator uploaded for a banner or an article (the image bytes, png, jpeg or webp)',
    response: { status: 200, description: 'image/png, image/jpeg or image/webp' } },
  // Development tools: outside production, from this machine only (README, "Development mode").
  { method: 'GET', path: '/wps/dev/botcheck/:id', auth: false, devOnly: true, summary: 'Dev: the answer of a slider bot check', value: z.unknown() },
  { method: 'GET', path: '/wps/dev/captcha/:key', auth: false, devOnly: true, summary: 'Dev: the answer of a captcha', value: z.object({ answer: z.string().nullable() }) },
  { method: 'POST', path: '/wps/dev/members', auth: false, devOnly: true, summary: 'Dev: create a test member', value: z.unknown() },
  { method: 'POST', path: '/wps/dev/withdrawals/:id/due', auth: false, devOnly: true, summary: 'Dev: make a withdrawal due for auto-receive', value: z.unknown() },
  { method: 'POST', path: '/wps/dev/members/:id/disable', auth: false, devOnly: true, summary: 'Dev: disable a test member', value: z.unknown() },
  { method: 'GET', path: '/wps/dev/outbox', auth: false, devOnly: true, query: dev.ZDevOutboxQuery, summary: 'Dev: SMS and e-mail the dev sinks captured', value: z.unknown() },
  { method: 'POST', path: '/wps/dev/replay', auth: false, devOnly: true, body: dev.ZReplayBody, summary: 'Dev: replay recorded events through the outbox', value: z.unknown() },
  { method: 'POST', path: '/wps/dev/winners', auth: false, devOnly: true, body: dev.ZDevWinnerBody, summary: 'Dev: post a winner', value: z.unknown() },
  { method: 'POST', path: '/wps/dev/merchant', auth: false, devOnly: true, summary: "Dev: change the merchant's switches (maintenance, modules, ...)", value: z.unknown() },
  { method: 'POST', path: '/wps/dev/sessions', auth: false, devOnly: true, summary: 'Dev: a session for a test account', value: z.unknown() },
  { method: 'POST', path: '/wps/dev/agent-contracts/house', auth: false, devOnly: true, summary: "Dev: the house's contract with a top agent", value: z.unknown() },
];

/** Refusals stated for particular calls (the rest follow from the call's flags, see refusalsOf). */
const CALL_REFUSALS: Record<string, readonly ErrorCode[]> = {
  [`POST ${auth.authCalls.login.path}`]: [ErrorCode.INVALID_CREDENTIALS, ErrorCode.LOGIN_LOCKED, ErrorCode.CAPTCHA_REQUIRED, ErrorCode.CAPTCHA_INVALID, ErrorCode.BOT_CHECK_REQUIRED, ErrorCode.TOO_MANY_REQUESTS],
  [`POST ${vendor.launchCall.path}`]: [ErrorCode.NOT_FOUND, ErrorCode.GAME_MAINTENANCE, ErrorCode.MODULE_DISABLED, ErrorCode.NOT_AVAILABLE],
  // Live chat: the module flag LIVECHAT3; a player's messages are rate limited.
  ...Object.fromEntries(Object.values(chat.chatCalls).map((c) => [`${c.method} ${c.path}`, [ErrorCode.MODULE_DISABLED]])),
  [`POST ${chat.chatCalls.send.path}`]: [ErrorCode.MODULE_DISABLED, ErrorCode.TOO_MANY_REQUESTS],
  // Account and betting records: the module flags TRANSREC3 and TRANSBETREPMEM3.
  [`GET ${wallet.walletCalls.records.path}`]: [ErrorCode.MODULE_DISABLED],
  [`GET ${bets.betsCalls.list.path}`]: [ErrorCode.MODULE_DISABLED],
  // Agent contracts: the module flag AGENTPOLICY3 (the spec's contract relays and the consolidated flags).
  ...Object.fromEntries([
    agentPayouts.agentPayoutCalls.relayDividend, agentPayouts.agentPayoutCalls.relayDailyWages,
    agentPayouts.agentPayoutCalls.relayHourlySalary, agentPayouts.agentPayoutCalls.relayRealtimeSalary,
    agentReports.agentReportCalls.consolidatedFunds,
  ].map((c) => [`${c.method} ${c.path}`, [ErrorCode.MODULE_DISABLED]])),
};

/** Codes any call can meet by its kind: the merchant, maintenance and region, the input's schema, the session. */
function refusalsOf(op: Op): ErrorCode[] {
  const codes = new Set<ErrorCode>([ErrorCode.UNKNOWN_MERCHANT, ErrorCode.NOT_FOUND]);
  if (!op.path.startsWith('/wps/system/') && !op.path.startsWith('/wps/dev/') && op.path !== OPENAPI_PATH) {
    codes.add(ErrorCode.MAINTENANCE);
    codes.add(ErrorCode.REGION_RESTRICTED);
  }
  if (op.query || op.body) codes.add(ErrorCode.VALIDATION);
  if (op.body && !op.bodyType) for (const c of [ErrorCode.MALFORMED_JSON, ErrorCode.PAYLOAD_TOO_LARGE, ErrorCode.UNSUPPORTED_MEDIA_TYPE]) codes.add(c);
  if (op.auth) codes.add(ErrorCode.UNAUTHORIZED);
  if (op.auth && !op.trial) codes.add(ErrorCode.TRIAL_FORBIDDEN);
  for (const c of op.refusals ?? CALL_REFUSALS[`${op.method} ${op.path}`] ?? []) codes.add(c);
  return [...codes];
}

const schemaOf = (s: z.ZodType, io: 'input' | 'output') => z.toJSONSchema(s, { io, unrepresentable: 'any' });

/** Express path `/a/:id` -> OpenAPI `/a/{id}`, with its path parameters. */
function openApiPath(p: string): { path: string; params: string[] } {
  const params: string[] = [];
  const path = p.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path, params };
}

/** Query schema -> OpenAPI query parameters (one per property of an object schema). */
function queryParams(s: z.ZodType) {
  const js = schemaOf(s, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: (js.required ?? []).includes(name), schema }));
}

function operation(op: Op) {
  const { params } = openApiPath(op.path);
  const refusals = refusalsOf(op);
  const statuses = [...new Set(refusals.map((c) => ERROR_STATUS[c]))].sort();
  const errorSchema = { allOf: [{ $ref: '#/components/schemas/ErrorEnvelope' }, { properties: { code: { enum: refusals } } }] };
  const errors = Object.fromEntries(statuses.map((status) => [String(status), {
    description: refusals.filter((c) => ERROR_STATUS[c] === status).map((c) => `${c}: ${ERROR_MESSAGES[c]}`).join('; '),
    content: { 'application/json': { schema: errorSchema } },
  }]));
  const ok = op.response
    ? { [String(op.response.status)]: { description: op.response.description } }
    : { 200: { description: 'Done', content: { 'application/json': { schema: {
      type: 'object', required: ['success'], properties: { success: { const: true }, ...(op.okMessage ? { message: { const: op.okMessage } } : {}), value: op.value ? schemaOf(op.value, 'output') : {} },
    } } } } };
  const aliases = Object.entries(RELAY_ALIASES).filter(([, to]) => relayPath(to) === op.path).map(([alias]) => relayPath(alias));
  return {
    ...(op.summary ? { summary: op.summary } : {}),
    ...(aliases.length ? { description: `Also served as ${aliases.join(', ')} (the same call).`, 'x-aliases': aliases } : {}),
    ...(op.auth ? { security: [{ bearer: [] }] } : {}),
    ...(op.devOnly ? { 'x-dev-only': true, tags: ['dev'] } : {}),
    ...(op.auth && op.trial ? { 'x-trial-allowed': true } : {}),
    parameters: [
      ...params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ...(op.query ? queryParams(op.query) : []),
      { $ref: '#/components/parameters/MerchantCode' },
      { $ref: '#/components/parameters/RequestId' },
    ],
    ...(op.body ? { requestBody: { required: true, content: { [op.bodyType ?? 'application/json']: { schema: schemaOf(op.body, 'input') } } } }
      : op.bodyType ? { requestBody: { required: true, content: { [op.bodyType]: {} } } } : {}),
    responses: { ...ok, ...errors, 500: { description: 'INTERNAL: a bug (never bad input)', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } } },
  };
}

/** Every /wps and /lgw operation the app mounts (dev tools only outside production). */
export function operations(opts: { isProduction: boolean }): Op[] {
  const fromContracts: Op[] = contractCalls()
    .filter((c) => c.path !== cashier.cashierCalls.confirmWithdrawal.path)
    .filter((c) => !(opts.isProduction && c.path.startsWith('/wps/dev/')))
    .map((c) => ({ method: c.method, path: c.path, auth: c.auth, ...(c.trial ? { trial: true } : {}), ...(c.okMessage ? { okMessage: c.okMessage } : {}), ...(c.query ? { query: c.query } : {}), ...(c.body ? { body: c.body } : {}), value: c.value,
      ...(c.path.startsWith('/wps/dev/') ? { devOnly: true } : {}) }));
  return [...fromContracts, ...HAND_MOUNTED.filter((o) => !(opts.isProduction && o.devOnly))];
}

/** The OpenAPI 3.1 document of the player API, generated from the zod contracts. */
export function openApiDocument(opts: { isProduction: boolean }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations(opts)) {
    const { path } = openApiPath(op.path);
    (paths[path] ??= {})[op.method.toLowerCase()] = operation(op);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'LuckyPeso player API',
      version: '1.0.0',
      description: 'The calls of the portal\'s web client (/wps, /lgw), generated from the zod contracts in contracts/src/api. ' +
        'Every answer is the envelope { success, code?, message?, value? }: success with the value, or a refusal { success: false, code, message, details? } ' +
        'with a 4xx status; codes are stable (contracts/src/api/errors.ts) and clients translate them. Bad input is never a 500. ' +
        'The merchant is taken from the Host (a merchant domain), else the X-Merchant-Code header, else the default merchant. ' +
        'Calls with security need `Authorization: Bearer <session token>`; a trial (free-play) session may only make the calls marked x-trial-allowed. ' +
        'X-Request-Id (up to 64 of A-Z a-z 0-9 . _ : -) is echoed, or a new one is made; realtime events caused by the call carry it as requestId. ' +
        'The vendor seamless-wallet API has its own document at /vendor/v1/openapi.json.',
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      parameters: {
        MerchantCode: { name: 'X-Merchant-Code', in: 'header', required: false, schema: { type: 'string', maxLength: 32 } },
        RequestId: { name: 'X-Request-Id', in: 'header', required: false, schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$' } },
      },
      schemas: { ErrorEnvelope: z.toJSONSchema(ZErrorEnvelope) },
    },
    paths,
  };
}

/** GET /wps/openapi.json, built once on first request. */
export function mountOpenApi(app: Express, opts: { isProduction: boolean }) {
  let doc: string | null = null;
  app.get(OPENAPI_PATH, (_req: Request, res: Response) => {
    doc ??= JSON.stringify(openApiDocument(opts));
    res.type('application/json').send(doc);
  });
}
