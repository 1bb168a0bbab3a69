import { afterEach, describe, expect, it } from 'vitest';
import { renderStatic, textOf } from '../../../lib/testing/static-render';
import { i18n } from '../../../i18n/i18n';
import { DepositChannel } from './deposits-page';

afterEach(async () => {
  await i18n.changeLanguage('EN');
});

describe('the console deposits list: payment method column', () => {
  it('names the method in EN and TY, never its code', async () => {
    for (const [lang, code, name] of [['EN', 'MOMO', 'MoMo'], ['EN', 'INSTAPAY', 'Bank transfer (InstaPay)'], ['TY', 'INSTAPAY', 'Paglipat sa bangko (InstaPay)'], ['TY', 'NAPAS', 'Paglipat sa bangko (NAPAS 247)']] as const) {
      const text = textOf(await renderStatic(lang, <DepositChannel code={code} provider="sim" />, { namespaces: ['ops', 'wallet'] }));
      // The name, then the provider (the code itself, 'MOMOsim', before).
      expect(text, `${lang} ${code}`).toBe(`${name}sim`);
    }
  });
});
