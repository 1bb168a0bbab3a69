import { describe, expect, it } from 'vitest';
import { missionMoneyForm, missionMoneyOf } from './mission-money';

describe('mission target and reward: pesos in the form, centavos to the API', () => {
  it('reads the reward and a money target as pesos (with centavos)', () => {
    expect(missionMoneyOf('valid_bet', { target: '1,000', reward: '50' })).toEqual({ ok: true, value: { target: 100_000, rewardAmount: 5_000 } });
    expect(missionMoneyOf('deposit', { target: '250.5', reward: '0.75' })).toEqual({ ok: true, value: { target: 25_050, rewardAmount: 75 } });
    expect(missionMoneyOf('game_bet', { target: ' 200.00 ', reward: '5.00' })).toEqual({ ok: true, value: { target: 20_000, rewardAmount: 500 } });
  });
  it('reads a count target as a whole number, the reward still in pesos', () => {
    expect(missionMoneyOf('bet_count', { target: '2', reward: '3' })).toEqual({ ok: true, value: { target: 2, rewardAmount: 300 } });
    expect(missionMoneyOf('login_days', { target: '1,000', reward: '10.50' })).toEqual({ ok: true, value: { target: 1_000, rewardAmount: 1_050 } });
  });
  it('names every field that is not a valid amount', () => {
    expect(missionMoneyOf('valid_bet', { target: '10.005', reward: '-5' })).toEqual({ ok: false, bad: ['target', 'reward'] });
    expect(missionMoneyOf('valid_bet', { target: '100', reward: 'abc' })).toEqual({ ok: false, bad: ['reward'] });
    expect(missionMoneyOf('deposit', { target: '0', reward: '1' })).toEqual({ ok: false, bad: ['target'] });
    expect(missionMoneyOf('valid_bet', { target: '', reward: '0.00' })).toEqual({ ok: false, bad: ['target', 'reward'] });
    expect(missionMoneyOf('bet_count', { target: '2.5', reward: '1' })).toEqual({ ok: false, bad: ['target'] });
    expect(missionMoneyOf('login_days', { target: '-3', reward: '1' })).toEqual({ ok: false, bad: ['target'] });
    expect(missionMoneyOf('bet_count', { target: '0', reward: '1e3' })).toEqual({ ok: false, bad: ['target', 'reward'] });
  });
  it('shows stored centavos as pesos for editing (a count as the count), and reads them back unchanged', () => {
    const money = { kind: 'valid_bet' as const, target: 20_000, rewardAmount: 5_000 };
    expect(missionMoneyForm(money)).toEqual({ target: '200.00', reward: '50.00' });
    expect(missionMoneyOf(money.kind, missionMoneyForm(money))).toEqual({ ok: true, value: { target: 20_000, rewardAmount: 5_000 } });
    const count = { kind: 'login_days' as const, target: 5, rewardAmount: 1_050 };
    expect(missionMoneyForm(count)).toEqual({ target: '5', reward: '10.50' });
    expect(missionMoneyOf(count.kind, missionMoneyForm(count))).toEqual({ ok: true, value: { target: 5, rewardAmount: 1_050 } });
    expect(missionMoneyForm(null)).toEqual({ target: '', reward: '' });
  });
});

describe('mission target and reward in đồng (VND, exponent 0)', () => {
  it('reads whole đồng; a count target stays a count', () => {
    expect(missionMoneyOf('valid_bet', { target: '250,000', reward: '2500' }, 0)).toEqual({ ok: true, value: { target: 250_000, rewardAmount: 2_500 } });
    expect(missionMoneyOf('bet_count', { target: '10', reward: '1,000' }, 0)).toEqual({ ok: true, value: { target: 10, rewardAmount: 1_000 } });
    expect(missionMoneyForm({ kind: 'deposit', target: 500_000, rewardAmount: 10_000 }, 0)).toEqual({ target: '500000', reward: '10000' });
  });
  it('refuses a fraction of a đồng', () => {
    expect(missionMoneyOf('deposit', { target: '250.5', reward: '12.5' }, 0)).toEqual({ ok: false, bad: ['target', 'reward'] });
  });
});
