import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { LOGO_MAX_BYTES, LOGO_MAX_HEIGHT, LOGO_MAX_WIDTH, logoMessages } from '@clinicrelay/contracts/logos.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { AppError, badRequest } from '../errors.ts';
import { imagePageSizes } from './image-size.ts';
import { readMultipartForm } from '../multipart.ts';

// Partner and reseller logos: a multipart form of one JSON field and an optional image, or plain JSON.

export interface LogoFile {
  fileName: string;
  bytes: Uint8Array;
}

export interface CheckedLogo extends LogoFile {
  contentType: string;
}

// The JSON field holds short texts (the reseller's two 1000-character messages at most).
const FIELD_BYTES = 32 * 1024;
const FORM_ALLOWANCE_BYTES = 2 * FIELD_BYTES + 16 * 1024;

const signatures: { type: string; extension: 'png' | 'jpeg' | 'gif'; bytes: number[] }[] = [
  { type: 'image/png', extension: 'png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', extension: 'jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/gif', extension: 'gif', bytes: [...'GIF8'].map((c) => c.charCodeAt(0)) },
];

const refuse = (field: string, message: string) => badRequest(message, { [field]: [message] });

/** The logo's type from its bytes (never its name or the part's header), its size and its dimensions. */
export function checkLogo(file: LogoFile, field: string): CheckedLogo {
  if (file.bytes.length > LOGO_MAX_BYTES) throw refuse(field, logoMessages.tooLarge);
  if (file.fileName.length > 255) throw refuse(field, logoMessages.fileName);
  const kind = signatures.find((s) => s.bytes.every((b, i) => file.bytes[i] === b));
  // Header fields only: nothing decodes the pixels, so a decompression bomb costs nothing here.
  const size = kind && imagePageSizes(file.bytes, kind.extension)?.[0];
  if (!kind || !size || size.width < 1 || size.height < 1) throw refuse(field, logoMessages.type);
  if (size.width > LOGO_MAX_WIDTH) throw refuse(field, logoMessages.tooWide);
  if (size.height > LOGO_MAX_HEIGHT) throw refuse(field, logoMessages.tooHigh);
  return { ...file, contentType: kind.type };
}

/** onRequest: a declared body no valid logo form can have is refused before any of it is read. */
export async function refuseOversizedLogoForm(request: FastifyRequest) {
  if (Number(request.headers['content-length']) > LOGO_MAX_BYTES + FORM_ALLOWANCE_BYTES) throw new AppError(413, logoMessages.tooLarge);
}

/** A zod parse of a body that reports like the schema validation of every other route: modelState per field. */
export function parseBody<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const modelState: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) (modelState[issue.path.join('.') || 'request'] ??= []).push(issue.message);
  const texts = Object.values(modelState).flat();
  throw badRequest(texts.length === 1 ? texts[0]! : messages.invalidRequest, modelState);
}

/**
 * The body of a logo form: multipart with the entity's JSON in `jsonField` and the image in `fileField`, or the
 * entity as plain JSON (no logo chosen). Past LOGO_MAX_BYTES the read stops (the route's onSend closes the rest).
 */
export async function readLogoForm(request: FastifyRequest, fields: { json: string; file: string }): Promise<{ json: unknown; logo: CheckedLogo | undefined }> {
  if (!request.isMultipart()) return { json: request.body, logo: undefined };
  const form = await readMultipartForm(request, {
    file: { field: fields.file, maxBytes: LOGO_MAX_BYTES },
    tooLarge: () => refuse(fields.file, logoMessages.tooLarge),
    json: { field: fields.json, maxBytes: FIELD_BYTES },
    fields: 2,
  });
  if (form.json === undefined) throw badRequest(messages.invalidRequest, { [fields.json]: [`${fields.json} is required.`] });
  // An empty file input sends a part with no name and no bytes: no logo chosen.
  const file = form.file && form.file.bytes.length > 0 ? { fileName: form.file.fileName || 'logo', bytes: form.file.bytes } : undefined;
  return { json: form.json, logo: file && checkLogo(file, fields.file) };
}

/** A logo's bytes as an image response; the CSP forbids anything active should a browser be tricked into rendering more. */
export function sendLogo(reply: FastifyReply, logo: { bytes: Uint8Array; contentType: string }) {
  return reply.type(logo.contentType).header('content-security-policy', "default-src 'none'").send(Buffer.from(logo.bytes));
}
