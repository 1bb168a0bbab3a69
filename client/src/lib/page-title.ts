import { useEffect } from 'react';
import { createStore, useStore } from './store';

/**
 * The part of a page the tab names before the page's own title: the open member-centre or back-office
 * item ("Betting record | Member Centre | LuckyPeso"). Every item used to share its page's title.
 */
const subTitleStore = createStore<string | null>(null);

/** Names the open part of the page in the tab title while the caller is mounted (null: none). */
export function usePageSubTitle(text: string | null): void {
  useEffect(() => {
    subTitleStore.set(text);
    return () => subTitleStore.set(null);
  }, [text]);
}

export function usePageSubTitleValue(): string | null {
  return useStore(subTitleStore);
}

/** The tab title: the open part, the page, the site (empty parts and a part equal to the page left out). */
export function documentTitle(sub: string | null, page: string, site: string): string {
  return [sub !== page ? sub : null, page, site].filter(Boolean).join(' | ');
}
