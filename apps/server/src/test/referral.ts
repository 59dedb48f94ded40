// The referral Lakeside's user drafts in the delivery and webhook tests: the same patient and text everywhere.
export const MARIA = { firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' };

/** The body of `PUT /api/messages` for a Lakeside referral to `toAddress`; `over` changes any field. */
export const referralDraft = (releaseTypeId: string | number, toAddress: string, over: Record<string, unknown> = {}) => ({
  toAddress,
  subject: 'Referral: cardiology consult',
  fromAddress: 'intake@lakeside.direct.example.org',
  body: 'Please see this patient.',
  releaseTypeId,
  patient: MARIA,
  properties: { includeCoverPage: true, includeMessageBody: true, includeAttachmentDescriptions: true },
  ...over,
});
