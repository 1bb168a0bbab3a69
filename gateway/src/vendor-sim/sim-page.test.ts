import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimServer } from './server.ts';

/**
 * The simulator's game page (page/sim.js, a plain script) rendered in EN and TY against a running
 * simulator (free play: no portal needed), in a small stand-in for the DOM: every text a player sees
 * (text, titles, labels, alt texts) after the page opened and played one round. A TY page must not
 * show the EN page's English.
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
const SCRIPT = readFileSync(path.join(HERE, 'page/sim.js'), 'utf8');

class FakeElement {
  children: FakeElement[] = [];
  attrs: Record<string, string> = {};
  listeners: Record<string, Array<(e: unknown) => void>> = {};
  text = '';
  disabled = false;
  value = '';
  isConnected = true;
  style = { setProperty: () => undefined, minHeight: '' };
  classList = { contains: (c: string) => (this.attrs.class ?? '').split(' ').includes(c) };
  constructor(readonly tag: string) {}
  get textContent(): string {
    return this.text + this.children.map((c) => c.textContent).join('');
  }
  set textContent(v: string) {
    this.children = [];
    this.text = v;
  }
  set innerHTML(v: string) {
    this.children = [];
    this.text = v;
  }
  set className(v: string) {
    this.attrs.class = v;
  }
  appendChild(c: FakeElement) {
    this.children.push(c);
    return c;
  }
  setAttribute(k: string, v: string) {
    this.attrs[k] = String(v);
    if (k === 'value') this.value = String(v);
  }
  getAttribute(k: string) {
    return this.attrs[k] ?? null;
  }
  removeAttribute(k: string) {
    delete this.attrs[k];
  }
  addEventListener(type: string, f: (e: unknown) => void) {
    (this.listeners[type] ??= []).push(f);
  }
  click() {
    for (const f of this.listeners.click ?? []) f({ currentTarget: this, target: this });
  }
  /** Every element below (this one first). */
  all(): FakeElement[] {
    return [this, ...this.children.flatMap((c) => c.all())];
  }
  /** What a player reads: its own text, and its title, label and alt text. */
  texts(): string[] {
    return this.all().flatMap((e) => [e.text, e.attrs.title ?? '', e.attrs['aria-label'] ?? '', e.attrs.alt ?? '']).map((s) => s.trim()).filter(Boolean);
  }
}

let sim: ReturnType<typeof createSimServer>;
let simUrl: string;
beforeAll(async () => {
  sim = createSimServer({ walletUrl: 'http://127.0.0.1:9', masterSecret: 'x'.repeat(64), portalUrl: 'http://127.0.0.1:8383', log: { warn: () => undefined } });
  simUrl = `http://127.0.0.1:${await sim.listen(0)}`;
});
afterAll(async () => {
  await sim?.close();
});

/** Opens the page (free play) for a game, plays one round with its first choice, and returns what it shows. */
async function render(lang: 'en' | 'ty', game: { type: string; name: string; vendorName?: string }, rewritePlay?: (answer: { round: Record<string, unknown> }) => void) {
  const root = new FakeElement('main');
  root.setAttribute('data-lobby', 'http://127.0.0.1:8383/');
  let title = '';
  let pending = 0;
  const document = {
    createElement: (tag: string) => new FakeElement(tag),
    getElementById: () => root,
    set title(v: string) {
      title = v;
    },
  };
  const q = new URLSearchParams({ mode: 'free', game: 'G1', vendor: 'JL', operator: 'DEMO', type: game.type, name: game.name, currency: 'PHP', lang, ...(game.vendorName ? { vendorName: game.vendorName } : {}) });
  const simFetch = async (url: string, init: RequestInit) => {
    pending++;
    try {
      const res = await fetch(simUrl + url, init);
      if (!rewritePlay || !url.endsWith('/play')) return res;
      // A crafted round (a rare outcome) shown as the page shows any: the server's answer, rewritten.
      const j = (await res.json()) as { success: boolean; value: { round: Record<string, unknown> } };
      rewritePlay(j.value);
      return new Response(JSON.stringify(j), { status: res.status, headers: { 'content-type': 'application/json' } });
    } finally {
      pending--;
    }
  };
  runInNewContext(SCRIPT, {
    document, location: { search: `?${q}`, pathname: '/play' }, history: { replaceState: () => undefined },
    fetch: simFetch, URLSearchParams, Intl, Promise, Math, String, Number, Object, Array, Error,
  });
  const settle = async () => {
    do await new Promise((r) => setTimeout(r, 20));
    while (pending > 0);
    await new Promise((r) => setTimeout(r, 20));
  };
  await settle();
  const byTestId = (prefix: string) => root.all().find((e) => (e.attrs['data-testid'] ?? '').startsWith(prefix));
  byTestId('sim-quick-pick')?.click();
  const play = byTestId('sim-play') ?? byTestId('sim-side-') ?? byTestId('sim-fish-') ?? byTestId('sim-runner-');
  expect(play, `${game.type} has a play button`).toBeDefined();
  play!.click();
  await settle();
  expect(root.all().filter((e) => e.attrs['data-testid'] === 'sim-history-row'), `${game.type} played a round`).toHaveLength(1);
  return { texts: [title, ...root.texts()], root };
}

/** Words (of letters, 3 or more) of some texts, lower case; hex codes (seed hashes, ids) left out: a letter run of one ('fac') is no word. */
const words = (texts: string[]) => new Set(texts.join(' ').replace(/\b[0-9a-f]{8,}\b/gi, ' ').toLowerCase().match(/\p{L}{3,}/gu) ?? []);

/**
 * Words a TY page shares with the EN page on purpose: besides names (of the game, the vendor, teams,
 * roosters), the words the portal's own Tagalog uses (client/src/i18n/locales/ty: "Simulated na demo:
 * ... built-in na vendor simulator ... totoong provider ... wallet mo", "Bumalik sa portal", "round",
 * "server seed", "slot", "Live na baccarat", "Lucky 9 duel", "E-Sports"), Tagalog words the English page uses
 * (Meron, Wala, Sabong), and the round ids' "sim-" prefix.
 */
const SHARED = new Set([
  'simulated', 'demo', 'built', 'vendor', 'simulator', 'provider', 'wallet', 'portal', 'round', 'server', 'seed', 'hash', 'slot', 'live', 'baccarat',
  'lucky', 'duel', 'sports', 'meron', 'wala', 'sabong', 'sim',
]);

const GAMES = [
  { type: 'RNG', name: 'Golden Empire', vendorName: 'Jili Games' },
  { type: 'FISH', name: 'Ocean King' },
  { type: 'LIVE', name: 'Speed Baccarat' },
  { type: 'PVP', name: 'Tongits' },
  { type: 'LOTT', name: 'Lotto 6/45' },
  { type: 'LOTT', name: 'Quick 3D' },
  { type: 'ELOTT', name: 'Fast 3' },
  { type: 'ELOTT', name: 'Racing 10' },
  { type: 'SPORTS', name: 'Sportsbook' },
  { type: 'ESPORTS', name: 'Esports Arena' },
  { type: 'COCKFIGHT', name: 'Sabong Live' },
];

describe('the vendor simulator page in Tagalog', () => {
  it.each(GAMES)('$type $name: the TY page shows none of the EN page\'s English', async (game) => {
    const en = await render('en', game);
    const ty = await render('ty', game);
    const names = words([game.name, game.vendorName ?? '', ...ty.root.all().filter((e) => ['sim-teams', 'sim-match-result'].includes(e.attrs['data-testid'] ?? '')).map((e) => e.textContent)]);
    const english = [...words(ty.texts)].filter((w) => words(en.texts).has(w) && !SHARED.has(w) && !names.has(w));
    expect(english, ty.texts.join(' | ')).toEqual([]);
  });

  it('a live bet on Player or Banker when the hand ties says the stake came back, not "Win"', async () => {
    const tie = (a: { round: Record<string, unknown> }) => {
      a.round.detail = { kind: 'live', side: 'player', winner: 'tie', player: 5, banker: 5 };
      a.round.win = a.round.stake;
    };
    for (const [lang, text] of [['en', 'Tie: stake returned'], ['ty', 'Tabla: ibinalik ang taya']] as const) {
      const r = await render(lang, { type: 'LIVE', name: 'Baccarat' }, tie);
      const msg = r.root.all().find((e) => e.attrs['data-testid'] === 'sim-result')!.textContent;
      expect(msg).toContain(text);
      expect(msg).not.toMatch(/^(Win|Panalo)/);
    }
  });

  it('the slot page names the vendor and the game type in the page language, and the history in words', async () => {
    const game = { type: 'RNG', name: 'Golden Empire', vendorName: 'Jili Games' };
    const sub = (r: Awaited<ReturnType<typeof render>>) => r.root.all().find((e) => e.attrs['data-testid'] === 'sim-sub')!.textContent;
    expect(sub(await render('en', game))).toBe('Jili Games \u00B7 Slot');
    expect(sub(await render('ty', game))).toBe('Jili Games \u00B7 Slot na laro');
    // Without the vendor's name the code is labelled as the provider's.
    expect(sub(await render('ty', { type: 'RNG', name: 'Golden Empire' }))).toBe('Tagapagbigay JL \u00B7 Slot na laro');
    const ty = (await render('ty', game)).texts.join(' | ');
    expect(ty).toContain('Ikot blg.');
    expect(ty).not.toMatch(/line\(s\)|\bRound\b/);
  });
});
