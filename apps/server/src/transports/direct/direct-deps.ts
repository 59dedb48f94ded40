import type { Config, DirectConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { scannerFor } from '../../platform/antivirus/clamd.ts';
import type { Scanner } from '../../platform/antivirus/scanner.ts';
import type { BlobStore } from '../../platform/blobs/blob-store.ts';
import type { DiscoveryOptions } from '../../platform/direct/discovery.ts';
import { createIssuerFetcher, type IssuerFetcher } from '../../platform/direct/issuers.ts';
import { createRevocationChecker, type RevocationChecker } from '../../platform/direct/revocation.ts';
import { recordRevocationList } from './revocation-lists.ts';

// What the Direct transport needs, handed in where the app is assembled (main.ts, the workflow registry, tests).
export interface DirectDeps {
  db: Database;
  blobs: BlobStore;
  now: () => Date;
  config: DirectConfig;
  // BLOB_ENCRYPTION_KEY: opens the private keys of this HISP's certificates.
  masterKey: Uint8Array;
  discovery: DiscoveryOptions;
  revocation: RevocationChecker;
  // Issuers missing from a chain, fetched from AIA caIssuers URLs (issue 28 §1, DCDT D18).
  issuers: IssuerFetcher;
  // Attachments of received messages are scanned during the SMTP session (issue 26).
  scanner: Scanner;
}

export const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

export function createDirectDeps(opts: { config: Config; db: Database; blobs: BlobStore; now: () => Date }): DirectDeps {
  const dnsServers = opts.config.direct.dnsServers;
  const discovery = dnsServers ? { servers: dnsServers } : {};
  return {
    db: opts.db,
    blobs: opts.blobs,
    now: opts.now,
    config: opts.config.direct,
    masterKey: opts.config.blobEncryptionKey,
    discovery,
    revocation: createRevocationChecker({ now: opts.now, onListOutcome: (url, problem) => void recordRevocationList(opts.db, url, problem).catch(() => undefined) }),
    issuers: createIssuerFetcher({ dns: discovery, allowPrivate: opts.config.direct.aiaAllowPrivate, now: opts.now }),
    scanner: scannerFor(opts.config.clamd),
  };
}
