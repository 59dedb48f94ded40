import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, FastifySerializerCompiler, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import { ResponseSerializationError, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Role } from '@clinicrelay/contracts/roles.ts';

// Who may call a route, declared on every /api route (DESIGN.md "Roles"): 'public', any signed-in
// user ('authenticated'), or a list of roles. app.ts refuses to start when an /api route has none.
export type RouteRoles = 'public' | 'authenticated' | readonly Role[];

declare module 'fastify' {
  interface FastifyContextConfig {
    roles?: RouteRoles;
    // Routes a browser opens directly (API docs) may read the access token from the docs cookie.
    docsCookie?: boolean;
  }
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

// Responses are checked (unknown keys dropped, shapes enforced) with zod's parse rather than the type provider's
// safeEncode: the same result, since no response schema is a codec, at a fraction of the cost (zod compiles parse,
// not encode: a 20-entry directory page takes 29 µs against 74).
export const responseSerializerCompiler: FastifySerializerCompiler<z.ZodType | { properties: z.ZodType }> = ({ schema, method, url }) => {
  const zod = schema instanceof z.ZodType ? schema : schema.properties;
  return (data) => {
    const result = zod.safeParse(data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};

// How long a refused upload's connection goes on discarding what the client still sends (nginx's lingering_time).
const LINGER_MS = 2_000;

// Answering before a request body was read to its end (a refused upload) closes the connection, so the client
// cannot stream the rest into a server that would read and discard it. The close lingers: the server half-closes
// and drains for up to LINGER_MS, because a socket closed with unread data sends a reset, and a reset reaching the
// client before it has read the answer loses the answer (a flaky 413 under load).
export function closeUnreadBody(request: FastifyRequest, reply: FastifyReply) {
  const req = request.raw;
  if (req.readableEnded) return;
  reply.header('connection', 'close');
  const socket = req.socket as (Socket & { destroySoon?: () => void }) | undefined;
  // Injected requests have no real socket to linger on.
  if (typeof socket?.destroySoon !== 'function') return;
  req.unpipe();
  req.resume();
  // Node's server calls destroySoon once a `connection: close` answer is written; end() sends FIN and goes on reading.
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

// RFC 6266/5987: an ASCII fallback name and the exact name in UTF-8 (attachments, downloads).
export function contentDisposition(fileName: string, disposition: 'inline' | 'attachment' = 'inline') {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
