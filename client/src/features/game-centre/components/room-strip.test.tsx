import { beforeAll, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { TRoom } from '@portal/contracts/api/games';
import { i18n } from '../../../i18n/i18n';
import { roomListQueryOptions } from '../api/get-room-list';
import { RoomStrip, secondsLeft } from './room-strip';

const now = '2026-12-05T12:00:00.000Z';
const room = (over: Partial<TRoom>): TRoom => ({
  nodeId: 'HOUSE-BACC1', gameCode: 'BACC1', gameName: 'Speed Baccarat', gameType: 'LIVE', vassalage: 'HOUSE', maintenance: false,
  roundNo: 7, phase: 'betting', closesAt: '2026-12-05T12:00:12.000Z', nextAt: null, serverNow: now, players: 2,
  stakes: [100, 500, 10_000], road: ['banker', 'player', 'tie'], ...over,
});

function render(lang: string, list: TRoom[]) {
  void i18n.changeLanguage(lang);
  const client = new QueryClient();
  client.setQueryData(roomListQueryOptions('LIVE').queryKey, { list });
  const html = renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}><RoomStrip gameType="LIVE" /></I18nextProvider>
    </QueryClientProvider>,
  );
  void i18n.changeLanguage('EN');
  return html;
}
const text = (html: string, id: string) => new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`).exec(html)?.[1];

beforeAll(async () => {
  for (const lang of ['TY', 'EN']) {
    await i18n.changeLanguage(lang);
    await i18n.loadNamespaces(['games', 'common']);
  }
});

describe('room strip (GLS2_roomList)', () => {
  it('counts down against the server clock, never below zero', () => {
    const readAt = 1_000_000;
    expect(secondsLeft('2026-12-05T12:00:12.000Z', now, readAt, readAt)).toBe(12);
    expect(secondsLeft('2026-12-05T12:00:12.000Z', now, readAt, readAt + 4_500)).toBe(8);
    expect(secondsLeft('2026-12-05T12:00:12.000Z', now, readAt, readAt + 60_000)).toBe(0);
    expect(secondsLeft(null, now, readAt, readAt)).toBeNull();
  });

  it('shows each table: round, phase, players, stakes and road, in EN and TY; nothing when there is no table', () => {
    // The read happened "now" for the page too (dataUpdatedAt is set by setQueryData): the time left is about 12 s.
    const en = render('EN', [room({ closesAt: new Date(Date.now() + 12_000).toISOString(), serverNow: new Date().toISOString() })]);
    expect(text(en, 'room-phase-BACC1')).toMatch(/^Bets open · 1[12] s$/);
    expect(en).toContain('Round 7');
    expect(en).toContain('2 players in this round');
    // Minor units in the merchant's currency (no whitelabel read here, so no symbol).
    expect(en).toMatch(/Stakes ₱?1\.00 – ₱?100\.00/);
    expect([...en.matchAll(/room-card__bead--(\w+)/g)].map((m) => m[1])).toEqual(['banker', 'player', 'tie']);
    expect(text(en, 'room-play-BACC1')).toBe('Join table');

    const ty = render('TY', [room({ phase: 'result', nextAt: new Date(Date.now() + 5_000).toISOString(), serverNow: new Date().toISOString(), players: 1 })]);
    expect(text(ty, 'room-phase-BACC1')).toMatch(/^Susunod na round sa [45] s$/);
    expect(ty).toContain('Ikot blg. 7');
    expect(ty).toContain('Sumali sa mesa');

    const over = render('EN', [room({ closesAt: now, serverNow: now })]);
    expect(text(over, 'room-phase-BACC1')).toBe('Dealing…');
    const closed = render('EN', [room({ maintenance: true })]);
    expect(text(closed, 'room-phase-BACC1')).toBe('Under maintenance');
    expect(closed).toMatch(/disabled=""[^>]*data-testid="room-play-BACC1"/);
    expect(render('EN', [])).toBe('');
  });
});
