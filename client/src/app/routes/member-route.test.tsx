import { afterEach, describe, expect, it } from 'vitest';
import type { ReactElement } from 'react';
import { i18n } from '../../i18n/i18n';
import { renderStatic, textOf } from '../../lib/testing/static-render';
import { DepositPanel } from '../../features/deposit/components/deposit-panel';
import { TransferPanel } from '../../features/transfer/components/transfer-panel';
import { cashierSlots } from './member-route';

afterEach(async () => {
  await i18n.changeLanguage('EN');
});

const excluded = { kind: 'self', until: '2027-06-05T15:15:00.000Z' };

describe('the member centre cashier of an excluded player (the server refuses deposits and transfers: RG_EXCLUDED)', () => {
  it('deposit and transfer say they are closed and until when, with no form and the way to withdraw, in EN and TY', async () => {
    for (const lang of ['EN', 'TY'] as const) {
      const slots = cashierSlots(excluded, false);
      const deposit = await renderStatic(lang, slots.depositv2.render(), { namespaces: ['rg', 'wallet'] });
      expect(deposit).toContain('data-testid="rg-closed-deposit"');
      expect(deposit).not.toContain('<form');
      expect(deposit).not.toContain('deposit-submit');
      expect(deposit).toContain('href="/member?tab=withdraw"');
      expect(textOf(deposit)).toContain(lang === 'EN' ? 'Deposits are closed for your account. Until 2027-06-05 23:15.' : 'Sarado ang pagdeposito para sa iyong account. Hanggang 2027-06-05 23:15.');
      expect(textOf(deposit)).toContain(i18n.getFixedT(lang, 'wallet')('deposit_title'));
      // the player's own deposits stay listed
      expect(deposit).toContain('data-testid="deposit-list-refresh"');
      const transfer = await renderStatic(lang, cashierSlots(excluded, true).transferUpline.render(), { namespaces: ['rg', 'wallet'] });
      expect(transfer).toContain('data-testid="rg-closed-transfer"');
      expect(transfer).not.toContain('<form');
      expect(textOf(transfer)).toContain(i18n.getFixedT(lang, 'wallet')('transfer_title_agent'));
      expect(textOf(transfer)).toContain(i18n.getFixedT(lang, 'wallet')('transfer_list'));
    }
  });

  it('a player with no exclusion gets the deposit and transfer forms', () => {
    const slots = cashierSlots(null, true);
    expect((slots.depositv2.render() as ReactElement).type).toBe(DepositPanel);
    const transfer = slots.transferUpline.render() as ReactElement<{ isAgent: boolean }>;
    expect(transfer.type).toBe(TransferPanel);
    expect(transfer.props.isAgent).toBe(true);
  });

  it('no "to my upline" for a member without an upline (the server refuses it: NO_UPLINE)', async () => {
    for (const lang of ['EN', 'TY'] as const) {
      const t = i18n.getFixedT(lang, 'wallet');
      // an agent with an upline chooses the direction; a top agent only sends down, to an account it names
      const withUp = await renderStatic(lang, cashierSlots(null, true, true).transferUpline.render(), { namespaces: ['wallet', 'register'] });
      expect(withUp).toContain('data-testid="transfer-direction-upline"');
      const top = await renderStatic(lang, cashierSlots(null, true, false).transferUpline.render(), { namespaces: ['wallet', 'register'] });
      expect(top).not.toContain('data-testid="transfer-direction-upline"');
      expect(top).toContain('data-testid="transfer-account-field"');
      expect(textOf(top)).toContain(t('transfer_downline_hint'));
      // a player without an upline is told so, with no form; its past transfers stay listed
      const player = await renderStatic(lang, cashierSlots(null, false, false).transferUpline.render(), { namespaces: ['wallet', 'register'] });
      expect(player).not.toContain('<form');
      expect(textOf(player)).toContain(i18n.getFixedT(lang, 'common')('error_NO_UPLINE'));
      expect(textOf(player)).toContain(t('transfer_list'));
      // a player with one (or not known yet) gets the form
      expect(await renderStatic(lang, cashierSlots(null, false, true).transferUpline.render(), { namespaces: ['wallet', 'register'] })).toContain('<form');
      expect(await renderStatic(lang, cashierSlots(null, false).transferUpline.render(), { namespaces: ['wallet', 'register'] })).toContain('<form');
    }
  });
});
