import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { sha256, verifyAccessToken } from '../../platform/auth/tokens.ts';
import type { App } from '../../platform/http.ts';
import { captureBody, redactHeaders, redactUrl } from './redact.ts';
import * as q from './queries.ts';

// How long this process trusts its list of capturing organizations; a toggle made in this process applies at once,
// one made in another process within this time.
const SWITCH_TTL_MS = 5_000;
// Records are written in batches after their responses: at most this long after, or sooner when this many wait.
const FLUSH_DELAY_MS = 1_000;
const FLUSH_BATCH = 500;
// Beyond this many unwritten records (the database is down or slow) new ones are dropped and counted, so capture can
// never grow the heap without bound.
const MAX_PENDING = 5_000;
const SWEEP_INTERVAL_MS = 60 * 60_000;

// What onResponse keeps of a call: references only. Redaction, hashing and the insert happen in the flush, off the
// request's path.
interface PendingCapture {
  at: Date;
  method: string;
  url: string;
  route: string | undefined;
  requestHeaders: Record<string, unknown>;
  requestBody: unknown;
  statusCode: number;
  responseHeaders: Record<string, unknown>;
  payload: unknown;
  durationMs: number;
  organizationId: string | null;
  userId: string | null;
  // The bearer token of the call, or the access token a sign-in or renewal issued (organization found in the flush).
  token: string | undefined;
  issued: boolean;
}

export interface ApiCaptureRecorder {
  /** Writes every record taken so far (tests, shutdown). */
  flush(): Promise<void>;
  /** Reloads which organizations are captured (after a toggle). */
  refresh(): Promise<void>;
  /** Deletes records older than the retention; returns how many went. */
  sweep(): Promise<number>;
  readonly dropped: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    apiCapture: ApiCaptureRecorder;
  }
}

const kPayload = Symbol('apiCapturePayload');
type Stashed = FastifyRequest & { [kPayload]?: { payload: unknown; organizationId: string | null; issuedToken?: string } };

const TOGGLE_ROUTE = '/api/organizations/:id/apicapture';

export function registerApiCapture(app: App, deps: { db: Database; now: () => Date; signingKey: Uint8Array; retentionDays: number }): ApiCaptureRecorder {
  let capturing = new Set<string>();
  let loadedAt = -Infinity;
  let loading: Promise<void> | undefined;
  let pending: PendingCapture[] = [];
  let dropped = 0;
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  let sweepTimer: NodeJS.Timeout | undefined;

  const refresh = () =>
    (loading ??= q
      .capturingOrganizations(deps.db)
      .then((ids) => {
        capturing = new Set(ids);
        loadedAt = performance.now();
      })
      .catch((error: unknown) => app.log.warn({ err: { message: (error as Error).message } }, 'api capture: could not load the capturing organizations'))
      .finally(() => {
        loading = undefined;
      }));

  const write = async (batch: PendingCapture[]) => {
    try {
      const issued = batch.filter((c) => c.issued && c.token);
      if (issued.length) {
        const claims = new Map(issued.map((c) => [c, verifyAccessToken(deps.signingKey, c.token!, c.at)]));
        const sessions = await q.sessionOrganizations(deps.db, [...new Set([...claims.values()].flatMap((cl) => (cl ? [cl.sessionId] : [])))]);
        for (const [c, cl] of claims) {
          c.userId = cl?.userId ?? null;
          c.organizationId = (cl && sessions.get(cl.sessionId)) ?? null;
        }
      }
      const kept = batch.filter((c): c is PendingCapture & { organizationId: string } => !!c.organizationId && capturing.has(c.organizationId));
      if (kept.length === 0) return;
      const networks = await q.organizationNetworks(deps.db, [...new Set(kept.map((c) => c.organizationId))]);
      await q.insertCaptures(deps.db, kept.map((c) => toRow(c, networks.get(c.organizationId) ?? null)));
    } catch (error) {
      dropped += batch.length;
      app.log.warn({ err: { message: (error as Error).message }, records: batch.length }, 'api capture: records not written');
    }
  };

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length) writing = writing.then(() => write(batch));
    return writing;
  };

  const take = (capture: PendingCapture) => {
    if (pending.length >= MAX_PENDING) {
      dropped++;
      return;
    }
    pending.push(capture);
    if (pending.length >= FLUSH_BATCH) void flush();
    else timer ??= setTimeout(() => void flush(), FLUSH_DELAY_MS);
  };

  app.addHook('onReady', async () => {
    await refresh();
    sweepTimer = setInterval(() => void recorder.sweep().catch(() => undefined), SWEEP_INTERVAL_MS).unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(sweepTimer);
    await flush();
  });

  app.addHook('onSend', async (request: Stashed, _reply, payload) => {
    const route = request.routeOptions.url;
    if (!route?.startsWith('/api')) return payload;
    if (route === TOGGLE_ROUTE && request.method === 'PUT') await refresh();
    else if (performance.now() - loadedAt > SWITCH_TTL_MS) void refresh();
    if (capturing.size === 0) return payload;
    const organizationId = request.authContext?.organizationId ?? null;
    if (organizationId) {
      if (capturing.has(organizationId)) request[kPayload] = { payload, organizationId };
    } else if (!request.authContext && typeof payload === 'string' && payload.startsWith('{"accessToken":')) {
      // A sign-in or renewal: whose organization it is shows only in the session of the token it issued.
      const token = /^\{"accessToken":"([^"]+)"/.exec(payload)?.[1];
      if (token) request[kPayload] = { payload, organizationId: null, issuedToken: token };
    }
    return payload;
  });

  app.addHook('onResponse', async (request: Stashed, reply: FastifyReply) => {
    const stash = request[kPayload];
    if (!stash) return;
    const header = request.headers.authorization;
    take({
      at: new Date(deps.now().getTime() - reply.elapsedTime),
      method: request.method,
      url: request.url,
      route: request.routeOptions.url,
      requestHeaders: request.headers,
      requestBody: request.body,
      statusCode: reply.statusCode,
      responseHeaders: reply.getHeaders(),
      payload: stash.payload,
      durationMs: reply.elapsedTime,
      organizationId: stash.organizationId,
      userId: request.authContext?.userId ?? null,
      token: stash.issuedToken ?? (header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined),
      issued: !!stash.issuedToken,
    });
  });

  const recorder: ApiCaptureRecorder = {
    flush,
    refresh,
    sweep: () => q.deleteCapturesBefore(deps.db, new Date(deps.now().getTime() - deps.retentionDays * 86_400_000)),
    get dropped() {
      return dropped;
    },
  };
  app.decorate('apiCapture', recorder);
  return recorder;
}

const headerText = (headers: Record<string, unknown>, name: string) => {
  const value = headers[name];
  return typeof value === 'string' ? value : Array.isArray(value) ? String(value[0]) : typeof value === 'number' ? String(value) : '';
};

function toRow(c: PendingCapture & { organizationId: string }, networkId: string | null): q.NewCapture {
  const requestType = headerText(c.requestHeaders, 'content-type');
  const responseType = headerText(c.responseHeaders, 'content-type');
  const requestBytes = Number(headerText(c.requestHeaders, 'content-length')) || 0;
  const isStream = !!c.payload && typeof c.payload === 'object' && !Buffer.isBuffer(c.payload) && typeof (c.payload as { pipe?: unknown }).pipe === 'function';
  return {
    organizationId: c.organizationId,
    networkId,
    userId: c.userId,
    tokenHash: c.token ? sha256(c.token) : null,
    userIdSourceType: c.issued ? 'IssuedToken' : 'Token',
    capturedAt: c.at,
    method: c.method,
    url: redactUrl(c.url).slice(0, 4000),
    route: c.route ?? null,
    statusCode: c.statusCode,
    durationMs: c.durationMs,
    request: {
      url: redactUrl(c.url).slice(0, 4000),
      method: c.method,
      headers: redactHeaders(c.requestHeaders),
      ...captureBody({ contentType: requestType, parsed: c.requestBody, bytes: requestBytes || undefined }),
    },
    response: {
      status: c.statusCode,
      headers: redactHeaders(c.responseHeaders),
      ...captureBody({
        contentType: responseType,
        raw: isStream ? undefined : (c.payload as string | Buffer | null | undefined),
        stream: isStream,
        bytes: Number(headerText(c.responseHeaders, 'content-length')) || undefined,
      }),
    },
  };
}
