import { readFile } from 'node:fs/promises';
import { maskName, scaleCentavos } from '@portal/contracts/domain/money';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { hash, type Algorithm } from '@node-rs/argon2';
import { LIMITS } from '@portal/contracts/domain/constants';
import type { Db, Tx } from './db.ts';
import { importCatalogue, loadCatalogue } from '../modules/games/catalogue.ts';
import { CONTENT_SCOPES, cacheAudience } from '@portal/contracts/events/events';
import { emitEvent } from '../bus/outbox.ts';

const SEED_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../infra/seed/demo.json');
const NEWS_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../infra/seed/news.json');
type SeedArticle = Record<'en' | 'ty', { title: string; summary: string; body: string }>;

type SeedVendor = { vassalage: string; gameType: string; name: string; games: number; isGame?: string };
type Seed = {
  merchant: {
    code: string; name: string; domains: string[]; mainDomain: string; currency: string;
    modules: Record<string, boolean>; whitelabel: Record<string, string>; brand: Record<string, unknown>;
  };
  banners: Array<{ grp: string; name: string; title: string; titleTy?: string; linkageType: string | null; linkage: string | null }>;
  announcements: Array<{ kind: string; language: string; title: string; content: string; execution?: string; promotionType?: string }>;
  resources: Array<{ type: string; name: string; label: string; url: string }>;
  customerService: Array<{ csType: string; title: string; url: string }>;
  help: Array<{ anchor: string } & Record<string, [string, string] | string>>;
  vendors: SeedVendor[];
};

const WORDS_A = ['Golden', 'Lucky', 'Dragon', 'Fortune', 'Mega', 'Royal', 'Wild', 'Jungle', 'Ocean', 'Fire', 'Crazy', 'Super', 'Magic', 'Diamond', 'Neon', 'Pirate', 'Samurai', 'Aztec', 'Panda', 'Tiger'];
const WORDS_B = ['Empire', 'Riches', 'Bonanza', 'Treasure', 'Fever', 'Party', 'Legend', 'Quest', 'Spins', 'Jackpot', 'Rush', 'Kingdom', 'Gems', 'Blast', 'Wheel', 'Dream', 'Hunter', 'Carnival', 'Coins', 'Storm'];
const TYPE_NAMES: Record<string, string[]> = {
  SPORTS: ['Sportsbook', 'Live Betting', 'Virtual Football', 'Basketball Center'],
  ESPORTS: ['Esports Arena', 'MOBA League', 'Shooter Cup'],
  LIVE: ['Baccarat', 'Speed Baccarat', 'Dragon Tiger', 'Roulette', 'Sic Bo', 'Blackjack', 'Color Game', 'Fan Tan', 'Teen Patti', 'Andar Bahar'],
  LOTT: ['Lotto 6/45', 'Lotto 6/55', 'Super Lotto', 'Quick 3D', 'Keno', 'Daily 4D'],
  ELOTT: ['Fast 3', 'Pick 5', 'Lucky 10', 'Keno 80', 'Speed Lotto', 'Racing 10'],
  FISH: ['Ocean King', 'Fishing War', 'Jackpot Fishing', 'Dragon Fishing', 'Mega Fishing', 'Boom Legend', 'Happy Fishing', 'All-star Fishing'],
  PVP: ['Tongits', 'Pusoy', 'Poker King', 'Rummy', 'Teen Patti', 'Baccarat Duel', 'Niu Niu', 'Sabong Cards'],
  COCKFIGHT: ['Sabong Live', 'Derby Night'],
};
const RNG_CLASSIFY_CYCLE = [null, null, 'SC', null, 'JP', null, 'TG', null, 'AC', null, 'BG', null];

/** Deterministic game names so the same seed gives the same catalogue. */
function gameName(v: SeedVendor, i: number): string {
  if (v.gameType === 'RNG') {
    const h = (v.vassalage.charCodeAt(0) * 7 + v.vassalage.length * 13 + i * 31) % (WORDS_A.length * WORDS_B.length);
    return `${WORDS_A[h % WORDS_A.length]} ${WORDS_B[Math.floor(h / WORDS_A.length) % WORDS_B.length]}${i >= 20 ? ` ${Math.floor(i / 20) + 1}` : ''}`;
  }
  const names = TYPE_NAMES[v.gameType] ?? ['Game'];
  const base = names[i % names.length]!;
  return i >= names.length ? `${base} ${Math.floor(i / names.length) + 1}` : base;
}

export async function loadSeed(): Promise<Seed> {
  return JSON.parse(await readFile(SEED_FILE, 'utf8')) as Seed;
}

/**
 * Insert the demo merchant and its content once; a merchant that exists is left as it is.
 * `accounts: false` leaves out the demo accounts (known password): what production-mode benchmarks
 * seed by hand, since a production node refuses SEED=demo.
 */
export async function seedDemo(db: Db, opts: { catalogue?: 'full' | 'small'; accounts?: boolean } = {}): Promise<boolean> {
  const seed = await loadSeed();
  // The full catalogue (about 10,500 games) on top of the demo's own vendors; same node ids are replaced, house games kept.
  const catalogue = opts.catalogue === 'full' ? await loadCatalogue() : null;
  const m = seed.merchant;
  return db.tx(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [7_242_003]);
    const exists = await tx.query('SELECT 1 FROM merchants WHERE code = $1', [m.code]);
    if (exists.rows.length) return false;
    const hasDefault = await tx.query('SELECT 1 FROM merchants WHERE is_default');
    await tx.query(
      `INSERT INTO merchants (code, name, is_default, domains, main_domain, module_flags, whitelabel, brand, currency)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [m.code, m.name, hasDefault.rows.length === 0, m.domains, m.mainDomain, JSON.stringify(m.modules), JSON.stringify(m.whitelabel), JSON.stringify(m.brand), m.currency],
    );
    await seedContent(tx, m.code, seed);
    await seedCatalogue(tx, m.code, seed.vendors);
    if (catalogue) await importCatalogue(tx, m.code, catalogue);
    await seedWinners(tx, m.code);
    if (opts.accounts !== false) await seedAccounts(tx, m.code);
    // Gateways already running on this database learn of the new merchant and its content.
    await emitEvent(tx, m.code, cacheAudience(m.code), 'content.changed', { scopes: [...CONTENT_SCOPES] });
    return true;
  }).then(async (created) => {
    await seedSecondMerchant(db, seed, opts);
    return created;
  });
}

/**
 * The demo's second merchant (issue 13): another market on its own host name, `vn.localhost`
 * (browsers and curl resolve *.localhost to loopback without /etc/hosts; Node's resolver does not,
 * so tests send the Host header). Vietnam: VND, 18+, UTC+7; the client speaks EN and TY only, so
 * the site offers EN. Its own accounts (vnagent01, vnplayer01, operator vnops01) carry the same
 * published demo password, changed at first login.
 */
export const DEMO_VN = { code: 'DEMOVN', host: 'vn.localhost', name: 'LuckyDong' } as const;

/**
 * The demo content as LuckyDong shows it: its own name, its minimum age (18) and clock (UTC+7), EN rows only
 * (it offers no Tagalog), its currency sign, and no notice of the Philippine e-wallets. It had copied LuckyPeso's, so the
 * Vietnamese site's notice bar said "(GMT+8)" and "21 or older", and its banners "Join LuckyPeso".
 */
export function secondMerchantContent<S extends Pick<Seed, 'banners' | 'announcements'> & Partial<Pick<Seed, 'help' | 'resources' | 'customerService'>>>(seed: S): S {
  // Peso amounts at the demo rate (₱100 -> ₫50,000), as the merchant's limits and promotions are.
  const dong = (x: string) => x.replace(/₱([\d,]+)/g, (_, n: string) => `₫${scaleCentavos(Number(n.replaceAll(',', '')) * 100, 'VND').toLocaleString('en-US')}`);
  const text = (x: string) => dong(x
    .replaceAll('LuckyPeso', DEMO_VN.name)
    .replaceAll('luckypeso', DEMO_VN.name.toLowerCase())
    .replaceAll('players in the Philippines', 'players in Vietnam')
    .replaceAll('GCash, Maya or bank transfer', 'VietQR, MoMo, ZaloPay or a NAPAS bank transfer')
    .replaceAll('21 or older', '18 or older')
    .replaceAll('21+ only', '18+ only')
    .replaceAll('Monday 03:00-05:00 (GMT+8)', 'Monday 02:00-04:00 (GMT+7)'));
  return {
    ...seed,
    banners: seed.banners.map((b) => ({ ...b, title: text(b.title) })),
    announcements: seed.announcements
      .filter((a) => a.language === 'EN' && !/GCash|Maya/.test(a.title + a.content))
      .map((a) => ({ ...a, title: text(a.title), content: text(a.content) })),
    // Its own help (English only: the site is), download links and support addresses: they were LuckyPeso's.
    ...(seed.help ? { help: seed.help.map((h) => ({ anchor: h.anchor, ...(Array.isArray(h.EN) ? { EN: [text(h.EN[0]), text(h.EN[1])] as [string, string] } : {}) })) } : {}),
    ...(seed.resources ? { resources: seed.resources.map((r) => ({ ...r, url: text(r.url) })) } : {}),
    ...(seed.customerService ? { customerService: seed.customerService.map((c) => ({ ...c, url: text(c.url) })) } : {}),
  };
}

async function seedSecondMerchant(db: Db, seed: Seed, opts: { accounts?: boolean }) {
  const m = seed.merchant;
  await db.tx(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [7_242_003]);
    if ((await tx.query('SELECT 1 FROM merchants WHERE code = $1', [DEMO_VN.code])).rows.length) return;
    // A deployment that already uses the host for another merchant keeps it.
    if ((await tx.query('SELECT 1 FROM merchants, unnest(domains || main_domain) d WHERE lower(d) = $1', [DEMO_VN.host])).rows.length) return;
    const brand = {
      // its own logo (the demo art draws the name it is given; the copied brand had the LuckyPeso one)
      ...m.brand, siteName: DEMO_VN.name, logoUrl: `/img/logo.svg?n=${DEMO_VN.name}`, defaultLanguage: 'EN', supportedLanguages: ['EN'], currency: 'VND', currencySymbol: '₫', minAge: 18, gmtOffsetMinutes: 420,
    };
    await tx.query(
      `INSERT INTO merchants (code, name, is_default, domains, main_domain, module_flags, whitelabel, brand, currency, market)
       VALUES ($1, $2, false, $3, $4, $5, $6, $7, 'VND', 'VN')`,
      [DEMO_VN.code, DEMO_VN.name, [DEMO_VN.host], DEMO_VN.host, JSON.stringify(m.modules), JSON.stringify(m.whitelabel), JSON.stringify(brand)],
    );
    // No news: the seeded articles are LuckyPeso's (its sabong arena, Tagalog commentary, GMT+8).
    await seedContent(tx, DEMO_VN.code, secondMerchantContent(seed), { news: false });
    await seedCatalogue(tx, DEMO_VN.code, seed.vendors);
    await seedWinners(tx, DEMO_VN.code, 'VND');
    if (opts.accounts !== false) {
      await seedAccounts(tx, DEMO_VN.code, { agent: 'vnagent01', player: 'vnplayer01', invitation: 'VIET88' });
      await tx.query(
        `INSERT INTO operators (merchant_code, username, password_hash, roles, must_change_password) VALUES ($1, 'vnops01', $2, ARRAY['administrator'], true)`,
        [DEMO_VN.code, await hash(LIMITS.DEFAULT_PASSWORD, { algorithm: 2 as Algorithm })],
      );
    }
  });
}

async function seedContent(tx: Tx, code: string, seed: Seed, opts: { news?: boolean } = {}) {
  for (const [i, b] of seed.banners.entries()) {
    await tx.query(
      'INSERT INTO banners (merchant_code, grp, url, title, title_ty, linkage_type, linkage, sort) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      [code, b.grp, `/img/banner/${b.name}.svg?t=${encodeURIComponent(b.title)}`, b.title, b.titleTy ?? '', b.linkageType, b.linkage, i],
    );
  }
  // A TY row belongs to the EN row before it (one announcement item, see migration 053).
  let group: number | null = null;
  for (const [i, a] of seed.announcements.entries()) {
    const r: { rows: Array<{ id: string }> } = await tx.query<{ id: string }>(
      `INSERT INTO announcements (merchant_code, kind, language, title, content, promotion_type, execution, sort, start_at, group_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() - interval '1 day', $9) RETURNING id`,
      [code, a.kind, a.language, a.title, a.content, a.promotionType ?? null, a.execution ?? null, i, a.language === 'EN' ? null : group],
    );
    const id: number = Number(r.rows[0]!.id);
    if (a.language === 'EN') {
      group = id;
      await tx.query('UPDATE announcements SET group_id = id WHERE id = $1', [id]);
    } else if (group === null) await tx.query('UPDATE announcements SET group_id = id WHERE id = $1', [id]);
  }
  const news = opts.news === false ? [] : JSON.parse(await readFile(NEWS_FILE, 'utf8')) as SeedArticle[];
  for (const [i, n] of news.entries()) {
    await tx.query(
      `INSERT INTO articles (merchant_code, title_en, summary_en, body_en, title_ty, summary_ty, body_ty, published, published_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, true, now() - make_interval(days => $8))`,
      [code, n.en.title, n.en.summary, n.en.body, n.ty.title, n.ty.summary, n.ty.body, i + 1],
    );
  }
  for (const [i, r] of seed.resources.entries()) {
    await tx.query(
      'INSERT INTO resources (merchant_code, resource_type, name, label_name_en, url, sort) VALUES ($1, $2, $3, $4, $5, $6)',
      [code, r.type, r.name, r.label, r.url, i],
    );
  }
  for (const [i, c] of seed.customerService.entries()) {
    await tx.query('INSERT INTO customer_service (merchant_code, cs_type, title, url, sort) VALUES ($1, $2, $3, $4, $5)', [code, c.csType, c.title, c.url, i]);
  }
  for (const [i, h] of seed.help.entries()) {
    for (const lang of ['EN', 'TY']) {
      const entry = h[lang];
      if (!Array.isArray(entry)) continue;
      await tx.query(
        'INSERT INTO help_items (merchant_code, language, anchor, title, content, sort) VALUES ($1, $2, $3, $4, $5, $6)',
        [code, lang, h.anchor, entry[0], entry[1], i],
      );
    }
  }
}

async function seedCatalogue(tx: Tx, code: string, vendors: SeedVendor[]) {
  let hot = 0;
  for (const [vi, v] of vendors.entries()) {
    const category = v.gameType === 'RNG' ? 'SLOT' : v.gameType;
    await tx.query(
      `INSERT INTO vendors (merchant_code, vassalage, game_type, game_category, display_name, icon_url, sort) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [code, v.vassalage, v.gameType, category, v.name, `/img/vendor/${v.vassalage}.svg?n=${encodeURIComponent(v.name)}`, vi],
    );
    const rows: unknown[][] = [];
    if (v.isGame === 'VASSALAGE') {
      rows.push([`${v.vassalage}-${v.gameType}-LOBBY`, v.vassalage, `${v.gameType}-LOBBY`, 'VASSALAGE', v.gameType, null, v.name, `/img/vendor/${v.vassalage}.svg?n=${encodeURIComponent(v.name)}`, null, -1]);
    }
    for (let i = 0; i < v.games; i++) {
      const name = gameName(v, i);
      const gameCode = `${v.gameType.slice(0, 2)}${String(i + 1).padStart(3, '0')}`;
      const classify = v.gameType === 'RNG' ? RNG_CLASSIFY_CYCLE[i % RNG_CLASSIFY_CYCLE.length] ?? null : null;
      // A spread of hot games across product lines: the first game of the first vendors.
      const hotRank = i === 0 && hot < 12 ? ++hot : null;
      rows.push([
        `${v.vassalage}-${gameCode}`, v.vassalage, gameCode, 'GAME', v.gameType, classify, name,
        `/img/game/${v.vassalage}/${gameCode}.svg?n=${encodeURIComponent(name)}`, hotRank, i,
      ]);
    }
    for (const r of rows) {
      await tx.query(
        `INSERT INTO games (merchant_code, node_id, vassalage, game_code, is_game, game_type, game_classify, game_name, icon_url, hot_rank, sort)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [code, ...r],
      );
    }
  }
}

async function seedWinners(tx: Tx, code: string, currency = 'PHP') {
  // Masked as every real winner's name is (maskName: first and last letter), so the demo's rows read like the rest.
  const names = ['Jason', 'Maria', 'Joseph', 'Angela', 'Rodrigo', 'Crystal', 'Kevin', 'Lily', 'Mark', 'Jenny'].map(maskName);
  const games = await tx.query<{ game_name: string; icon_url: string | null }>(
    `SELECT game_name, icon_url FROM games WHERE merchant_code = $1 AND game_type = 'RNG' ORDER BY id LIMIT 20`,
    [code],
  );
  for (let i = 0; i < 20; i++) {
    const g = games.rows[i % Math.max(games.rows.length, 1)];
    // Deterministic amounts between about ₱1,000 and ₱250,000, in centavos; another currency at its demo
    // rate (₫500,000 to ₫125,000,000), whole hundreds.
    const amount = scaleCentavos(100_000 + ((i * 7919 * 104_729) % 24_900_000), currency);
    await tx.query(
      `INSERT INTO winners (merchant_code, customer_name, game_name, icon_url, win_amount, at) VALUES ($1, $2, $3, $4, $5, now() - make_interval(mins => $6))`,
      [code, names[i % names.length], g?.game_name ?? 'Golden Empire', g?.icon_url ?? null, amount, (20 - i) * 7],
    );
  }
}

/**
 * Demo accounts for a first look: an agent with an invitation code and a player under it. Both carry
 * the default password '{secret}', which the portal forces them to change at first login.
 */
async function seedAccounts(tx: Tx, code: string, names = { agent: 'agent01', player: 'player01', invitation: 'LUCKY8' }) {
  const defaultHash = await hash(LIMITS.DEFAULT_PASSWORD, { algorithm: 2 as Algorithm });
  const agent = await tx.query<{ id: number }>(
    `INSERT INTO members (merchant_code, account, account_lower, nickname, type, password_hash, must_change_password, invitation_code)
     VALUES ($1, $2, $2, 'Demo Agent', 1, $3, true, $4) RETURNING id`,
    [code, names.agent, defaultHash, names.invitation],
  );
  await tx.query(
    `INSERT INTO members (merchant_code, account, account_lower, nickname, type, password_hash, must_change_password, parent_id)
     VALUES ($1, $2, $2, 'Demo Player', 0, $3, true, $4)`,
    [code, names.player, defaultHash, agent.rows[0]!.id],
  );
}
