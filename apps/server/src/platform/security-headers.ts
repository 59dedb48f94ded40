import type { FastifyInstance } from 'fastify';

// Mantine injects <style> tags, hence 'unsafe-inline' for styles only; scripts come from our origin alone.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "worker-src 'self' blob:",
  "frame-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const existing = reply.getHeader('content-security-policy');
    // The API docs page brings its own CSP (hashes for its inline script); keep it and forbid framing.
    reply.header(
      'content-security-policy',
      typeof existing === 'string' && existing ? `${existing.replace(/;?\s*$/, '')}; frame-ancestors 'none'` : CSP,
    );
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
    reply.removeHeader('x-powered-by');
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
