import { describe, expect, it } from 'vitest';
import { createSimGames } from './sim-games.ts';
import { SimWalletRefused, type SimWallet } from './sim-wallet.ts';

/** A wallet that takes bets and refuses every win, recording what it was asked. */
function refusingWinWallet() {
  const calls: string[] = [];
  const ok = (balance: number) => Promise.resolve({ balance, replayed: false });
  const wallet = {
    call: () => Promise.reject(new Error('unused')),
    authenticate: () => Promise.resolve({ playerId: 'p1', currency: 'PHP', balance: 10_000, nickname: 'n', token: 'gt', gameCode: 'RN001' }),
    balance: () => Promise.resolve({ balance: 10_000, currency: 'PHP' }),
    bet: (_m: string, _v: string, b: { transactionId: string }) => (calls.push(`bet ${b.transactionId}`), ok(9_980)),
    win: (_m: string, _v: string, b: { transactionId: string }) => (calls.push(`win ${b.transactionId}`), Promise.reject(new SimWalletRefused('VALIDATION', 'amount: an integer', 400))),
    rollback: (_m: string, _v: string, b: { refTransactionId: string }) => (calls.push(`rollback ${b.refTransactionId}`), ok(10_000)),
  } as unknown as SimWallet;
  return { wallet, calls };
}

describe('vendor simulator rounds', () => {
  it('a win the wallet refuses cancels the round (its bet rolled back), not left open with the stake taken', async () => {
    const { wallet, calls } = refusingWinWallet();
    const warned: string[] = [];
    const games = createSimGames(wallet, { warn: (_o, m) => void warned.push(String(m)) });
    const v = await games.open({ token: 'launch', game: 'RN001', vendor: 'JL', operator: 'DEMO', type: 'RNG', name: 'Aztec Riches', minBet: 20 });
    expect(v.stakes[0]).toBe(20);
    await expect(games.play(v.session, { stake: 20 })).rejects.toMatchObject({ code: 'VALIDATION' });
    const round = calls[0]!.slice('bet '.length, -'-bet'.length);
    expect(calls).toEqual([`bet ${round}-bet`, `win ${round}-win`, `rollback ${round}-bet`]);
    expect(warned).toEqual(['vendor-sim win refused: the bet is rolled back']);
  });
});
