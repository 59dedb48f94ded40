import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client.ts';

// A 4xx answer will not change on retry; only network and server failures are retried.
function isClientError(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: (failureCount, error) => !isClientError(error) && failureCount < 2 },
      mutations: { retry: false },
    },
  });
}
