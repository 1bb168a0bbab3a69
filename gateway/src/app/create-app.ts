import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { pino, type Logger } from 'pino';
import { assertSafeConfig, type Config } from './config.ts';
import { AppError, ErrorCode } from './errors.ts';
import { authCalls } from '@portal/contracts/api/auth';
import { RELAY_ALIASES } from '@portal/contracts/api/envelope';
import { errorBody, errorHandler, refuseNulInBody, refuseNulInUrl, sendError } from './http.ts';
import { notFoundOrNotAllowed } from './method-not-allowed.ts';
import { assertPasswordChanged } from '../modules/auth/password-change-gate.ts';
import { builtClient } from './static-files.ts';
import { securityHeaders, styleHash } from './security-headers.ts';
import { createPgDb, createPgliteDb, type Db } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import { createMemoryBus, type EventBus } from '../bus/bus.ts';
import { onLocalCommit } from '../bus/outbox.ts';
import proxyaddr from 'proxy-addr';
import { createBootCache } from '../modules/boot-cache/boot-cache.ts';
import { createRedisBus, createRedisClient } from '../bus/redis-bus.ts';
import { pruneOutbox, startRelay } from '../bus/relay.ts';
import { createRealtime } from '../realtime/realtime.ts';
import { mountObservability, observeFastPath, observeHttp } from '../obs/observability.ts';
import { mountOpenApi } from '../obs/openapi.ts';
import { createMerchantDirectory } from '../modules/merchants/merchant-directory.ts';
import { createSessionStore } from '../modules/sessions/session-store.ts';
import { assertSystemOpen, mountSystemRoutes } from '../modules/system/system-routes.ts';
import { mountContentRoutes } from '../modules/content/content-routes.ts';
import { mountContentOps } from '../modules/content/content-ops-routes.ts';
import { registerContentJobs } from '../modules/content/content-ops.ts';
import { mountGameRoutes } from '../modules/games/games-routes.ts';
import { mountSvgArt } from '../modules/assets/svg-art.ts';
import { mountDevRoutes } from '../modules/dev/dev-routes.ts';
import { createDevSink } from '../modules/dev/dev-sink.ts';
import { mountDevTap } from '../modules/dev/dev-tap.ts';
import { DEMO_VN, seedDemo } from '../db/seed.ts';
import { LIMITS } from '@portal/contracts/domain/constants';
import { createPasswordHasher } from '../modules/auth/password-hasher.ts';
import { createRateLimiter } from '../modules/auth/rate-limit.ts';
import { createCaptchas, createSliderBotChecker } from '../modules/auth/challenges.ts';
import { createSmsCodes } from '../modules/auth/sms-codes.ts';
import { createAccounts } from '../modules/auth/accounts-service.ts';
import { mountAuthRoutes } from '../modules/auth/auth-routes.ts';
import { createOidc, oidcSettingsFrom } from '../modules/oidc/oidc-service.ts';
import { mountOidcRoutes } from '../modules/oidc/oidc-routes.ts';
import { createCashierModule } from '../modules/cashier/cashier-module.ts';
import { createJobQueue } from '../jobs/create-job-queue.ts';
import { isTrialType } from '@portal/contracts/domain/member';
import { createBetStream } from '../modules/engagement/bet-stream.ts';
import { createPromotions, registerPromotionJobs, seedDemoPromotions } from '../modules/promotions/promotions-service.ts';
import { mountPromotionOps, mountPromotionRoutes } from '../modules/promotions/promotions-routes.ts';
import { registerPromotionDropJobs } from '../modules/promotions/promotion-drops.ts';
import { createMissions, seedDemoMissions } from '../modules/missions/missions-service.ts';
import { mountMissionOps, mountMissionRoutes } from '../modules/missions/missions-routes.ts';
import { SIM_PAGE_STYLE } from '../modules/cashier/payment-provider.ts';
import { createVendorWallet } from '../modules/provider/vendor-wallet.ts';
import { createPoints, seedDemoPointRewards } from '../modules/points/points-service.ts';
import { mountPointOps, mountPointRoutes } from '../modules/points/points-routes.ts';
import { createVendorApi, ensureHouseVendor, isVendorPath, mountLaunch } from '../modules/provider/vendor-routes.ts';
import { assertAllowedWhenExcluded } from '../modules/rg/restricted-session.ts';
import { createFamily } from '../modules/rg/family.ts';
import { createRestricted, registerRestrictedJobs } from '../modules/rg/restricted.ts';
import { createRg, registerRgJobs } from '../modules/rg/rg-service.ts';
import { mountRgOps, mountRgRoutes } from '../modules/rg/rg-routes.ts';
import { createHouseModule } from '../modules/house/house-module.ts';
import { mountRoomList } from '../modules/house/room-list.ts';
import { ensureSimulatedVendors } from '../modules/provider/sim-vendors.ts';
import { mountBetRoutes } from '../modules/bets/bets-routes.ts';
import { mountAgentRoutes } from '../modules/agents/agents-routes.ts';
import { createAgentSettlement } from '../modules/agents/settlement.ts';
import { registerSettlementJobs } from '../modules/agents/settlement-jobs.ts';
import { mountAgentDisputeOps } from '../modules/agents/disputes.ts';
import { registerTeamRollupJob } from '../modules/agents/team-stats.ts';
import { mountAgentReportRoutes } from '../modules/agents/reports-routes.ts';
import { createFeedback } from '../modules/feedback/feedback-service.ts';
import { mountFeedbackOps, mountFeedbackRoutes } from '../modules/feedback/feedback-routes.ts';
import { createChat } from '../modules/chat/chat-service.ts';
import { mountChatOps, mountChatRoutes } from '../modules/chat/chat-routes.ts';
import { mountReferralRoutes } from '../modules/referral/referral-routes.ts';
import { mountProfitRoutes } from '../modules/profit/profit-routes.ts';
import { createRedEnvelopes, registerRedEnvelopeJobs } from '../modules/red-envelopes/red-envelopes-service.ts';
import { mountRedEnvelopeOps, mountRedEnvelopeRoutes } from '../modules/red-envelopes/red-envelopes-routes.ts';
import { socketGrab } from '../modules/red-envelopes/red-envelopes-socket.ts';
import { createDevMailer, createDevSms, createHttpSms, createMissingMailer, createMissingSms, createSmtpMailer, warnAboutMissingProviders, type Mailer, type SmsProvider } from '../modules/notify/notifier.ts';

export type Portal = Awaited<ReturnType<typeof createPortal>>;

const BEARER = /^Bearer ([A-Za-z0-9_-]{20,128})$/;

/**
 * What SEED=demo writes on first start (each step leaves an existing merchant's data as it is). The
 * test harness runs it once per run into a snapshot (testing/pglite-snapshot.ts, fresh-database.ts),
 * so test portals start already seeded.
 */
export async function seedDemoData(db: Db, config: Pick<Config, 'SEED_CATALOGUE' | 'NODE_ENV'>) {
  await seedDemo(db, { catalogue: config.SEED_CATALOGUE });
  // Both demo merchants, each in its own currency (LuckyDong's rewards in đồng).
  for (const merchant of ['DEMO', DEMO_VN.code]) {
    await seedDemoPointRewards(db, merchant);
    await seedDemoPromotions(db, merchant);
    // Not under NODE_ENV=test: demo missions would announce mission.progress on every sign-in, deposit and
    // bet of the demo merchant, and the suites assert those event streams exactly (missions.test.ts seeds them itself).
    if (config.NODE_ENV !== 'test') await seedDemoMissions(db, merchant);
  }
}

/** Build the whole gateway without listening, so tests start it on an ephemeral port. */
export async function createPortal(config: Config, opts: { db?: Db; log?: Logger; bus?: EventBus } = {}) {
  assertSafeConfig(config);
  const log = opts.log ?? pino({ level: config.LOG_LEVEL, base: { node: config.NODE_ID } });
  const db = opts.db ?? (config.DATABASE_URL ? createPgDb(config.DATABASE_URL, config.DB_POOL_SIZE) : await createPgliteDb(config.DATA_DIR === ':memory:' ? null : config.DATA_DIR));
  await migrate(db);
  if (config.SEED === 'demo') await seedDemoData(db, config);
  if (!(await db.query('SELECT 1 FROM merchants LIMIT 1')).rows.length) {
    log.warn('no merchant yet: every call answers UNKNOWN_MERCHANT until one exists (npm run merchant:create, then npm run ops:create-operator; see README.md)');
  }

  // A bus passed in (two nodes in one test process sharing the in-process bus) is started and closed by its owner.
  const bus: EventBus = opts.bus ?? (config.REDIS_URL ? createRedisBus(config.REDIS_URL, config.BUS_STREAM, log) : createMemoryBus());
  if (!opts.bus) await bus.start();
  const adapterClient = config.REDIS_URL ? createRedisClient(config.REDIS_URL) : null;
  if (adapterClient) {
    // The Streams adapter disconnects its own duplicated readers on close without handling the promise;
    // a closed reader then rejects into nowhere. Its readers are ours to quiet.
    const duplicate = adapterClient.duplicate.bind(adapterClient);
    adapterClient.duplicate = ((...args: Parameters<typeof duplicate>) => {
      const c = duplicate(...args);
      const disconnect = c.disconnect.bind(c);
      c.disconnect = () => disconnect().catch(() => undefined);
      return c;
    }) as typeof adapterClient.duplicate;
  }
  if (adapterClient) {
    adapterClient.on('error', (err) => log.warn({ err }, 'redis adapter client error'));
    await adapterClient.connect();
  }

  const merchants = createMerchantDirectory(db);
  // The bootstrap calls answer from memory; what a merchant's visitors are shown is dropped when it
  // changes: at once on this node after its own commit, and on every node from the bus.
  const bootCache = createBootCache({ checkResponses: !config.isProduction });
  const applyContentEvents = (events: Parameters<typeof bootCache.applyEvents>[0]) => {
    if (bootCache.applyEvents(events)) merchants.invalidate();
  };
  const stopLocalInvalidation = onLocalCommit(db, applyContentEvents);
  const stopBusInvalidation = bus.subscribe(applyContentEvents);
  const sessions = createSessionStore(db);
  const sink = createDevSink();
  const hasher = createPasswordHasher({ concurrency: config.HASH_CONCURRENCY });
  const limiter = createRateLimiter(db);
  const captchas = createCaptchas(db);
  const bot = createSliderBotChecker(db);
  // Production has no dev sink: without a provider every send is refused with 503 PROVIDER_UNAVAILABLE.
  const smsProvider: SmsProvider = config.SMS_GATEWAY_URL
    ? createHttpSms({ url: config.SMS_GATEWAY_URL, token: config.SMS_GATEWAY_TOKEN, sender: config.SMS_SENDER, log })
    : config.isProduction ? createMissingSms() : createDevSms(sink, log);
  const mailer: Mailer = config.SMTP_URL
    ? createSmtpMailer(config.SMTP_URL, config.MAIL_FROM, config.isProduction ? null : sink, log)
    : config.isProduction ? createMissingMailer() : createDevMailer(sink, log);
  if (config.isProduction) warnAboutMissingProviders(await merchants.all(), { sms: smsProvider.isAvailable, mail: mailer.isAvailable }, log);
  const sms = createSmsCodes(db, limiter, smsProvider);
  // Sockets exist once the HTTP server does; accounts reach them through this late-bound hook.
  let disconnectMember: (memberId: number) => Promise<void> = async () => undefined;
  const accounts = createAccounts({ db, sessions, hasher, limiter, captchas, bot, sms, mailer, disconnectMember: (id) => disconnectMember(id) });
  const cashier = await createCashierModule({ config, db, log, hasher, limiter, merchants, accounts });
  // Scheduled work (auto-receive; settlements to come) runs on the job queue, once per period across nodes.
  const jobs = createJobQueue({ db, log, databaseUrl: config.DATABASE_URL });
  cashier.registerJobs(jobs);
  const agentSettlement = createAgentSettlement({ db, merchants });
  registerSettlementJobs(jobs, agentSettlement, log);
  registerTeamRollupJob(jobs, db);
  const rg = createRg({ db, jobs, disconnectMember: (id) => disconnectMember(id) });
  registerRgJobs(jobs, rg);
  registerContentJobs(jobs, db);
  // Facts of play (bets, wins, rollbacks) for the modules that follow it: modules register consumers
  // here before it starts (gateway/src/modules/engagement/bet-stream.ts, migration 044).
  // On PostgreSQL its drain has a connection of its own (as the relay has), so a pass never queues
  // behind the very vendor calls it follows; its writes still count as this node's (onLocalCommit).
  const betStreamDb = config.DATABASE_URL && !opts.db ? createPgDb(config.DATABASE_URL, 1, db) : db;
  const betStream = createBetStream({ db: betStreamDb, log, pollMs: 250 });
  // Promotions (issue 14): wagering follows the bet stream; the first deposit bonus is granted in the
  // deposit's paid transaction; rebates, bonus expiry and raffle draws run on the job queue.
  // Red envelopes before promotions: a promotion may drop an envelope to its participants (promotion-drops.ts).
  const envelopes = createRedEnvelopes({ db, jobs });
  registerRedEnvelopeJobs(jobs, envelopes);
  const promos = createPromotions({ db, merchants, jobs, envelopes });
  if (promos.drops) registerPromotionDropJobs(jobs, promos.drops);
  betStream.register(promos.consumer);
  cashier.deposits.onPaid((tx, d) => promos.onDepositPaid(tx, d));
  registerPromotionJobs(jobs, promos, db);
  // Missions and leaderboard (issue 14): bets by the bet stream, deposits and sign-ins in their own transactions.
  const missions = createMissions({ db });
  betStream.register(missions.consumer);
  cashier.deposits.onPaid((tx, d) => missions.onDepositPaid(tx, d));
  sessions.onCreated((tx, s) => missions.onSessionCreated(tx, s));
  const rgFamily = createFamily({ db, rg });
  const rgRestricted = createRestricted({ db, jobs, rg });
  registerRestrictedJobs(jobs, rgRestricted);
  // Points mall (issue 14): points earned from the bet stream; redeem and convert under the transaction password.
  const points = createPoints({ db, verifyWithdrawPassword: cashier.withdrawals.verifyWithdrawPassword });
  betStream.register(points.consumer);
  const vendorWallet = createVendorWallet(db);
  await ensureHouseVendor(db, merchants, config.HOUSE_VENDOR_SECRET);
  const simVendors = await ensureSimulatedVendors(
    db, merchants, config.VENDOR_SIM_URL && config.VENDOR_SIM_SECRET ? { url: config.VENDOR_SIM_URL, secret: config.VENDOR_SIM_SECRET } : null);
  if (simVendors > 0) log.info({ vendors: simVendors, url: config.VENDOR_SIM_URL }, 'catalogue vendors connected to the vendor simulator');
  const checkResponses = !config.isProduction;
  const house = await createHouseModule({ db, merchants, log, walletUrl: config.HOUSE_WALLET_URL, checkResponses });
  const routeOpts = { checkResponses };

  const app: Express = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  // The visitor's country only from a proxy we trust (otherwise anyone could send the header).
  const regionHeader = config.TRUST_PROXY > 0 ? config.REGION_HEADER.toLowerCase() : null;
  const regionOf = (req: Pick<IncomingMessage, 'headers'>): string | null => {
    if (!regionHeader) return null;
    const v = req.headers[regionHeader];
    return typeof v === 'string' && /^[A-Za-z]{2}$/.test(v) ? v.toUpperCase() : null;
  };
  app.set('query parser', 'simple');
  app.use(observeHttp(log, { idInEvents: config.REQUEST_ID_IN_EVENTS === 'on' }));
  const headerMiddleware = securityHeaders({ isProduction: config.isProduction, styleHashes: [styleHash(SIM_PAGE_STYLE)] });
  app.use(headerMiddleware);
  app.use(refuseNulInUrl);

  // /healthz (liveness), /readyz (readiness), /metrics; GET /wps/openapi.json (before the API router's merchant checks).
  mountObservability(app, { db, bus, relay: { isRunning: () => relay.isRunning() }, nodeId: config.NODE_ID, isStopping: () => stopped, log, metricsToken: config.METRICS_TOKEN });
  mountOpenApi(app, { isProduction: config.isProduction });
  mountSvgArt(app);

  const api = express.Router();
  // The API's prefixes (the spec's /wps, /lgw and /lotto/lgw paths): anything under them it does not serve
  // is a 4xx envelope, never the page.
  api.use((req: Request, _res: Response, next: NextFunction) => (/^\/(wps|lgw|lotto\/lgw)(\/|$)/.test(req.path) ? next() : next('router')));
  // A relay call's second name (contracts RELAY_ALIASES) is routed as the name it stands for.
  api.use((req: Request, _res: Response, next: NextFunction) => {
    const m = /^\/wps\/relay\/([A-Za-z0-9_]+)(?=\?|$)/.exec(req.url);
    const to = m && Object.hasOwn(RELAY_ALIASES, m[1]!) ? RELAY_ALIASES[m[1]!] : undefined;
    if (to) req.url = `/wps/relay/${to}${req.url.slice(m![0].length)}`;
    next();
  });
  api.use(express.json({ limit: LIMITS.MAX_BODY_BYTES, strict: true, type: ['application/json', 'application/*+json'] }));
  // The forgot-password call is a form POST in the spec (section 7: username, email): a plain HTML form's
  // body is read too (flat string fields only), and validated like the JSON one.
  api.use(authCalls.forgotByEmail.path, express.urlencoded({ extended: false, limit: LIMITS.MAX_BODY_BYTES, parameterLimit: 20 }));
  api.use(refuseNulInBody);
  api.use(async (req: Request, _res: Response, next: NextFunction) => {
    try {
      const header = req.headers['x-merchant-code'];
      const merchant = await merchants.resolve({ host: req.hostname, code: typeof header === 'string' ? header : undefined });
      if (!merchant) throw new AppError(ErrorCode.UNKNOWN_MERCHANT);
      const auth = req.headers.authorization;
      const token = auth ? BEARER.exec(auth)?.[1] ?? null : null;
      const session = token ? await sessions.resolve(token) : null;
      req.ctx = {
        merchant,
        ip: req.ip ?? req.socket.remoteAddress ?? '',
        region: regionOf(req),
        // A trial (free play) session lives only while the merchant offers free play: switched off, it is
        // no session (401, the page signs it out), not one that outlives the switch.
        session: session && session.merchantCode === merchant.code && (merchant.modules.FREEPLAY3 || !isTrialType(session.memberType, merchant.trialTypes)) ? session : null,
        token,
      };
      // Maintenance and region restriction close everything but system and dev calls, and the page's
      // reading of its kept session (a page reloaded during maintenance read 503 as "no session" and showed
      // the player signed out once maintenance ended; the token is all it gets, every other call stays closed).
      const isOpenPath = req.path.startsWith('/wps/system/') || req.path.startsWith('/wps/dev/')
        || (req.method === 'GET' && req.path === authCalls.restoreSession.path);
      if (!isOpenPath) assertSystemOpen(merchant, req.ctx.ip, req.ctx.region);
      // Responsible gaming: an excluded player's session is a restricted one (withdraw, RG page; RG_EXCLUDED elsewhere).
      assertAllowedWhenExcluded(req.method, req.path, req.ctx.session?.rgExclusion);
      // A session whose password must change first: reads, the change and signing out only.
      assertPasswordChanged(req.method, req.path, req.ctx.session);
      next();
    } catch (err) {
      next(err);
    }
  });
  const apiApp = api as unknown as Express;
  mountSystemRoutes(apiApp, db, bootCache);
  mountContentRoutes(apiApp, db, bootCache, routeOpts);
  mountGameRoutes(apiApp, db, bootCache, routeOpts);
  // GLS2_roomList: the lobby of the house's live and card tables.
  mountRoomList(apiApp, db, routeOpts);
  mountAuthRoutes(apiApp, { accounts, captchas, bot, sms, sessions, isProduction: config.isProduction, bootCache }, routeOpts);
  mountOidcRoutes(apiApp, createOidc({ db, accounts, limiter, settings: oidcSettingsFrom(config), log }), { ...routeOpts, isProduction: config.isProduction });
  // Before the back office router (its catch-all answers NOT_FOUND).
  mountContentOps(app, { db, merchants, operators: cashier.operators, checkResponses, jobs });
  mountAgentDisputeOps(app, { db, merchants, operators: cashier.operators, checkResponses });
  mountRgOps(app, { db, rg, merchants, operators: cashier.operators, family: rgFamily, restricted: rgRestricted, checkResponses });
  const feedback = createFeedback(db);
  mountFeedbackOps(app, { db, feedback, merchants, operators: cashier.operators, checkResponses });
  const chat = createChat(db);
  mountChatOps(app, { db, chat, merchants, operators: cashier.operators, checkResponses });
  mountPointOps(app, { db, points, merchants, operators: cashier.operators, checkResponses });
  mountRedEnvelopeOps(app, { db, envelopes, merchants, operators: cashier.operators, checkResponses });
  mountPromotionOps(app, { db, promos, merchants, operators: cashier.operators });
  mountMissionOps(app, { db, missions, merchants, operators: cashier.operators });
  cashier.mount(apiApp, app, { ...routeOpts, regionHeader, rg, providers: { sms: smsProvider.isAvailable, mail: mailer.isAvailable } });
  house.mount(app);
  mountLaunch(apiApp, { db, wallet: vendorWallet, checkResponses, isProduction: config.isProduction });
  mountBetRoutes(apiApp, db, routeOpts);
  mountRgRoutes(apiApp, { rg, family: rgFamily, limiter }, routeOpts);
  mountFeedbackRoutes(apiApp, { feedback }, routeOpts);
  mountChatRoutes(apiApp, { chat }, routeOpts);
  mountReferralRoutes(apiApp, { db, isProduction: config.isProduction }, routeOpts);
  mountProfitRoutes(apiApp, db, routeOpts);
  mountPromotionRoutes(apiApp, { promos }, routeOpts);
  mountMissionRoutes(apiApp, { missions }, routeOpts);
  mountRedEnvelopeRoutes(apiApp, { envelopes }, routeOpts);
  mountPointRoutes(apiApp, { points }, routeOpts);
  if (!config.isProduction) mountDevRoutes(apiApp, { db, sink, merchants, sessions, accounts, hasher, captchas, bot });
  // After the dev routes: the agents' dev helper sits behind their /wps/dev guard.
  mountAgentRoutes(apiApp, { db, isProduction: config.isProduction, settlement: agentSettlement }, routeOpts);
  mountAgentReportRoutes(apiApp, { db, hasher, isProduction: config.isProduction }, routeOpts);
  // A path served with other methods: 405 with Allow; else 404.
  api.use(notFoundOrNotAllowed(api));
  app.use(api);

  // The built client, history-mode: any other GET serves index.html. Files go out precompressed
  // (brotli or gzip written by the build) with a year of caching for hashed names (static-files.ts).
  const client = builtClient(config.CLIENT_DIST);
  // Source maps are not shipped to production visitors, even from a build that has them.
  if (config.isProduction) app.use((req: Request, res: Response, next: NextFunction) => (req.path.endsWith('.map') ? sendError(res, new AppError(ErrorCode.NOT_FOUND)) : next()));
  app.use(client.files);
  // A built file that is not there (a chunk of an older build) is a 404, not the page: HTML served
  // as a script only fails later and less clearly.
  app.get('/assets/{*path}', (_req: Request, res: Response) => sendError(res, new AppError(ErrorCode.NOT_FOUND)));
  app.get('/{*path}', client.page);
  // Any other method on a page path: the envelope, like every other answer a client can meet.
  app.use((_req: Request, res: Response) => sendError(res, new AppError(ErrorCode.NOT_FOUND)));
  app.use(errorHandler(log));

  // The vendor API (server to server, two calls per game round) is served without Express: see createVendorApi.
  const vendorApi = createVendorApi({ db, merchants, wallet: vendorWallet, trustProxy: app.get('trust proxy fn') as (addr: string, i: number) => boolean, log });
  // Cache hits of the bootstrap calls are answered before Express (with the same security headers,
  // client address, host and merchant resolution); everything else goes through Express.
  const trust = app.get('trust proxy fn') as (addr: string, i: number) => boolean;
  const hostOf = (req: IncomingMessage): string | undefined => {
    // Express 5's req.hostname: X-Forwarded-Host from a trusted proxy, else Host; without the port.
    let host = req.headers['x-forwarded-host'] as string | undefined;
    if (!host || !trust(req.socket.remoteAddress ?? '', 0)) host = req.headers.host;
    else if (host.includes(',')) host = host.slice(0, host.indexOf(',')).trimEnd();
    if (!host) return undefined;
    const offset = host[0] === '[' ? host.indexOf(']') + 1 : 0;
    const colon = host.indexOf(':', offset);
    return colon !== -1 ? host.slice(0, colon) : host;
  };
  const isSecure = (req: IncomingMessage): boolean => {
    // Express 5's req.protocol === 'https'.
    const own = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
    if (!trust(req.socket.remoteAddress ?? '', 0)) return own === 'https';
    const header = (req.headers['x-forwarded-proto'] as string | undefined) ?? own;
    const comma = header.indexOf(',');
    return (comma !== -1 ? header.slice(0, comma) : header).trim() === 'https';
  };
  const fastBoot = bootCache.fastPath({
    resolveNow: (input) => merchants.resolveNow(input),
    ipOf: (req) => proxyaddr(req, trust),
    regionOf,
    hostOf,
    isSecure,
    headers: { plain: captureHeaders(headerMiddleware, false), secure: captureHeaders(headerMiddleware, true) },
  });
  const http: HttpServer = createServer((req, res) => {
    if (isVendorPath(req.url)) return vendorApi(req, res);
    // Bootstrap answers served from memory skip Express: they get their request id and latency here.
    const done = observeFastPath(req, res);
    if (fastBoot(req, res)) done();
    else app(req, res);
  });
  http.keepAliveTimeout = 65_000;
  http.on('clientError', answerClientError);
  const realtime = createRealtime(http, {
    db, bus, merchants, sessions, log, nodeId: config.NODE_ID, adapterStream: `${config.BUS_STREAM}:sio`,
    // The console's live chat socket (operator token, `chat.answer`): the merchant's `ops:{code}` audience.
    operators: cashier.operators,
    operatorRecheckMs: config.OPS_SOCKET_RECHECK_MS,
    // Red envelope grabs over the page's socket (the same grab as POST /wps/envelopes/:id/grab).
    hooks: [socketGrab({ envelopes, merchants, sessions, log, assertOpen: (m, req) => assertSystemOpen(m, proxyaddr(req, trust), regionOf(req)) })],
    ...(adapterClient ? { redisClient: adapterClient } : {}),
  });
  disconnectMember = realtime.disconnectMember;
  cashier.operators.onSessionsEnded(realtime.disconnectOperator);
  if (!config.isProduction) mountDevTap(realtime.io, bus);
  // On PostgreSQL the relay has its own small pool, so it never queues behind use-case transactions.
  const relayDb = config.DATABASE_URL ? createPgDb(config.DATABASE_URL, 2) : db;
  const relay = startRelay(relayDb, bus, log, config.RELAY_POLL_MS, config.RELAY_MIN_GAP_MS, config.NODE_ID);
  const pruneTimer = setInterval(() => {
    pruneOutbox(db, config.OUTBOX_RETENTION_HOURS).catch((err) => log.warn({ err }, 'outbox prune failed'));
    limiter.prune().catch((err) => log.warn({ err }, 'rate counter prune failed'));
  }, 3600_000);
  pruneTimer.unref();
  await jobs.start();
  betStream.start();

  let stopped = false;
  return {
    config, app, http, db, bus, log, merchants, bootCache, sessions, sink, relay, realtime, io: realtime.io, accounts, hasher, cashier, vendorWallet, house, jobs, rg, betStream, promos, missions, rgRestricted, rgFamily, envelopes,
    async listen(port = config.PORT, host = config.HOST): Promise<number> {
      await new Promise<void>((resolve, reject) => {
        http.once('error', reject);
        http.listen(port, host, () => resolve());
      });
      const addr = http.address();
      const bound = typeof addr === 'object' && addr ? addr.port : port;
      house.listening(bound);
      return bound;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(pruneTimer);
      await house.stop();
      await jobs.stop();
      await betStream.stop();
      await relay.stop();
      if (relayDb !== db) await relayDb.close();
      if (betStreamDb !== db) await betStreamDb.close();
      await realtime.close();
      stopLocalInvalidation();
      stopBusInvalidation();
      if (!opts.bus) await bus.close();
      if (adapterClient) await adapterClient.close().catch(() => undefined);
      if (!opts.db) await db.close();
    },
  };
}

/**
 * The headers a security-header middleware sets on a response (helmet's are the same on every
 * response; HSTS only on a secure request), for answers written without Express.
 */
export function captureHeaders(mw: (req: Request, res: Response, next: NextFunction) => void, secure: boolean): Array<[string, string]> {
  const headers = new Map<string, [string, string]>();
  const res = {
    setHeader(k: string, v: string | number | string[]) {
      headers.set(k.toLowerCase(), [k, Array.isArray(v) ? v.join(', ') : String(v)]);
      return res;
    },
    getHeader: (k: string) => headers.get(k.toLowerCase())?.[1],
    removeHeader: (k: string) => void headers.delete(k.toLowerCase()),
  };
  let done = false;
  mw({ secure, method: 'GET', headers: {}, url: '/' } as unknown as Request, res as unknown as Response, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error('security headers: the middleware did not finish synchronously');
  return [...headers.values()];
}

/**
 * Requests Node refuses before any handler runs (a URL or headers over its limit, a malformed request
 * line) get the envelope, not Node's empty answer; anything else just closes the socket.
 */
function answerClientError(err: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Duplex) {
  if (!socket.writable) return socket.destroy();
  const code = err.code === 'HPE_HEADER_OVERFLOW' ? ErrorCode.HEADERS_TOO_LARGE : ErrorCode.BAD_REQUEST;
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify(errorBody(new AppError(code)));
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
}
