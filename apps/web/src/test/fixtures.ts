import type { Message } from '@clinicrelay/contracts/messages.ts';
import type { OrganizationSettings } from '@clinicrelay/contracts/organization-settings.ts';

// Answers of the API shared by the feature tests; each feature's fixtures set what its tests need.

/** A Message as GET /api/messages/{id} answers it: a sent message with nothing set. */
export function messageFixture(overrides: Partial<Message> & Pick<Message, 'id'>): Message {
  return {
    subject: '',
    fromAddress: null,
    toAddress: '',
    body: '',
    comments: null,
    messageDate: null,
    systemReceivedDate: null,
    createdDate: '2026-11-20T15:00:00Z',
    updatedDate: '2026-11-20T15:00:00Z',
    isDraft: false,
    isProcessed: false,
    isUrgent: false,
    origin: null,
    status: 'Sent',
    processedType: null,
    sourceType: null,
    patient: null,
    patientName: null,
    attachments: [],
    conversation: null,
    classification: null,
    reasonForDisclosure: null,
    originalObjectId: null,
    releaseTypeId: null,
    conversion: null,
    attachments2PDF: false,
    attachments2CDA: false,
    isReadyForDeliverySummary: false,
    properties: null,
    trackFaxResponses: false,
    deliveries: [],
    ...overrides,
  };
}

/** GET /api/organizationsettings with the server's defaults unless overridden. */
export function settingsFixture(overrides: Partial<OrganizationSettings> = {}): OrganizationSettings {
  return {
    brandName: 'ClinicRelay',
    suppressCoverPage: false,
    suppressMessageBody: false,
    suppressAttachmentDescriptions: false,
    deliverySummaryEnableDownload: false,
    exportMode: 'Export',
    exportOption: null,
    exportDirectoryType: null,
    exportVisitDirectory: false,
    nonPatientExport: false,
    ...overrides,
  };
}
