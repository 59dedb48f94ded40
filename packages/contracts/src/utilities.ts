import { z } from 'zod';
import { text } from './text.ts';

// back-office-a §2 Message utilities, §3 Message lookup, §7 Utilities and diagnostics.

export const UTILITIES_MAX_IDS = 1000;

// GET /api/utilities?id=: a message id, workflow id, object id or Direct Message-ID; every match, with its workflows.
export const utilityLookupQuery = z.object({ id: text('Id').trim().min(1).max(300) });
export const messageLookup = z.object({
  messageId: text().nullable(),
  workflowId: text().nullable(),
  objectId: text().nullable(),
  dbEntityId: text().nullable(),
  uuid: text().nullable(),
  workflowType: text().nullable(),
  workflowStatus: text().nullable(),
});
export type MessageLookup = z.infer<typeof messageLookup>;
export const messageLookupList = z.array(messageLookup);

// Object ids as a list, or as the form's text: comma separated, line breaks removed (back-office-a §5).
export const objectIdList = z
  .union([z.array(text().trim().max(300)).max(UTILITIES_MAX_IDS), text().max(300_000)])
  .transform((ids) => (typeof ids === 'string' ? ids.replace(/[\r\n]+/g, ',').split(',') : ids).map((id) => id.trim()).filter(Boolean))
  .refine((ids) => ids.length <= UTILITIES_MAX_IDS, `At most ${UTILITIES_MAX_IDS} object ids at a time.`);
export const splitObjectIds = (value: string): string[] =>
  value
    .replace(/[\r\n]+/g, ',')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);

// POST /api/utilities/mailmessages/objectids {objectIds[]}
export const mailMessageObjectIdsInput = z.object({ objectIds: objectIdList });
export const mailMessageObjectIdResult = z.array(z.object({ objectId: text(), mailMessageId: text().nullable(), workflowId: text().nullable() }));
// POST /api/utilities/objectids [strings]
export const objectIdsInput = objectIdList;
export const objectIdResult = z.array(z.object({ objectId: text(), dbEntityId: text().nullable(), uuid: text().nullable(), kind: text().nullable() }));
