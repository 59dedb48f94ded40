// Attachment files: the size limit, the accepted types and the upload texts (end-user §5 "Attachment
// upload", §9), shared by the web's file picker and the server's upload checks.

export const MAX_ATTACHMENT_BYTES = 20_971_520;

// The documents clinics exchange: scans and reports (PDF), photos and scanned images, faxes (multi-page
// TIFF), plain-text notes, and structured records (XML, C-CDA/CCD, HL7 v2). Answered by GET /api/attachments/extensions.
export const supportedExtensions = ['pdf', 'png', 'jpg', 'jpeg', 'gif', 'tif', 'tiff', 'txt', 'xml', 'cda', 'ccd', 'hl7'] as const;
export type SupportedExtension = (typeof supportedExtensions)[number];

export const attachmentMessages = {
  empty: 'File is empty. Please upload something more substantial.',
  tooLarge: 'Your attachment exceeds the maximum (20MB) allowed size.',
  noFile: 'Please select a file.',
  // {ext} is shown with its dot (".exe"), as the user sees it in the file name.
  unsupportedType: (extension?: string) =>
    extension ? `Your attachment file type ${extension} is not supported` : 'Your attachment file type is not supported',
  serverUnsupportedType: 'FileType is not supported for upload',
  // Not in the spec: the server also checks the content (magic bytes), so a renamed file is refused.
  contentMismatch: (fileName: string, extension: string) => `The content of '${fileName}' does not match its .${extension} extension.`,
  // Not in the spec: page transforms (rotate, remove) refused by the server.
  cannotRemoveEveryPage: 'A document must keep at least one page; every page cannot be removed.',
  pageNotFound: (pageNumber: number) => `Page ${pageNumber} does not exist in this document.`,
  rotationNotRightAngle: 'Pages can only be rotated in steps of 90 degrees.',
  pdfProtected: 'This PDF is password protected and cannot be changed.',
} as const;
