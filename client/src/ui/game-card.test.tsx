import { describe, expect, it } from 'vitest';
import type { TGame } from '@portal/contracts/api/games';
import { renderStatic } from '../lib/testing/static-render';
import { GameCard } from './game-card';
import { FormField } from './form-field';

const game: TGame = { nodeId: 'HOUSE-SLOT1', vassalage: 'HOUSE', gameCode: 'SLOT1', isGame: 'GAME', gameType: 'RNG', gameClassify: null, gameName: 'Lucky Peso Reels', iconUrl: null, maintenance: false };
const labels = { playNow: 'Maglaro na', freeTrial: 'Libreng subok', addFavourite: 'Idagdag sa paborito', removeFavourite: 'Alisin sa paborito', maintenance: 'Maintenance' };
const names = (html: string) => [...html.matchAll(/<button[^>]*aria-label="([^"]*)"/g)].map((m) => m[1]);

describe('what a screen reader hears', () => {
  // A category read "Maglaro na" over and over: the game's name came only after its buttons.
  it("a game card's buttons name their game", async () => {
    const html = await renderStatic('TY', <GameCard game={game} labels={labels} onPlay={() => {}} onTrial={() => {}} onToggleFavourite={() => {}} />);
    expect(names(html)).toEqual(['Maglaro na: Lucky Peso Reels', 'Libreng subok: Lucky Peso Reels', 'Idagdag sa paborito: Lucky Peso Reels']);
  });

  // The mark was named "required" inside the label: the field read "Usernamerequired" (TY "Pangalan ng userkailangan").
  it("a required field's name is its label; the input says it is required", async () => {
    const html = await renderStatic('TY', <FormField name="username" label="Pangalan ng user" value="" onChange={() => {}} required />, { namespaces: ['register'] });
    const label = /<label[^>]*>(.*?)<\/label>/.exec(html)?.[1] ?? '';
    expect(label).toMatch(/^Pangalan ng user<span class="form-field__req" aria-hidden="true">\*<\/span>$/);
    expect(html).toMatch(/<input[^>]*required=""/);
  });

  it("a field's hint (a deposit's minimum and maximum) is read with it; its error takes the hint's place", async () => {
    const hinted = await renderStatic('EN', <FormField name="amount" label="Amount" value="" onChange={() => {}} hint="Min ₱100.00 · Max ₱50,000.00" />, { namespaces: ['register'] });
    const describedBy = /<input[^>]*aria-describedby="([^"]+)"/.exec(hinted)?.[1];
    expect(describedBy).toBeTruthy();
    expect(hinted).toContain(`id="${describedBy}">Min ₱100.00 · Max ₱50,000.00</p>`);
    const refused = await renderStatic('EN', <FormField name="amount" label="Amount" value="" onChange={() => {}} hint="Min" error={{ key: 'required' }} />, { namespaces: ['register'] });
    const errorId = /<input[^>]*aria-describedby="([^"]+)"/.exec(refused)?.[1];
    expect(refused).toMatch(new RegExp(`<p class="form-field__error" id="${errorId}" role="alert">`));
    expect(refused).not.toContain('form-field__hint');
  });
});
