import { messages } from '@clinicrelay/contracts/errors.ts';

/** What a widget shows for a failed call: the API's `{ message, modelState? }`, read from whatever was thrown. */
export interface ErrorDetails {
  message: string;
  modelState: Record<string, string[]>;
}

// Duck-typed so any client error carrying the API error shape works, without importing the api layer.
export function errorDetails(error: unknown): ErrorDetails {
  const source = (typeof error === 'object' && error !== null ? error : {}) as {
    message?: unknown;
    modelState?: unknown;
  };
  const message = typeof source.message === 'string' && source.message ? source.message : messages.serverError;
  const modelState: Record<string, string[]> = {};
  if (typeof source.modelState === 'object' && source.modelState !== null) {
    for (const [field, texts] of Object.entries(source.modelState)) {
      if (Array.isArray(texts)) modelState[field] = texts.map(String);
    }
  }
  return { message, modelState };
}
