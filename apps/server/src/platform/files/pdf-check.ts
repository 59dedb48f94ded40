import { MAX_IMAGE_PIXELS } from '@clinicrelay/contracts/attachments.ts';
import { getDocument, VerbosityLevel } from 'pdfjs-dist/legacy/build/pdf.mjs';

export type PdfCondition = 'ok' | 'encrypted' | 'damaged';

// Runs in a file worker (pdfjs parses untrusted bytes). pdfjs rebuilds a broken cross-reference table as
// viewers do, so only a PDF no reader could open counts as damaged. A PDF with an /Encrypt dictionary is
// refused even when it opens without a password (owner password only): its pages cannot be changed.
export async function pdfCondition(bytes: Uint8Array): Promise<PdfCondition> {
  const task = getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, maxImageSize: MAX_IMAGE_PIXELS, verbosity: VerbosityLevel.ERRORS });
  try {
    const document = await task.promise;
    const { info } = await document.getMetadata();
    if ((info as { EncryptFilterName?: string | null }).EncryptFilterName) return 'encrypted';
    // Every page must be reachable through the page tree: a file cut short loses pages at its end.
    for (let number = 1; number <= document.numPages; number++) (await document.getPage(number)).cleanup();
    return 'ok';
  } catch (error) {
    return (error as Error | undefined)?.name === 'PasswordException' ? 'encrypted' : 'damaged';
  } finally {
    await task.destroy();
  }
}
