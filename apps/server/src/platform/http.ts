import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
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
