import type { FastifyRequest } from 'fastify';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { badRequest } from './errors.ts';

export interface MultipartFormOptions {
  /** The part that holds the file, and the most bytes it may have. */
  file: { field: string; maxBytes: number };
  /** Raised as soon as the file passes maxBytes (the route's onSend then closes the rest: closeUnreadBody). */
  tooLarge: () => Error;
  /** Checks the part's file name before any of the file is read. */
  checkFileName?: (fileName: string) => void;
  /** The one text part that holds the entity as JSON, and the most bytes it may have. */
  json?: { field: string; maxBytes: number };
  /** Plain text parts read as they are (a form without a JSON part), each at most maxBytes. */
  text?: { fields: readonly string[]; maxBytes: number };
  /** How many text parts a form may have in all. */
  fields: number;
}

export interface MultipartForm {
  file: { fileName: string; bytes: Buffer } | undefined;
  /** The JSON part, parsed; undefined when the form has none. */
  json: unknown;
  /** The plain text parts named in options.text that the form has. */
  text: Record<string, string>;
}

/**
 * Reads an upload form (attachments, logos): one file counted as it streams, so no more than maxBytes of a larger one
 * is ever read or held, and one JSON text part or named plain text parts. Other file parts are drained; other text
 * parts are ignored.
 */
export async function readMultipartForm(request: FastifyRequest, options: MultipartFormOptions): Promise<MultipartForm> {
  const { file: fileOptions, json: jsonOptions, text: textOptions } = options;
  let file: MultipartForm['file'];
  let jsonText: string | undefined;
  const text: Record<string, string> = {};
  const tooLong = (field: string) => badRequest(messages.invalidRequest, { [field]: [`${field} is too large.`] });
  const { multipartErrors } = request.server;
  try {
    // One byte over the limit reaches the count below (busboy would silently truncate at fileSize).
    for await (const part of request.parts({ limits: { fileSize: fileOptions.maxBytes + 1, files: 1, fields: options.fields, fieldSize: Math.max(jsonOptions?.maxBytes ?? 0, textOptions?.maxBytes ?? 0) } })) {
      if (part.type === 'file') {
        if (part.fieldname !== fileOptions.field) {
          part.file.resume();
          continue;
        }
        if (part.filename) options.checkFileName?.(part.filename);
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of part.file as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > fileOptions.maxBytes) throw options.tooLarge();
          chunks.push(chunk);
        }
        file = { fileName: part.filename, bytes: Buffer.concat(chunks) };
      } else if (jsonOptions && part.fieldname === jsonOptions.field && typeof part.value === 'string') {
        if (part.valueTruncated || Buffer.byteLength(part.value) > jsonOptions.maxBytes) throw tooLong(jsonOptions.field);
        jsonText = part.value;
      } else if (textOptions?.fields.includes(part.fieldname) && typeof part.value === 'string') {
        if (part.valueTruncated || Buffer.byteLength(part.value) > textOptions.maxBytes) throw tooLong(part.fieldname);
        text[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof multipartErrors.RequestFileTooLargeError) throw options.tooLarge();
    if (error instanceof multipartErrors.FilesLimitError) throw badRequest(messages.invalidRequest, { [fileOptions.field]: ['Upload one file at a time.'] });
    if (error instanceof multipartErrors.FieldsLimitError || error instanceof multipartErrors.PartsLimitError) throw badRequest(messages.invalidRequest);
    throw error;
  }
  if (!jsonText || !jsonOptions) return { file, json: undefined, text };
  try {
    return { file, json: JSON.parse(jsonText) as unknown, text };
  } catch {
    throw badRequest(messages.invalidRequest, { [jsonOptions.field]: [`${jsonOptions.field} is not valid JSON.`] });
  }
}
