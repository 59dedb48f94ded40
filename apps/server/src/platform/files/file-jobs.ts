import { attachmentMessages, type SupportedExtension } from '@clinicrelay/contracts/attachments.ts';
import { AppError, badRequest } from '../errors.ts';
import { WorkerFailure, type WorkerPool } from '../workers/worker-pool.ts';
import type { FileKind } from './file-types.ts';
import { imageBudgetRefusal } from './image-size.ts';
import type { PdfCondition } from './pdf-check.ts';
import type { PdfTransforms } from './renditions.ts';

// The API's side of file work: cheap header checks here, anything that parses or decodes a file in a
// worker of the pool (see platform/workers).

const renditionsModule = new URL('./renditions.ts', import.meta.url).href;
const pdfCheckModule = new URL('./pdf-check.ts', import.meta.url).href;

// The upload's inspection, after the type check and before anything is stored or queued: an image over
// the pixel budget (any frame or page, from the headers; nothing decodes it), a password-protected or
// unreadable PDF. The organization is whose turn the PDF check waits for in the file workers.
export async function inspectUpload(
  pool: WorkerPool,
  bytes: Uint8Array,
  type: { extension: SupportedExtension; kind: FileKind },
  organizationId: string,
): Promise<void> {
  if (type.kind === 'image') {
    const refusal = imageBudgetRefusal(bytes, type.extension);
    if (refusal) throw badRequest(refusal);
  }
  if (type.kind !== 'pdf') return;
  const condition = await pool.run<PdfCondition>({ module: pdfCheckModule, fn: 'pdfCondition', args: [bytes], organizationId }).catch(tooComplex);
  if (condition === 'encrypted') throw badRequest(attachmentMessages.pdfPasswordProtected);
  if (condition === 'damaged') throw badRequest(attachmentMessages.pdfDamaged);
}

// A file that ends its worker (memory, time) is a property of the file, answered as such.
function tooComplex(error: unknown): never {
  if (error instanceof WorkerFailure) throw new AppError(422, attachmentMessages.fileTooComplex);
  throw error;
}

// A buffer wholly owned by these bytes (not a slice of Node's shared pool) can be moved instead of copied.
const movable = (bytes: Uint8Array): ArrayBuffer[] =>
  bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? [bytes.buffer] : [];

// The preview PDF of an image or text file (null for structured files), made in a worker. The bytes are
// handed over: the caller must not use them afterwards.
export const renderPdf = (pool: WorkerPool, bytes: Uint8Array, file: { extension: SupportedExtension; fileName: string }, organizationId: string) =>
  pool.run<Uint8Array | null>({ module: renditionsModule, fn: 'makePdfRendition', args: [bytes, file], transfer: movable(bytes), organizationId });

// Rotations and page removals, made in a worker; refusals (pages, password, damage) are 4xx.
export const transformPdfInWorker = (pool: WorkerPool, bytes: Uint8Array, transforms: PdfTransforms, organizationId: string) =>
  pool.run<Uint8Array>({ module: renditionsModule, fn: 'transformPdf', args: [bytes, transforms], organizationId }).catch(tooComplex);

// Starts a thread and loads the PDF parser before the first upload needs it (seconds on a busy machine).
export const warmUpFileWorkers = (pool: WorkerPool) =>
  pool.run({ module: pdfCheckModule, fn: 'pdfCondition', args: [new Uint8Array(0)], organizationId: null }).then(() => undefined, () => undefined);
