import { z } from 'zod';
import { text } from './text.ts';

// Not in the spec: GET /api/users/neversignedin (Administrator), the members of the caller's current
// organization who have never signed in, for the dashboard's "what needs attention" (issue 13 §1).
export const NEVER_SIGNED_IN_LIMIT = 50;
export const neverSignedInUser = z.object({ id: text(), userName: text(), fullName: text(), createdOn: text() });
export const neverSignedInUsers = z.object({ items: z.array(neverSignedInUser), totalCount: z.number().int() });
export type NeverSignedInUsers = z.infer<typeof neverSignedInUsers>;

// Not in the spec: GET /api/failedmessages (Administrator and User), the failed inbound messages the caller may see
// that nobody has acknowledged yet, newest first; each is acknowledged with PUT /api/failedmessages/{id}/acknowledge.
export const FAILED_MESSAGES_LIMIT = 50;
export const failedMessage = z.object({ id: text(), subject: text(), fromAddress: text().nullable(), toAddress: text(), receivedOn: text() });
export const failedMessages = z.object({ items: z.array(failedMessage), totalCount: z.number().int() });
export type FailedMessages = z.infer<typeof failedMessages>;
