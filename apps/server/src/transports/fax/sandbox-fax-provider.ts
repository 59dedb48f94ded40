import { PDFDocument } from 'pdf-lib';
import { deliveryReasons } from '@clinicrelay/contracts/delivery.ts';
import type { FaxProvider, FaxSendResult, OutgoingFax } from './fax-provider.ts';

// A fax number hosted on this installation: the sandbox hands the fax to that organization's Intake
// (as a real provider's inbound webhook would) and answers the inbound message's id, or null when the
// number is not hosted here. It must be idempotent per idempotencyKey.
// { refused }: the receiving line refused the fax (an infected file): the recipient fails with that reason.
export type SandboxLocalLine = (fax: OutgoingFax & { pageCount: number }) => Promise<string | null | { refused: string }>;

// The sandbox fax provider: behaves like a provider's test mode. No real fax is ever sent; it "prints"
// the pages (counting what a fax machine would), delivers to numbers hosted here, and records every
// other number as delivered.
export function createSandboxFaxProvider(opts: { localLine: SandboxLocalLine }): FaxProvider {
  return {
    name: 'sandbox',
    async send(fax: OutgoingFax, signal?: AbortSignal): Promise<FaxSendResult> {
      signal?.throwIfAborted();
      const printed = await PDFDocument.load(fax.pages, { ignoreEncryption: true, updateMetadata: false });
      const pageCount = printed.getPageCount();
      const inboundId = await opts.localLine({ ...fax, pageCount });
      if (inboundId && typeof inboundId === 'object') return { providerReference: `sandbox:${fax.idempotencyKey}`, pageCount, status: 'Failed', detail: inboundId.refused };
      return {
        providerReference: `sandbox:${fax.idempotencyKey}`,
        pageCount,
        status: 'Delivered',
        detail: inboundId ? deliveryReasons.sandboxFaxDeliveredHere : deliveryReasons.sandboxFaxDelivered,
      };
    },
  };
}
