import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { renderStatic, textOf } from '../../../lib/testing/static-render';
import { BotCheckSlider } from './bot-check-slider';

afterEach(async () => {
  await i18n.changeLanguage('EN');
});

const challenge = { botId: 'b1', image: 'data:image/png;base64,AA', width: 300, height: 150, pieceY: 40 };

describe('the slider check', () => {
  it('says it can be done with the keyboard, and names the piece position both ways (EN and TY)', async () => {
    const en = await renderStatic('EN', <BotCheckSlider challenge={challenge} onSolved={() => undefined} onCancel={() => undefined} />, { namespaces: ['auth'] });
    expect(textOf(en)).toContain('Or with the keyboard: the arrow keys move the piece (Shift for bigger steps), Enter checks it.');
    const describedBy = /role="slider"[^>]*aria-describedby="([^"]+)"/.exec(en)?.[1];
    expect(describedBy).toBeTruthy();
    expect(en).toContain(`id="${describedBy}"`);
    expect(en).toContain('aria-valuetext="across 0, down 40"');
    const ty = await renderStatic('TY', <BotCheckSlider challenge={challenge} onSolved={() => undefined} onCancel={() => undefined} />, { namespaces: ['auth'] });
    expect(textOf(ty)).toContain('O gamit ang keyboard');
    expect(ty).toContain('aria-valuetext="pahalang 0, pababa 40"');
  });
});
