import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { newsCalls } from '@portal/contracts/api/content';
import type { LanguageCode } from '@portal/contracts/domain/constants';
import { call } from '../../../lib/api';
import { QUERY_KEYS } from '../../../lib/query-keys';

export const NEWS_PAGE_SIZE = 10;

/** GET /wps/content/news: published articles, newest first, in the asked language. */
export function newsQueryOptions(language: LanguageCode, pageNo: number) {
  return queryOptions({
    queryKey: [...QUERY_KEYS.news, 'list', language, pageNo] as const,
    queryFn: ({ signal }) => call(newsCalls.list, { query: { language, pageNo, pageSize: NEWS_PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useNews(language: LanguageCode, pageNo: number) {
  return useQuery(newsQueryOptions(language, pageNo));
}

/** GET /wps/content/news/:id. */
export function articleQueryOptions(language: LanguageCode, id: string) {
  return queryOptions({
    queryKey: [...QUERY_KEYS.news, 'article', language, id] as const,
    queryFn: ({ signal }) => call(newsCalls.article, { params: { id }, query: { language }, signal }),
    retry: false,
  });
}

export function useArticle(language: LanguageCode, id: string) {
  return useQuery(articleQueryOptions(language, id));
}
