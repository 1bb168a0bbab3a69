import { describe, expect, it } from 'vitest';
import type { ContractEventPayload } from '../machines/contract-offer.machine';
import { noticeOf } from './answer-notice';

const UP = 7;
const DOWN = 9;
const ev = (over: Partial<ContractEventPayload>): ContractEventPayload =>
  ({ contractId: '1', kind: 'daily_salary', status: 'accepted', uplineId: UP, uplineAccount: 'up', downlineId: DOWN, rateBps: 150, ...over }) as ContractEventPayload;

describe('the contract notice', () => {
  it('tells the upline what its downline answered and when a contract it gave ended, not what it did itself', () => {
    expect(noticeOf(ev({ status: 'accepted' }), UP)).toEqual({ side: 'upline', key: 'accepted' });
    expect(noticeOf(ev({ status: 'rejected' }), UP)).toEqual({ side: 'upline', key: 'rejected' });
    expect(noticeOf(ev({ status: 'terminated', endReason: 'terminatedByDownline' }), UP)).toEqual({ side: 'upline', key: 'ended' });
    expect(noticeOf(ev({ status: 'terminated', endReason: 'terminatedByUpline' }), UP)).toBeNull();
  });
  it('tells the downline when a contract it holds is ended by someone else, and nothing of its own answers', () => {
    expect(noticeOf(ev({ status: 'terminated', endReason: 'terminatedByUpline' }), DOWN)).toEqual({ side: 'downline', key: 'ended' });
    expect(noticeOf(ev({ status: 'ended', endReason: 'uplineContractEnded' }), DOWN)).toEqual({ side: 'downline', key: 'ended' });
    expect(noticeOf(ev({ status: 'terminated', endReason: 'terminatedByDownline' }), DOWN)).toBeNull();
    expect(noticeOf(ev({ status: 'accepted' }), DOWN)).toBeNull();
    expect(noticeOf(ev({ status: 'rejected' }), DOWN)).toBeNull();
    expect(noticeOf(ev({ status: 'accepted' }), 42)).toBeNull();
  });
});
