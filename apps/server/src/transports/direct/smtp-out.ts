import { createTransport } from 'nodemailer';
import type { SmtpRoute } from '../../config.ts';
import { resolveMx } from '../../platform/direct/dns.ts';
import { domainOf, type DirectDeps } from './direct-deps.ts';

// A failure that retrying will not fix (a 5xx reply): the recipient is marked failed with the server's words.
export class PermanentSmtpError extends Error {}

interface SmtpErrorShape {
  responseCode?: number;
  response?: string;
  code?: string;
}

// The route of the domain or of its nearest parent domain, else '*'.
export function smarthostFor(routes: ReadonlyMap<string, SmtpRoute>, domain: string): SmtpRoute | undefined {
  for (let name = domain; name.includes('.'); name = name.slice(name.indexOf('.') + 1)) {
    const route = routes.get(name);
    if (route) return route;
  }
  return routes.get('*');
}

/**
 * Hands a sealed Direct message to the recipient domain's mail server: a smarthost configured for the domain (or '*'),
 * else its MX hosts in preference order (the domain itself when it has none). STARTTLS is used when offered; the
 * server's TLS certificate is not judged, because the S/MIME layer already authenticates and protects the content.
 */
export async function sendOverSmtp(
  deps: Pick<DirectDeps, 'config' | 'discovery'>,
  envelope: { from: string; to: string[] },
  raw: Buffer,
): Promise<{ response: string; host: string }> {
  const domain = domainOf(envelope.to[0]!);
  const route = smarthostFor(deps.config.smarthosts, domain);
  const hosts = route ? [route] : (await resolveMx(domain, deps.discovery)).map((mx) => ({ host: mx.exchange, port: 25 }));
  let lastError: unknown = new Error(`No mail server found for ${domain}.`);
  for (const { host, port } of hosts) {
    const transport = createTransport({
      host,
      port,
      secure: false,
      name: deps.config.hostname,
      tls: { rejectUnauthorized: false },
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 120_000,
    });
    try {
      const info = await transport.sendMail({ envelope, raw });
      return { response: String(info.response), host: `${host}:${port}` };
    } catch (error) {
      const e = error as SmtpErrorShape;
      if (e.responseCode && e.responseCode >= 500) throw new PermanentSmtpError(`${host} refused the message: ${e.response ?? e.responseCode}`);
      lastError = new Error(`${host}:${port} could not take the message: ${e.response ?? (error as Error).message}`);
    } finally {
      transport.close();
    }
  }
  throw lastError;
}
