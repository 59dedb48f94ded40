// The one object-id scheme (README "Object ids"): an opaque, URL-safe name for a row, shown wherever the spec shows
// an object id. It is base64url (no padding) of 17 bytes: one byte for the kind of row, then the 16 bytes of the
// row's uuid. Rows here are keyed by their uuid, so the row's database id and its uuid are the same value.

export const objectKinds = { message: 1, workflow: 2, attachment: 3, organization: 4, user: 5 } as const;
export type ObjectKind = keyof typeof objectKinds;

const kindOfByte = new Map<number, ObjectKind>(Object.entries(objectKinds).map(([kind, byte]) => [byte, kind as ObjectKind]));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const OBJECT_ID = /^[A-Za-z0-9_-]{23}$/;

export const isUuid = (value: string): boolean => UUID.test(value);

export function encodeObjectId(kind: ObjectKind, uuid: string): string {
  if (!UUID.test(uuid)) throw new Error('An object id encodes a uuid.');
  const bytes = Buffer.alloc(17);
  bytes[0] = objectKinds[kind];
  Buffer.from(uuid.replace(/-/g, ''), 'hex').copy(bytes, 1);
  return bytes.toString('base64url');
}

export interface DecodedObjectId {
  kind: ObjectKind;
  uuid: string;
}

// undefined for anything that is not an object id of a known kind.
export function decodeObjectId(objectId: string): DecodedObjectId | undefined {
  if (!OBJECT_ID.test(objectId)) return undefined;
  const bytes = Buffer.from(objectId, 'base64url');
  const kind = kindOfByte.get(bytes[0]!);
  if (bytes.length !== 17 || !kind) return undefined;
  // Only the canonical spelling decodes (base64url has two spellings of the last character's spare bits).
  if (bytes.toString('base64url') !== objectId) return undefined;
  const hex = bytes.subarray(1).toString('hex');
  return { kind, uuid: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` };
}
