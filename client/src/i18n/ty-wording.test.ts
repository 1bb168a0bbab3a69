import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import register from './locales/ty/register.json';
import auth from './locales/ty/auth.json';
import bets from './locales/ty/bets.json';
import wallet from './locales/ty/wallet.json';
import agentOffice from './locales/ty/agent-office.json';
import agents from './locales/ty/agents.json';
import envelopes from './locales/ty/envelopes.json';
import promotions from './locales/ty/promotions.json';
import points from './locales/ty/points.json';

const TY_DIR = join(import.meta.dirname, 'locales/ty');
import common from './locales/ty/common.json';
import enRegister from './locales/en/register.json';
import enWallet from './locales/en/wallet.json';
import enPoints from './locales/en/points.json';
import enCommon from './locales/en/common.json';

/** Tagalog wordings a review found left in English or inconsistent. */
describe('TY wording', () => {
  it('register and login forms say e-mail and invitation code in Tagalog', () => {
    for (const text of [register.field_email, register.sec_email, auth.method_email, register.field_affiliateCode, register.invitation_code_error]) {
      expect(text).not.toMatch(/Email address|Invitation code/);
    }
    expect(register.field_affiliateCode).toBe('Code ng imbitasyon (opsyonal)');
  });
  it('"past N days" reads the same in the betting record as elsewhere', () => {
    expect(bets.past_days_other).toBe(wallet.records_past_days_other);
    expect(bets.past_days_other).toBe(agentOffice.range.past_days_other);
  });
  it('daily wages has one name: menu, page title, offer popup, records', () => {
    expect(agents.offer.kind.dailyWages).toBe(agentOffice.item.agentDailyWages2);
    expect(agents.offer.kind.dailyWages).toBe(wallet.record_kind_daily_salary);
  });
  it('a red envelope is "ampao" everywhere: the envelope, its history, the account record, the promotion drop', () => {
    expect(envelopes.title).toBe('Ampao');
    expect(wallet.record_kind_envelope_grab).toBe(envelopes.title);
    expect(promotions.ops_drop_title).toMatch(/^Ampao /);
    expect(JSON.stringify([wallet, promotions, envelopes])).not.toMatch(/pulang sobre/i);
  });
  it('the records and valid bets have one name each: member centre menu, header menu, page titles, agent office', () => {
    expect(register.mc_personalHistoryCopy).toBe(bets.title);
    expect(register.mc_personalHistoryCopy).toBe(auth.menu_betting_record);
    expect(register.mc_transactionHistory).toBe(wallet.records_title);
    expect(register.mc_transactionHistory).toBe(auth.menu_account_record);
    expect(agentOffice.overview.validBets).toBe('Wastong taya');
    // No English "valid bets" left in a Tagalog sentence (the payout statement's lines had it).
    for (const f of readdirSync(TY_DIR)) expect(readFileSync(join(TY_DIR, f), 'utf8'), f).not.toMatch(/valid bets/i);
  });
  it('the transaction password has one name: registration, security centre, withdraw tab, transfers, points mall, errors (EN and TY)', () => {
    for (const [lang, reg, wal, pts, com] of [['EN', enRegister, enWallet, enPoints, enCommon], ['TY', register, wallet, points, common]] as const) {
      const name = lang === 'EN' ? 'Transaction password' : 'Password sa transaksyon';
      for (const text of [reg.field_paymentPassword, reg.txpw_title, wal.withdraw_password, pts.withdraw_password]) expect(text).toBe(name);
      const all = JSON.stringify([reg, wal, pts, com]);
      expect(all).not.toMatch(lang === 'EN' ? /withdraw(al)? password/i : /password sa pag-withdraw|withdraw password/i);
    }
  });
});
