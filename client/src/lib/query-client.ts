import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api';

/** Errors the server meant (4xx codes) are not retried; network trouble is, twice. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          if (isApiError(error) && error.status !== null && error.status < 500) return false;
          return failureCount < 2;
        },
      },
    },
  });
}
