import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { PortalQueryClient } from './query-client';
import { observe, settled, slowRead } from './testing/slow-read';

/** A list read that takes 30 ms and answers what the server held when the read was SENT. */
function slowList() {
  const r = slowRead(['before']);
  return { ...r, write: () => r.set([...r.get(), 'saved']) };
}
const key = ['rg', 't', 'events'];

describe('PortalQueryClient.invalidateQueries', () => {
  it('a write made while the first read is in flight is shown once the reads land (plain invalidateQueries keeps the stale read)', async () => {
    for (const how of ['plain', 'portal'] as const) {
      const qc = how === 'plain' ? new QueryClient({ defaultOptions: { queries: { retry: false } } }) : new PortalQueryClient({ defaultOptions: { queries: { retry: false } } });
      const list = slowList();
      const stop = observe(qc, key, list.queryFn);
      expect(qc.getQueryState(key)?.fetchStatus).toBe('fetching');
      list.write();
      await qc.invalidateQueries({ queryKey: ['rg', 't'] });
      await settled(qc);
      expect(qc.getQueryData(key), how).toEqual(how === 'plain' ? ['before'] : ['before', 'saved']);
      stop();
    }
  });

  it('a query that already has data is refetched once, as invalidateQueries does', async () => {
    const qc = new PortalQueryClient({ defaultOptions: { queries: { retry: false } } });
    const list = slowList();
    const stop = observe(qc, key, list.queryFn);
    await settled(qc);
    expect(qc.getQueryData(key)).toEqual(['before']);
    list.write();
    await qc.invalidateQueries({ queryKey: ['rg', 't'] });
    expect(qc.getQueryData(key)).toEqual(['before', 'saved']);
    expect(list.calls()).toBe(2);
    stop();
  });
});

describe('PortalQueryClient.invalidateKeepingFirstReads and refetchType none', () => {
  it('the socket hello lets a first read in flight land, then reads it once more', async () => {
    const qc = new PortalQueryClient({ defaultOptions: { queries: { retry: false } } });
    const list = slowList();
    const seen: unknown[] = [];
    const stop = observe(qc, key, list.queryFn, (r) => { if (r.data) seen.push(r.data); });
    list.write(); // committed while the first read was on its way, before the socket joined
    await qc.invalidateKeepingFirstReads({ refetchType: 'active' });
    await settled(qc);
    expect(seen[0]).toEqual(['before']); // the first read was not started over: it painted
    expect(qc.getQueryData(key)).toEqual(['before', 'saved']);
    expect(list.calls()).toBe(2);
    stop();
  });

  it('refetchType none cancels and reads nothing', async () => {
    const qc = new PortalQueryClient({ defaultOptions: { queries: { retry: false } } });
    const list = slowList();
    const stop = observe(qc, key, list.queryFn);
    list.write();
    await qc.invalidateQueries({ queryKey: key, refetchType: 'none' });
    await settled(qc);
    expect(qc.getQueryData(key)).toEqual(['before']);
    expect(list.calls()).toBe(1);
    stop();
  });

  it('marks every matching query stale at once, as invalidateQueries does', () => {
    const qc = new PortalQueryClient();
    qc.setQueryData(['a', 1], 1);
    void qc.invalidateQueries({ queryKey: ['a'] });
    expect(qc.getQueryState(['a', 1])?.isInvalidated).toBe(true);
  });
});

describe('createQueryClient: writes offline', () => {
  it('a write made while the device is offline is sent at once (its failure shown), not held and sent on reconnect (a withdrawal pressed twice became two)', async () => {
    const { MutationObserver, onlineManager } = await import('@tanstack/react-query');
    const { createQueryClient } = await import('./query-client');
    for (const client of ['default', 'portal'] as const) {
      const qc = client === 'default' ? new QueryClient() : createQueryClient();
      qc.mount(); // as the app's provider does: it resumes held writes when the device is back online
      let sent = 0;
      const m = new MutationObserver(qc, { mutationFn: async () => { sent++; throw new TypeError('Failed to fetch'); } });
      onlineManager.setOnline(false);
      try {
        const outcome = await Promise.race([m.mutate().then(() => 'done', () => 'failed'), new Promise((r) => setTimeout(() => r('held'), 50))]);
        expect([client, outcome, sent]).toEqual(client === 'default' ? ['default', 'held', 0] : ['portal', 'failed', 1]);
      } finally {
        onlineManager.setOnline(true);
      }
      await new Promise((r) => setTimeout(r, 10));
      // back online: the default client sends the held write now, long after the press; ours sent nothing more
      expect([client, sent]).toEqual([client, 1]);
      m.reset();
      qc.unmount();
    }
  });
});
