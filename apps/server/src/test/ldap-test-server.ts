import { createRequire } from 'node:module';

// An LDAP directory on 127.0.0.1 for tests of Direct certificate discovery (ldapjs, which has no types:
// the little used here is declared below). It answers the rootDSE with its naming contexts, and subtree
// searches below them over entries holding `mail` and `userCertificate;binary`.

export interface LdapTestEntry {
  dn: string;
  mail: string;
  /** DER certificates, published as `userCertificate;binary`. */
  certificates: Uint8Array[];
}

export interface LdapTestServer {
  port: number;
  close(): Promise<void>;
}

interface LdapDn {
  equals(other: LdapDn): boolean;
  parentOf(other: LdapDn): boolean;
  toString(): string;
}
interface LdapAttribute {
  type: string;
}
interface LdapSearchRequest {
  dn: LdapDn;
  scopeName: 'base' | 'one' | 'sub';
  attributes: string[];
  filter: { matches(entry: Record<string, string[]>, strictAttributeCase?: boolean): boolean };
}
interface LdapSearchResponse {
  createSearchEntry(entry: { objectName: LdapDn; attributes: LdapAttribute[] }): unknown;
  send(entry: unknown): void;
  end(): void;
}
interface LdapServer {
  search(base: string, handler: (req: LdapSearchRequest, res: LdapSearchResponse, next: (error?: Error) => void) => void): void;
  listen(port: number, host: string, callback: () => void): void;
  close(callback: () => void): void;
  address(): { port: number };
  on(event: 'error', listener: (error: Error) => void): void;
}
interface LdapJs {
  createServer(): LdapServer;
  parseDN(dn: string): LdapDn;
  Attribute: new (options: { type: string; values: (string | Buffer)[] }) => LdapAttribute;
  NoSuchObjectError: new (dn?: string) => Error;
}

const ldap = createRequire(import.meta.url)('ldapjs') as LdapJs;

export async function startLdapTestServer(
  entries: LdapTestEntry[],
  options: { namingContexts?: string[] } = {},
): Promise<LdapTestServer> {
  const namingContexts = options.namingContexts ?? ['dc=example,dc=test'];
  const contexts = namingContexts.map((dn) => ldap.parseDN(dn));
  const stored = entries.map((entry) => ({ ...entry, parsedDn: ldap.parseDN(entry.dn) }));
  const server = ldap.createServer();

  // The entry's attributes, only those the client asked for (all when it named none or '*').
  const send = (res: LdapSearchResponse, req: LdapSearchRequest, dn: LdapDn, attributes: Record<string, (string | Buffer)[]>) => {
    const wanted = req.attributes.map((name) => name.toLowerCase());
    const all = wanted.length === 0 || wanted.includes('*');
    res.send(
      res.createSearchEntry({
        objectName: dn,
        attributes: Object.entries(attributes)
          .filter(([type]) => all || wanted.includes(type.toLowerCase()))
          .map(([type, values]) => new ldap.Attribute({ type, values })),
      }),
    );
  };

  server.search('', (req, res, next) => {
    if (req.dn.toString() === '' && req.scopeName === 'base') {
      send(res, req, req.dn, { objectClass: ['top'], namingContexts, supportedLDAPVersion: ['3'] });
      return res.end();
    }
    const within = (ancestor: LdapDn, dn: LdapDn) => ancestor.equals(dn) || ancestor.parentOf(dn);
    if (!contexts.some((context) => within(context, req.dn))) return next(new ldap.NoSuchObjectError(req.dn.toString()));
    for (const entry of stored) {
      if (!within(req.dn, entry.parsedDn)) continue;
      const searchable = { objectClass: ['top', 'inetOrgPerson'], mail: [entry.mail] };
      if (!req.filter.matches(searchable, false)) continue;
      send(res, req, entry.parsedDn, {
        ...searchable,
        'userCertificate;binary': entry.certificates.map((der) => Buffer.from(der)),
      });
    }
    return res.end();
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: () => new Promise<void>((resolve) => server.close(resolve)),
  };
}
