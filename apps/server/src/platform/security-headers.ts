import type { FastifyInstance } from 'fastify';

export interface SecurityHeaderOptions {
  /** PUBLIC_URL: its WebSocket origin is the only one scripts may connect to besides the page's own. */
  publicUrl: string | undefined;
  /** Other origins the web app calls (the emergency-organization service, issue 29 §6). */
  connectOrigins?: readonly string[];
}

// The WebSocket origin of PUBLIC_URL (wss://host for https, ws://host for http), for the live hub at /api/hub.
function webSocketOrigin(publicUrl: string): string {
  const url = new URL(publicUrl);
  return `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`;
}

// Mantine injects <style> tags, hence 'unsafe-inline' for styles only; scripts come from our origin alone.
export function contentSecurityPolicy(publicUrl: string | undefined, connectOrigins: readonly string[] = []): string {
  // Without PUBLIC_URL (development) 'self' alone: CSP3 browsers (Chromium since 70, Firefox, current
  // Safari) let it match ws/wss on the page's own host, the only host the web app opens /api/hub on.
  const connect = ["'self'", ...(publicUrl ? [webSocketOrigin(publicUrl)] : []), ...connectOrigins];
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    // Client applications' logos (issue 29: the OAuth consent screen) are on the vendors' own https sites.
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src ${connect.join(' ')}`,
    "worker-src 'self' blob:",
    "frame-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): void {
  const csp = contentSecurityPolicy(options.publicUrl, options.connectOrigins);
  // Only a deployment served over https may pin browsers to https (a plain-http one would lock them out).
  const hsts = options.publicUrl?.startsWith('https:') ? 'max-age=31536000; includeSubDomains' : undefined;
  app.addHook('onSend', async (request, reply, payload) => {
    const existing = reply.getHeader('content-security-policy');
    // The API docs page brings its own CSP (hashes for its inline script); keep it and forbid framing.
    reply.header(
      'content-security-policy',
      typeof existing === 'string' && existing ? `${existing.replace(/;?\s*$/, '')}; frame-ancestors 'none'` : csp,
    );
    if (hsts) reply.header('strict-transport-security', hsts);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
    reply.removeHeader('x-powered-by');
    if (request.url.startsWith('/api/') || request.url.startsWith('/odata/')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
