import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { messages, type ErrorResponse } from '@clinicrelay/contracts/errors.ts';

// The only way a handler reports a failure; the error handler turns it into the one error shape.
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Omit<ErrorResponse, 'message'> = {},
  ) {
    super(message);
  }
}

export const notFound = () => new AppError(404, messages.notFound);
export const forbidden = () => new AppError(403, messages.notAuthorized);
export const unauthorized = (message: string = messages.tokenRevokedOrExpired) => new AppError(401, message);
export const badRequest = (message: string, modelState?: Record<string, string[]>) =>
  new AppError(400, message, modelState ? { modelState } : {});

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send({ message: error.message, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const modelState: Record<string, string[]> = {};
      for (const v of error.validation) {
        const field = v.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'request';
        (modelState[field] ??= []).push(v.message ?? messages.invalidRequest);
      }
      return reply.status(400).send({ message: messages.invalidRequest, modelState });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: { message: error.message, method: error.method, url: error.url } }, 'response did not match its schema');
      return reply.status(500).send({ message: messages.serverError });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(status).send({ message: messages.serverError });
    }
    // Fastify's own 4xx (malformed JSON, body too large, unsupported media type): its text is safe to show.
    return reply.status(status).send({ message: status === 429 ? messages.tooManyRequests : error.message });
  });
}
