import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DrizzleQueryError } from 'drizzle-orm';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { messages, serverErrorWithReference, type ErrorResponse } from '@clinicrelay/contracts/errors.ts';
import { newReferenceId, type SecureLogEntry } from './secure-logs.ts';

// The only way a handler reports a failure; the error handler turns it into the one error shape.
// A 503 names how long to wait (Retry-After).
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Omit<ErrorResponse, 'message'> = {},
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const notFound = () => new AppError(404, messages.notFound);
export const forbidden = () => new AppError(403, messages.notAuthorized);
export const unauthorized = (message: string = messages.tokenRevokedOrExpired) => new AppError(401, message);
export const badRequest = (message: string, modelState?: Record<string, string[]>) =>
  new AppError(400, message, modelState ? { modelState } : {});

// Seconds a client is told to wait (Retry-After) while the database is unreachable.
export const DATABASE_RETRY_AFTER_SECONDS = 5;

// The fields of a PostgreSQL error (pg or PGlite) that name what failed without echoing any value:
// `detail`, `where`, `internalQuery` and the driver's `query`/`params` may hold patient data.
const SAFE_DATABASE_FIELDS = ['code', 'severity', 'constraint', 'schema', 'table', 'column', 'dataType', 'routine'] as const;
const SQLSTATE = /^[0-9A-Z]{5}$/;
// Connection-level failures: the server restarting or shutting down, refused or dropped sockets, timeouts.
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/, // pg: "unexpectedly", "due to connection timeout"
  /^timeout exceeded when trying to connect/, // pg-pool: no connection within connectionTimeoutMillis
  /^Client has encountered a connection error and is not queryable/,
  /^Connection terminated unexpectedly/,
];

type ErrorLike = Error & Record<string, unknown>;

// The error and its causes (DrizzleQueryError wraps the driver's error; AggregateError holds one per address).
function* errorChain(error: unknown): Generator<ErrorLike> {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0 && seen.size < 20) {
    const e = pending.shift();
    if (!(e instanceof Error) || seen.has(e)) continue;
    seen.add(e);
    yield e as ErrorLike;
    pending.push(e.cause);
    if (e instanceof AggregateError) pending.push(...(e.errors as unknown[]));
  }
}

const isPostgresError = (e: ErrorLike) => typeof e.code === 'string' && SQLSTATE.test(e.code) && typeof e.severity === 'string';

// True when the database could not be reached or dropped the connection: the request may succeed later (503).
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of errorChain(error)) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (isPostgresError(e) && (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08'))) return true;
    if (UNAVAILABLE_SOCKET_CODES.has(code)) return true;
    if (UNAVAILABLE_MESSAGES.some((m) => m.test(e.message))) return true;
  }
  return false;
}

// True when a statement broke a unique constraint (two saves of the same name at once, say).
export function isUniqueViolation(error: unknown): boolean {
  for (const e of errorChain(error)) if (isPostgresError(e) && e.code === '23505') return true;
  return false;
}

// What may be logged about a database error: its SQLSTATE, constraint, table and column, never values.
export function databaseErrorFields(error: unknown): Record<string, string> | undefined {
  let involved = false;
  for (const e of errorChain(error)) {
    if (e instanceof DrizzleQueryError) involved = true;
    if (!isPostgresError(e)) continue;
    const fields: Record<string, string> = {};
    for (const key of SAFE_DATABASE_FIELDS) if (typeof e[key] === 'string') fields[key] = e[key];
    return fields;
  }
  return involved ? {} : undefined;
}

// The stack's frames without its first line, which repeats the message (a failed query's message lists its parameters).
const framesOf = (error: Error) => (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line)).join('\n');

export interface SerializedError {
  type: string;
  message: string;
  stack: string;
  [key: string]: unknown;
}

// pino's `err` serializer and the text stored for failed work: any error that came out of a query is reduced
// to its code and names, because the driver's message, detail and parameters echo the row's values (PHI).
export function serializeError(error: unknown): SerializedError {
  // Already reduced (a caller picked its fields): kept as given.
  if (typeof error === 'object' && error !== null && !(error instanceof Error)) return { type: 'object', message: '', stack: '', ...error };
  if (!(error instanceof Error)) return { type: typeof error, message: String(error), stack: '' };
  const database = databaseErrorFields(error);
  if (database) {
    const what = [database.code && `SQLSTATE ${database.code}`, database.constraint && `constraint ${database.constraint}`].filter(Boolean).join(', ');
    return { type: 'DatabaseError', message: `Database query failed${what ? ` (${what})` : ''}`, ...database, stack: framesOf(error) };
  }
  const serialized: SerializedError = { type: error.constructor.name, message: error.message, stack: error.stack ?? '' };
  const code = (error as ErrorLike).code;
  if (typeof code === 'string') serialized.code = code;
  if (error.cause !== undefined) serialized.cause = serializeError(error.cause);
  return serialized;
}

// One line about an error that is safe to log or store (workflow errors): a database error's code only.
export function safeErrorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return databaseErrorFields(error) ? serializeError(error).message : error.message || error.name;
}

export interface ErrorHandlingOptions {
  // Keeps an answer 500's error under its reference id (platform/secure-logs.ts).
  recordSecureLog?: (entry: SecureLogEntry) => Promise<void>;
}

export function registerErrorHandling(app: FastifyInstance, options: ErrorHandlingOptions = {}): void {
  // Every answer 500 names a reference id; the error, reduced and PHI-redacted, is stored under it.
  const serverError = async (request: FastifyRequest, reply: FastifyReply, status: number, err: SerializedError) => {
    const referenceId = newReferenceId();
    request.log.error({ err, referenceId }, 'request failed');
    await options
      .recordSecureLog?.({
        referenceId,
        statusCode: status,
        method: request.method,
        route: request.routeOptions.url ?? 'unknown route',
        requestId: request.id,
        userId: request.authContext?.userId,
        organizationId: request.authContext?.organizationId,
        error: err,
      })
      .catch((e: unknown) => request.log.warn({ err: serializeError(e), referenceId }, 'the secure log could not be stored'));
    return reply.status(status).send({ message: serverErrorWithReference(referenceId), referenceId });
  };

  app.setErrorHandler(async (error: FastifyError | AppError, request, reply) => {
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: serializeError(error) }, 'database unavailable');
      error = new AppError(503, messages.serviceUnavailable, {}, DATABASE_RETRY_AFTER_SECONDS);
    }
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.status(error.statusCode).send({ message: error.message, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const modelState: Record<string, string[]> = {};
      for (const v of error.validation) {
        const field = v.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'request';
        (modelState[field] ??= []).push(v.message ?? messages.invalidRequest);
      }
      // One problem is said as itself ("Search must be at most 200 characters."), so a screen that shows only
      // the message still tells the user what to change; several keep the general heading over modelState.
      const texts = Object.values(modelState).flat();
      return reply.status(400).send({ message: texts.length === 1 ? texts[0]! : messages.invalidRequest, modelState });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: { message: error.message, method: error.method, url: error.url } }, 'response did not match its schema');
      return serverError(request, reply, 500, { type: 'ResponseSerializationError', message: 'response did not match its schema', stack: framesOf(error) });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) return serverError(request, reply, status, serializeError(error));
    // Fastify's own 4xx (malformed JSON, body too large, unsupported media type): its text is safe to show.
    return reply.status(status).send({ message: status === 429 ? messages.tooManyRequests : error.message });
  });
}
