import { Unzip, UnzipInflate, unzipSync, zipSync, type Zippable } from 'fflate';
import { detectExtension, detectMimeType } from 'nodemailer/lib/mime-funcs';
import type { AttachmentMeta } from '../../db/schema/messages.ts';
import type { InboundPatient } from '../../transports/local.ts';
import { escapeXml } from '../cda/cda-document.ts';
import { decodeText } from '../files/file-types.ts';
import { randomOid, readXdmMetadata, writeXdmMetadata, type XdmEntry } from './xdm-metadata.ts';

// IHE XDM (ITI TF-1 §16) over Direct: a zip holding INDEX.HTM, README.TXT and IHE_XDM/<SUBSET>/ folders,
// each with METADATA.XML and the documents it describes. The zip comes from outside: its listing is
// checked (entries, declared sizes, compression ratios) before anything is inflated, and inflation
// stops as soon as a file grows past what the listing declared or the package past its limit.

export interface XdmDocument {
  fileName: string;
  mimeType: string;
  bytes: Buffer;
  meta: AttachmentMeta | null;
}

const MAX_ENTRIES = 500;
const MAX_UNPACKED_BYTES = 200 * 1024 * 1024;
// Real documents compress far less than this; zip bombs (a run of zeros) reach about 1000:1.
const MAX_RATIO = 500;
const RATIO_CHECKED_ABOVE_BYTES = 1024 * 1024;
const MAX_METADATA_BYTES = 20 * 1024 * 1024;
// The zip is fed to the inflater in slices, so one slice can grow by at most ~1000× before the limits are checked.
const SLICE_BYTES = 16 * 1024;
const MAX_FILE_NAME_CHARS = 200;
const XDM_ROOT = 'IHE_XDM';
const SUBSET = 'SUBSET01';

interface ZipEntry {
  name: string;
  compressedSize: number;
  size: number;
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

// IHE_XDM/<subset>/<file...>: the subset folder and the path inside it, or null for anything else.
function xdmPath(name: string): { subset: string; path: string } | null {
  const parts = name.replace(/\\/g, '/').split('/');
  if (parts.length < 3 || parts[0]!.toUpperCase() !== XDM_ROOT || !parts[1] || !parts.at(-1)) return null;
  return { subset: parts[1], path: parts.slice(2).join('/') };
}

const looksLikeZip = (bytes: Uint8Array) => bytes.length >= 22 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

// The central directory's listing, without inflating anything.
function listEntries(zip: Uint8Array): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let tooMany = false;
  try {
    unzipSync(zip, {
      filter: (file) => {
        if (entries.length >= MAX_ENTRIES) {
          tooMany = true;
          throw new Error('too many entries');
        }
        entries.push({ name: file.name, compressedSize: file.size, size: file.originalSize });
        return false;
      },
    });
  } catch {
    throw new Error(tooMany ? `The XDM package holds more than ${MAX_ENTRIES} files.` : 'The XDM package is not a readable zip file.');
  }
  return entries;
}

function refuseBombs(entries: ZipEntry[]): void {
  let total = 0;
  for (const entry of entries) {
    total += entry.size;
    if (total > MAX_UNPACKED_BYTES) throw new Error(`The XDM package unpacks to more than ${mb(MAX_UNPACKED_BYTES)}.`);
    if (entry.size > RATIO_CHECKED_ABOVE_BYTES && entry.size > entry.compressedSize * MAX_RATIO) {
      throw new Error(`The XDM package was refused: "${baseName(entry.name)}" claims to unpack ${MAX_RATIO} times larger than it is packed, as a zip bomb does.`);
    }
  }
}

// Inflates the named entries, counting what actually comes out rather than trusting the listing.
function inflateEntries(zip: Uint8Array, wanted: Map<string, ZipEntry>): Map<string, Buffer> {
  const contents = new Map<string, Buffer>();
  let failure: Error | null = null;
  let total = 0;
  const unzip = new Unzip((file) => {
    const entry = wanted.get(file.name);
    if (!entry || contents.has(file.name) || failure) return;
    const chunks: Uint8Array[] = [];
    let size = 0;
    file.ondata = (error, data, final) => {
      if (failure) return;
      if (error) {
        failure = new Error(`The XDM package is damaged: "${baseName(file.name)}" could not be unpacked.`);
        return;
      }
      size += data.length;
      total += data.length;
      if (size > entry.size) failure = new Error(`The XDM package was refused: "${baseName(file.name)}" unpacks larger than the zip declares.`);
      else if (total > MAX_UNPACKED_BYTES) failure = new Error(`The XDM package unpacks to more than ${mb(MAX_UNPACKED_BYTES)}.`);
      else {
        chunks.push(data);
        if (final) contents.set(file.name, Buffer.concat(chunks, size));
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let offset = 0; offset < zip.length && !failure; offset += SLICE_BYTES) {
      unzip.push(zip.subarray(offset, offset + SLICE_BYTES), offset + SLICE_BYTES >= zip.length);
    }
  } catch {
    failure ??= new Error('The XDM package is damaged and could not be unpacked.');
  }
  if (failure) throw failure;
  for (const name of wanted.keys()) {
    if (!contents.has(name)) throw new Error(`The XDM package is damaged: "${baseName(name)}" could not be unpacked.`);
  }
  return contents;
}

/** Whether the bytes are a zip holding an IHE_XDM folder (never throws: anything unreadable is not XDM). */
export function isXdmPackage(zip: Uint8Array): boolean {
  if (!looksLikeZip(zip)) return false;
  try {
    return listEntries(zip).some((entry) => xdmPath(entry.name) !== null);
  } catch {
    return false;
  }
}

/** The text without a trailing lone high surrogate, which cutting a string at a length can leave. */
export const withoutBrokenEnd = (text: string) => text.replace(/[\uD800-\uDBFF]$/, '');

/** A file name safe to show and store: no folders, no control characters, not too long; may be empty. */
export function cleanFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = baseName(name.replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (cleaned.length <= MAX_FILE_NAME_CHARS) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const extension = dot > 0 && cleaned.length - dot <= 10 ? cleaned.slice(dot) : '';
  return withoutBrokenEnd(cleaned.slice(0, MAX_FILE_NAME_CHARS - extension.length)) + extension;
}

const extensionOf = (name: string) => (name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : '');

function metadataOf(bytes: Buffer | undefined): XdmEntry[] {
  if (!bytes || bytes.length > MAX_METADATA_BYTES) return [];
  try {
    return readXdmMetadata(decodeText(bytes));
  } catch {
    // A broken METADATA.XML loses the descriptions, never the documents.
    return [];
  }
}

/**
 * The documents of an XDM package, with what its metadata says about each and about the patient. Only the
 * files a subset's METADATA.XML lists are documents; throws an Error with a plain reason when the zip is
 * unreadable, too large, or a zip bomb.
 */
export function readXdmPackage(zip: Uint8Array): { documents: XdmDocument[]; patient: InboundPatient | null; unlisted: string[] } {
  if (!looksLikeZip(zip)) throw new Error('The XDM package is not a zip file.');
  // A name listed twice is read once: the first one, as unzip tools do.
  const seen = new Set<string>();
  const entries = listEntries(zip).filter((entry) => xdmPath(entry.name) !== null && !seen.has(entry.name) && seen.add(entry.name));
  if (!entries.length) throw new Error(`The zip file is not an XDM package: it has no ${XDM_ROOT} folder.`);
  refuseBombs(entries);
  const metadataFiles = entries.filter((entry) => xdmPath(entry.name)!.path.toUpperCase() === 'METADATA.XML');
  const metadata = inflateEntries(zip, new Map(metadataFiles.map((entry) => [entry.name, entry])));

  // Which entry each described document is, per subset: a file no METADATA.XML lists is never inflated.
  const described = new Map<string, XdmEntry>();
  let patient: InboundPatient | null = null;
  for (const metadataFile of metadataFiles) {
    const subset = xdmPath(metadataFile.name)!.subset;
    const listed = metadataOf(metadata.get(metadataFile.name));
    const byPath = new Map(listed.map((entry) => [entry.uri.replace(/\\/g, '/').replace(/^\.?\//, '').toLowerCase(), entry]));
    patient ??= listed.find((entry) => entry.patient)?.patient ?? null;
    for (const entry of entries) {
      const path = xdmPath(entry.name)!;
      if (path.subset !== subset || entry === metadataFile) continue;
      const match = byPath.get(path.path.toLowerCase()) ?? byPath.get(baseName(path.path).toLowerCase());
      if (match) described.set(entry.name, match);
    }
  }
  // Files METADATA.XML does not list (.DS_Store, Thumbs.db, anything) are refused as documents and named back to the caller.
  const unlisted = entries.filter((entry) => !metadataFiles.includes(entry) && !described.has(entry.name)).map((entry) => cleanFileName(entry.name));
  const contents = inflateEntries(zip, new Map(entries.filter((entry) => described.has(entry.name)).map((entry) => [entry.name, entry])));

  const documents: XdmDocument[] = [];
  for (const [name, entry] of described) {
    const fileName = cleanFileName(entry.uri) || `document-${documents.length + 1}`;
    const mimeType = entry.mimeType ?? detectMimeType(extensionOf(fileName));
    documents.push({ fileName, mimeType, bytes: contents.get(name)!, meta: entry.meta });
  }
  return { documents, patient, unlisted };
}

// ---- building ----

// Zip entry names other systems can open: the file's own name with unusual characters replaced, unique.
function packageFileNames(names: string[]): string[] {
  const used = new Set<string>();
  return names.map((name, index) => {
    const safe = cleanFileName(name).replace(/[^A-Za-z0-9._ -]/g, '_').replace(/^\.+/, '') || `DOC${String(index + 1).padStart(4, '0')}`;
    let candidate = safe;
    for (let n = 2; used.has(candidate.toLowerCase()); n++) {
      const dot = safe.lastIndexOf('.');
      candidate = dot > 0 ? `${safe.slice(0, dot)}-${n}${safe.slice(dot)}` : `${safe}-${n}`;
    }
    used.add(candidate.toLowerCase());
    return candidate;
  });
}

/** An XDM package (zip) of the documents, all about the given patient, as one submission set. */
export function buildXdmPackage(input: {
  documents: { fileName: string; mimeType: string; bytes: Uint8Array; title?: string; documentType?: string | null; loincCode?: string | null; documentDate?: Date | null }[];
  patient: InboundPatient | null;
  author?: string;
  /** The sender's Direct address (the metadata's authorTelecommunication). */
  authorAddress?: string | null;
  /** The recipient's Direct address (the metadata's intendedRecipient). */
  recipient?: string | null;
  sourceId?: string;
}): Buffer {
  if (!input.documents.length) throw new Error('An XDM package needs at least one document.');
  if (input.documents.length > MAX_ENTRIES - 3) throw new Error(`An XDM package holds at most ${MAX_ENTRIES - 3} documents.`);
  const names = packageFileNames(input.documents.map((document) => document.fileName || `document.${detectExtension(document.mimeType)}`));
  const author = input.author ?? 'ClinicRelay';
  const metadata = writeXdmMetadata({
    documents: input.documents.map((document, index) => ({
      uri: names[index]!,
      mimeType: document.mimeType,
      bytes: document.bytes,
      title: document.title ?? document.fileName,
      documentType: document.documentType ?? null,
      loincCode: document.loincCode ?? null,
      documentDate: document.documentDate ?? null,
    })),
    patient: input.patient,
    author,
    authorAddress: input.authorAddress ?? null,
    recipient: input.recipient ?? null,
    sourceId: input.sourceId ?? randomOid(),
    now: new Date(),
  });
  const index = [
    '<!DOCTYPE html>',
    '<html><head><meta charset="utf-8"><title>XDM package</title></head><body>',
    `<h1>Documents sent by ${escapeXml(author)}</h1>`,
    '<ul>',
    ...names.map((name, i) => `<li><a href="${XDM_ROOT}/${SUBSET}/${encodeURIComponent(name)}">${escapeXml(input.documents[i]!.title ?? name)}</a></li>`),
    '</ul>',
    `<p><a href="${XDM_ROOT}/${SUBSET}/METADATA.XML">Metadata</a> (IHE XDM)</p>`,
    '</body></html>',
  ].join('\r\n');
  const readme = [
    'This is an IHE XDM package (IHE ITI Technical Framework, Cross-Enterprise Document Media Interchange).',
    `Made by ClinicRelay for ${author}.`,
    `The documents and their metadata are in ${XDM_ROOT}/${SUBSET}/; INDEX.HTM lists them.`,
    '',
  ].join('\r\n');
  const files: Zippable = {
    'INDEX.HTM': Buffer.from(index),
    'README.TXT': Buffer.from(readme),
    [`${XDM_ROOT}/${SUBSET}/METADATA.XML`]: Buffer.from(metadata),
  };
  input.documents.forEach((document, i) => (files[`${XDM_ROOT}/${SUBSET}/${names[i]!}`] = document.bytes));
  return Buffer.from(zipSync(files, { level: 6 }));
}
