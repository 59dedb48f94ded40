import { z } from 'zod';
import { pageOf, pageQuery } from './paging.ts';
import { text } from './text.ts';

// back-office-b §2 "Certificates", §3, §4, §5, §7, §8 and issue 12 §1: the Direct certificates, imported as PKCS#12.
export const certificateMessages = {
  // §8, the UI's toasts; the upload one is followed by the server's message.
  enableFailed: 'Could not disable/enable certificate in KeyVault.',
  loadFailed: 'Error retrieving certificate',
  uploadFailed: 'There was an error uploading the certificate',
  // Not worded in the spec.
  saved: 'The certificate was saved successfully.',
  enabled: 'The certificate was enabled.',
  disabled: 'The certificate was disabled.',
  fileRequired: 'You must select a .pfx or .p12 file.',
  nameTaken: 'A certificate with this name already exists, please enter a different one.',
  fileTooLarge: 'The certificate file must be at most 1 MB.',
  notAPkcs12: 'The file is not a PKCS#12 (.pfx or .p12) file.',
  wrongPassword: 'The password is wrong for this certificate file.',
  unsupportedEncryption: 'The certificate file is encrypted with an algorithm this server does not support; export it with AES-256 (the OpenSSL 3 default) or 3DES.',
  noPrivateKey: 'The certificate file holds no private key.',
  noCertificate: 'The certificate file holds no certificate.',
  keyMismatch: 'The private key does not match any certificate in the file.',
  notRsa: 'The certificate key must be an RSA key.',
  weakKey: 'The certificate RSA key must be at least 2048 bits.',
  weakSignature: 'The certificate is signed with SHA-1 or MD5; it must be signed with SHA-256 or better.',
  expired: 'The certificate has expired.',
  noSubjectAltName: 'The certificate names no Direct address or domain (subject alternative name rfc822Name or dNSName).',
} as const;

export const CERTIFICATE_NAME_MAX = 127;
// A PKCS#12 file with its chain is a few kilobytes; 1 MB is far past any real one.
export const MAX_CERTIFICATE_FILE_BYTES = 1024 * 1024;
export const CERTIFICATE_PASSWORD_MAX = 1024;
export const CERTIFICATE_FILE_EXTENSIONS = ['.pfx', '.p12'] as const;

export const certificateName = text('Name').trim().min(1).max(CERTIFICATE_NAME_MAX);
export const certificateNameParams = z.object({ name: certificateName });

// The text fields of the upload form (multipart; the file is the `file` part).
export const certificateUploadFields = z.object({
  name: certificateName,
  password: text('Password').max(CERTIFICATE_PASSWORD_MAX).default(''),
  useExistingName: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
});

export const certificateOrganization = z.object({ id: text(), name: text() });
export const certificateListItem = z.object({
  id: text(),
  name: text(),
  // SHA-1 of the DER, upper-case hex, as Windows and Key Vault show it.
  thumbprint: text(),
  // ISO 8601, UTC.
  notAfter: text(),
  // 1 at import, one more each time the certificate of the name is replaced.
  version: z.number().int(),
  enabled: z.boolean(),
  organizations: z.array(certificateOrganization),
});
export type CertificateListItem = z.infer<typeof certificateListItem>;
export const certificate = certificateListItem.extend({
  usage: z.enum(['signing', 'encryption', 'both']),
  subject: text(),
  subjectAltNames: z.object({ rfc822Names: z.array(text()), dnsNames: z.array(text()) }),
  thumbprintSha256: text(),
  notBefore: text(),
  chainLength: z.number().int(),
});
export type Certificate = z.infer<typeof certificate>;
export const certificatePage = pageOf(certificateListItem);
export const certificateQuery = pageQuery;
export const certificateEnable = z.object({ enabled: z.boolean() });

// The web form: the file and password are checked by the server on upload; the name is the one rule of §5.
export const certificateForm = z.object({ name: certificateName, password: text('Password').max(CERTIFICATE_PASSWORD_MAX) });
