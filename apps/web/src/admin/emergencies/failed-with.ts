import { ApiError } from '../../api/client.ts';

/**
 * A failed call shown with the spec's own text ('Error loading emergencies.'), its status kept (a 4xx is not retried)
 * and its field reasons too; a cancelled call stays cancelled.
 */
export const failedWith = (message: string) => (error: unknown): never => {
  if (error instanceof ApiError) throw new ApiError(error.status, { message, modelState: error.modelState });
  if (error instanceof DOMException && error.name === 'AbortError') throw error;
  throw new ApiError(0, { message });
};
