// A fax service behind one interface (DESIGN.md "External services"). FAX_PROVIDER picks the adapter.
export interface OutgoingFax {
  // Digits only: 10, without the country digit.
  to: string;
  // The sending organization's fax number, or its Direct address when it sends from one.
  from: string;
  // Every page as the receiving machine prints it, in one PDF.
  pages: Uint8Array;
  pageCount: number;
  // The same for every try of one recipient of one message: a provider that supports it uses it to
  // refuse a duplicate, and a retry after a crash can ask whether the fax already went.
  idempotencyKey: string;
  // Who sent it, so a fax received on this installation can be traced back to the sent message.
  sentMessageId: string;
}

export interface FaxSendResult {
  providerReference: string;
  pageCount: number;
  status: 'Delivered' | 'Queued' | 'Failed';
  // What the sender sees as the recipient's reason.
  detail: string;
}

export interface FaxProvider {
  readonly name: string;
  send(fax: OutgoingFax, signal?: AbortSignal): Promise<FaxSendResult>;
}
