import { X509Certificate } from 'node:crypto';
import { trustAnchorMessages as text, type TrustAnchorListItem, type TrustBundle } from '@clinicrelay/contracts/trust-anchors.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { AppError, badRequest, isUniqueViolation, notFound, serializeError } from '../../platform/errors.ts';
import { BundleUnavailable, downloadBundle, type BundleFetch } from './bundle-download.ts';
import * as q from './queries.ts';
import { bundleChecksum, readAnchorCertificate, readBundle, type AnchorCertificate } from './trust-files.ts';

export interface TrustAnchorsDeps {
  db: Database;
  now: () => Date;
  /** Reads a bundle's URL; downloadBundle (10 s, 10 MB) unless given. */
  fetch?: BundleFetch;
}

interface ListQuery {
  search?: string | undefined;
  sortDir?: 'asc' | 'desc' | undefined;
  pageNumber: number;
  pageSize: number;
}

interface Scope {
  domain: string | null;
  incoming: boolean;
  outgoing: boolean;
}

export interface AnchorUpload extends Scope {
  name: string;
  file: { fileName: string; bytes: Buffer };
}

export interface BundleSettings extends Scope {
  name: string;
  url: string | null;
  refreshIntervalMinutes: number;
}

export interface BundleUpload extends BundleSettings {
  file: { fileName: string; bytes: Buffer } | undefined;
}

const anchorItem = (row: q.AnchorListRow, now: Date): TrustAnchorListItem => ({
  ...row,
  notAfter: row.notAfter.toISOString(),
  expired: row.notAfter.getTime() <= now.getTime(),
});

const bundleItem = (row: q.BundleWithCount): TrustBundle => ({
  id: row.id,
  name: row.name,
  url: row.url,
  domain: row.domain,
  incoming: row.incoming,
  outgoing: row.outgoing,
  refreshIntervalMinutes: row.refreshIntervalMinutes,
  checksum: row.checksum,
  lastRefreshedAt: row.lastRefreshedAt?.toISOString() ?? null,
  lastError: row.lastError,
  anchorCount: row.anchorCount,
});

const anchorValues = (certificate: AnchorCertificate, name: string, scope: Scope, bundleId: string | null): q.AnchorValues => ({
  name,
  bundleId,
  domain: scope.domain,
  incoming: scope.incoming,
  outgoing: scope.outgoing,
  subject: certificate.subject,
  thumbprintSha256: certificate.thumbprintSha256,
  notAfter: certificate.notAfter,
  certificateDer: certificate.der,
});

const bundleAnchors = (bundleId: string, scope: Scope, certificates: AnchorCertificate[]) => certificates.map((c) => anchorValues(c, c.commonName, scope, bundleId));

// ---- Anchors added by hand ----

export async function listAnchors(deps: TrustAnchorsDeps, query: ListQuery) {
  const page = await q.findAnchorPage(deps.db, query, query);
  const now = deps.now();
  return { totalCount: page.totalCount, items: page.items.map((row) => anchorItem(row, now)) };
}

async function getAnchor(deps: TrustAnchorsDeps, id: string) {
  const row = await q.findAnchorById(deps.db, id);
  if (!row) throw notFound();
  return anchorItem(row, deps.now());
}

export async function addAnchor(deps: TrustAnchorsDeps, caller: AdminCaller, upload: AnchorUpload) {
  const certificate = readAnchorCertificate(upload.file.bytes, deps.now());
  const id = await deps.db.transaction(async (tx) => {
    await q.lockThumbprint(tx, certificate.thumbprintSha256);
    if (await q.findHandAnchorByThumbprint(tx, certificate.thumbprintSha256)) throw badRequest(text.duplicate, { file: [text.duplicate] });
    const row = await q.insertAnchor(tx, anchorValues(certificate, upload.name, upload, null));
    await writeAudit(tx, {
      eventType: 'TrustAnchorAdded',
      ...auditedByAdmin(caller),
      details: { anchorId: row.id, name: upload.name, subject: certificate.subject, thumbprintSha256: certificate.thumbprintSha256, domain: upload.domain, incoming: upload.incoming, outgoing: upload.outgoing },
    });
    return row.id;
  });
  return getAnchor(deps, id);
}

// A bundle's anchors are replaced at each refresh: a change by hand would silently vanish.
async function handAnchor(tx: DbOrTx, id: string) {
  const row = await q.findAnchorById(tx, id);
  if (!row) throw notFound();
  if (row.bundleId) throw badRequest(text.fromBundle);
  return row;
}

export async function updateAnchor(deps: TrustAnchorsDeps, caller: AdminCaller, id: string, body: Scope & { name: string }) {
  await deps.db.transaction(async (tx) => {
    const before = await handAnchor(tx, id);
    await q.updateAnchor(tx, id, { name: body.name, domain: body.domain, incoming: body.incoming, outgoing: body.outgoing });
    await writeAudit(tx, {
      eventType: 'TrustAnchorChanged',
      ...auditedByAdmin(caller),
      details: {
        anchorId: id,
        thumbprintSha256: before.thumbprintSha256,
        before: { name: before.name, domain: before.domain, incoming: before.incoming, outgoing: before.outgoing },
        after: body,
      },
    });
  });
  return getAnchor(deps, id);
}

export async function deleteAnchor(deps: TrustAnchorsDeps, caller: AdminCaller, id: string) {
  await deps.db.transaction(async (tx) => {
    const row = await handAnchor(tx, id);
    await q.deleteAnchor(tx, id);
    await writeAudit(tx, { eventType: 'TrustAnchorDeleted', ...auditedByAdmin(caller), details: { anchorId: id, name: row.name, subject: row.subject, thumbprintSha256: row.thumbprintSha256 } });
  });
  return { ok: true as const };
}

// ---- Trust bundles ----

export async function listBundles(deps: TrustAnchorsDeps, query: ListQuery) {
  const page = await q.findBundlePage(deps.db, query, query);
  return { totalCount: page.totalCount, items: page.items.map(bundleItem) };
}

async function getBundle(deps: TrustAnchorsDeps, id: string) {
  const row = await q.findBundle(deps.db, id);
  if (!row) throw notFound();
  return bundleItem(row);
}

const nameTaken = () => badRequest(text.nameTaken, { name: [text.nameTaken] });

// An administrator's URL is read at once: a failure is the 400 the form shows under URL.
async function readUrlNow(deps: TrustAnchorsDeps, url: string) {
  try {
    const bytes = await (deps.fetch ?? downloadBundle)(url);
    return { bytes, certificates: readBundle(bytes, 'url') };
  } catch (error) {
    if (error instanceof BundleUnavailable) throw badRequest(error.message, { url: [error.message] });
    throw error;
  }
}

export async function addBundle(deps: TrustAnchorsDeps, caller: AdminCaller, upload: BundleUpload) {
  const { file, ...settings } = upload;
  if (file && settings.url) throw badRequest(text.bundleSourceBoth, { url: [text.bundleSourceBoth] });
  if (!file && !settings.url) throw badRequest(text.bundleSourceRequired, { file: [text.bundleSourceRequired] });
  if (await q.bundleNameTaken(deps.db, settings.name)) throw nameTaken();
  const { bytes, certificates } = file ? { bytes: file.bytes, certificates: readBundle(file.bytes) } : await readUrlNow(deps, settings.url!);
  const checksum = bundleChecksum(bytes);
  const id = await deps.db.transaction(async (tx) => {
    const bundleId = await q.insertBundle(tx, { ...settings, checksum, lastRefreshedAt: deps.now(), lastError: null });
    if (!bundleId) throw nameTaken();
    await q.replaceBundleAnchors(tx, bundleId, bundleAnchors(bundleId, settings, certificates));
    await writeAudit(tx, {
      eventType: 'TrustBundleAdded',
      ...auditedByAdmin(caller),
      details: { bundleId, name: settings.name, url: settings.url, fileName: file?.fileName ?? null, checksum, anchorCount: certificates.length, thumbprintsSha256: certificates.map((c) => c.thumbprintSha256) },
    });
    return bundleId;
  });
  return getBundle(deps, id);
}

export async function updateBundle(deps: TrustAnchorsDeps, caller: AdminCaller, id: string, settings: BundleSettings) {
  const before = await q.findBundle(deps.db, id);
  if (!before) throw notFound();
  if (await q.bundleNameTaken(deps.db, settings.name, id)) throw nameTaken();
  // A new URL is read before anything changes, so a wrong one leaves the bundle as it was.
  const read = settings.url && settings.url !== before.url ? await readUrlNow(deps, settings.url) : undefined;
  try {
    await deps.db.transaction(async (tx) => {
      if (!(await q.lockBundle(tx, id))) throw notFound();
      const checksum = read ? bundleChecksum(read.bytes) : undefined;
      await q.updateBundle(tx, id, { ...settings, ...(read ? { checksum, lastRefreshedAt: deps.now(), lastError: null } : {}) });
      if (read) await q.replaceBundleAnchors(tx, id, bundleAnchors(id, settings, read.certificates));
      else await q.setBundleAnchorsScope(tx, id, { domain: settings.domain, incoming: settings.incoming, outgoing: settings.outgoing });
      await writeAudit(tx, {
        eventType: 'TrustBundleChanged',
        ...auditedByAdmin(caller),
        details: {
          bundleId: id,
          before: { name: before.name, url: before.url, domain: before.domain, incoming: before.incoming, outgoing: before.outgoing, refreshIntervalMinutes: before.refreshIntervalMinutes },
          after: settings,
          ...(read ? { checksum, anchorCount: read.certificates.length } : {}),
        },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
  return getBundle(deps, id);
}

export async function deleteBundle(deps: TrustAnchorsDeps, caller: AdminCaller, id: string) {
  await deps.db.transaction(async (tx) => {
    const before = await q.findBundle(tx, id);
    if (!before || !(await q.deleteBundle(tx, id))) throw notFound();
    await writeAudit(tx, { eventType: 'TrustBundleDeleted', ...auditedByAdmin(caller), details: { bundleId: id, name: before.name, url: before.url, anchorCount: before.anchorCount } });
  });
  return { ok: true as const };
}

/**
 * Reads a URL bundle again. A new checksum replaces its anchors; the same one only records the time; a failure keeps
 * the anchors and records the reason in lastError (lastRefreshedAt stays the last successful read, so the next timer
 * tick tries again). The network call happens before the transaction; the row lock makes concurrent refreshes of one
 * bundle (several processes) write one after the other, and the second sees the checksum already stored. True when
 * the bundle was read.
 */
async function refreshBundle(deps: TrustAnchorsDeps, bundle: q.BundleRow, caller: AdminCaller | null): Promise<boolean> {
  const failed = async (reason: string) => {
    await q.updateBundle(deps.db, bundle.id, { lastError: reason });
    if (caller) await writeAudit(deps.db, { eventType: 'TrustBundleRefreshFailed', ...auditedByAdmin(caller), details: { bundleId: bundle.id, name: bundle.name, reason } });
    return false;
  };
  let bytes: Uint8Array;
  try {
    bytes = await (deps.fetch ?? downloadBundle)(bundle.url!);
  } catch (error) {
    // A fetch given by a caller may fail in its own words; those are not shown to administrators.
    return failed(error instanceof BundleUnavailable ? error.message : new BundleUnavailable('the download failed').message);
  }
  let certificates: AnchorCertificate[];
  try {
    certificates = readBundle(bytes, 'url');
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return failed(error.message);
  }
  const checksum = bundleChecksum(bytes);
  return deps.db.transaction(async (tx) => {
    const current = await q.lockBundle(tx, bundle.id);
    // Deleted, or given another URL, while this one was being read.
    if (!current || current.url !== bundle.url) return false;
    const changed = current.checksum !== checksum;
    if (changed) await q.replaceBundleAnchors(tx, current.id, bundleAnchors(current.id, current, certificates));
    await q.updateBundle(tx, current.id, { checksum, lastRefreshedAt: deps.now(), lastError: null });
    if (changed || caller) {
      await writeAudit(tx, {
        eventType: 'TrustBundleRefreshed',
        ...(caller ? auditedByAdmin(caller) : {}),
        details: { bundleId: current.id, name: current.name, changed, checksum, anchorCount: certificates.length, ...(changed ? { previousChecksum: current.checksum } : {}) },
      });
    }
    return true;
  });
}

/** POST /api/configuration/bundles/{id}/refresh: the bundle as it is after the attempt (lastError set when it failed). */
export async function refreshBundleNow(deps: TrustAnchorsDeps, caller: AdminCaller, id: string) {
  const bundle = await q.findBundle(deps.db, id);
  if (!bundle) throw notFound();
  if (!bundle.url) throw badRequest(text.refreshFromFile);
  await refreshBundle(deps, bundle, caller);
  return getBundle(deps, id);
}

// ---- For the Direct transport and the processes that run it ----

/** DER of every anchor that applies to a domain hosted here (anchor.domain null or equal, case-insensitive), for one direction. */
/** An anchor's certificate as PEM, named after the anchor (letters, digits, '-' only). */
export async function anchorCertificatePem(deps: TrustAnchorsDeps, id: string): Promise<{ pem: string; fileName: string }> {
  const anchor = await q.findAnchorCertificate(deps.db, id);
  if (!anchor) throw notFound();
  const fileName = `${anchor.name.replace(/[^A-Za-z0-9-]+/g, '-').replace(/^-|-$/g, '') || 'anchor'}.pem`;
  return { pem: new X509Certificate(anchor.certificateDer).toString(), fileName };
}

export async function findAnchors(db: DbOrTx, opts: { domain: string; direction: 'incoming' | 'outgoing' }): Promise<Buffer[]> {
  const ders = await q.findApplicableAnchors(db, opts.domain, opts.direction);
  return ders.map((der) => Buffer.from(der));
}

/** Refreshes every URL bundle whose lastRefreshedAt + interval has passed; returns how many were refreshed. */
export async function refreshDueBundles(deps: { db: Database; now: () => Date; fetch?: (url: string) => Promise<Uint8Array> }): Promise<number> {
  let refreshed = 0;
  for (const bundle of await q.findDueBundles(deps.db, deps.now())) {
    if (await refreshBundle(deps, bundle, null)) refreshed++;
  }
  return refreshed;
}

export const BUNDLE_REFRESH_INTERVAL_MS = 5 * 60_000;

export interface RefreshLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

// Refreshes due bundles now and then every intervalMs, in the background (the timer does not keep the process alive).
export function startBundleRefresh(opts: { db: Database; now: () => Date; logger: RefreshLogger; intervalMs?: number; fetch?: BundleFetch }): { stop(): void } {
  let running: Promise<void> | undefined;
  const tick = () => {
    // A slow round (many bundles, slow servers) is not started twice over itself.
    running ??= refreshDueBundles(opts)
      .then((count) => {
        if (count > 0) opts.logger.info({ count }, 'refreshed trust bundles');
      })
      .catch((error: unknown) => opts.logger.warn({ err: serializeError(error) }, 'trust bundle refresh failed; will try again'))
      .finally(() => (running = undefined));
  };
  tick();
  const timer = setInterval(tick, opts.intervalMs ?? BUNDLE_REFRESH_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
