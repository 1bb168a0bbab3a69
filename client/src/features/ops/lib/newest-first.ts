import { lastPage } from './format';

export type Page<T> = { list: T[]; pageNo: number; pageSize: number; total: number };

/**
 * History lists newest first over an API that pages oldest first (ORDER BY id): a one-row probe
 * gives the total, then the page counted from the end is fetched and reversed. Page 1 is the
 * newest rows; the last page may be short.
 */
export async function fetchNewestFirst<T>(fetchPage: (pageNo: number, pageSize: number) => Promise<Page<T>>, pageNo: number, pageSize: number): Promise<Page<T>> {
  const probe = await fetchPage(1, 1);
  const pages = lastPage(probe.total, pageSize);
  const apiPage = Math.max(1, pages - pageNo + 1);
  const page = probe.total === 0 ? { ...probe, list: [] } : await fetchPage(apiPage, pageSize);
  return { list: [...page.list].reverse(), pageNo, pageSize, total: page.total };
}
