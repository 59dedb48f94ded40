import { findDecryptionCertificates, type DirectCertificate } from '../../modules/certificates/service.ts';
import { findAnchors } from '../../modules/trust-anchors/service.ts';
import { headerValue, readEntity, unwrapMessage, type MimeEntity } from '../../platform/direct/mime-entity.ts';
import { decryptEntity, encryptEntity, SmimeError, signEntity, toCrlf, verifySignedEntity, type ContentCipher } from '../../platform/direct/smime.ts';
import { completeChain } from '../../platform/direct/issuers.ts';
import { matchesAddress, verifyChain } from '../../platform/direct/trust.ts';
import { domainOf, type DirectDeps } from './direct-deps.ts';
import { revocationProblem } from './recipients.ts';

export const DIRECT_FINAL_DELIVERY_OPTION = 'X-DIRECT-FINAL-DESTINATION-DELIVERY=optional,true';

export interface OuterHeaders {
  from: string;
  to: string[];
  subject: string;
  messageId: string;
  date: Date;
}

// Header values are ours or already validated addresses; a CR or LF would start a new header, so it never passes.
const headerSafe = (value: string) => value.replace(/[\r\n]+/g, ' ');

/**
 * A Direct message (Applicability Statement §4): the whole inner message wrapped as message/rfc822, signed
 * (multipart/signed, SHA-256), then encrypted for every recipient certificate; the outer headers repeat what
 * an MTA needs to route it and ask for the final-delivery notification (not on a notification itself).
 */
export async function sealMessage(
  inner: Uint8Array,
  outer: OuterHeaders,
  signer: DirectCertificate,
  recipientCertificates: Uint8Array[],
  cipher: ContentCipher,
  opts: { requestNotification?: boolean } = {},
): Promise<Buffer> {
  const wrapped = Buffer.concat([Buffer.from('Content-Type: message/rfc822\r\n\r\n'), toCrlf(inner)]);
  const signed = await signEntity(wrapped, { certificate: signer.der, privateKey: signer.privateKey, chain: signer.chain });
  const encrypted = await encryptEntity(signed, recipientCertificates, cipher);
  const headers = [
    `From: ${headerSafe(outer.from)}`,
    `To: ${outer.to.map(headerSafe).join(', ')}`,
    `Subject: ${headerSafe(outer.subject)}`,
    `Date: ${outer.date.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: ${headerSafe(outer.messageId)}`,
    'MIME-Version: 1.0',
    ...(opts.requestNotification === false ? [] : [`Disposition-Notification-Options: ${DIRECT_FINAL_DELIVERY_OPTION}`]),
  ];
  return Buffer.concat([Buffer.from(`${headers.join('\r\n')}\r\n`), encrypted]);
}

export interface OpenedMessage {
  ok: true;
  // The signed content with a message/rfc822 wrapper removed: the sender's message as they wrote it.
  inner: Buffer;
  signer: Buffer;
  from: string;
  messageId: string | null;
  cipher: string;
  keyTransport: string;
}

// A refusal: the SMTP enhanced status code (RFC 3463 5.7.x security) and a reason a person can read.
export interface Refusal {
  ok: false;
  code: string;
  reason: string;
}

const refuse = (code: string, reason: string): Refusal => ({ ok: false, code, reason });

const smimeRefusal = (error: unknown): Refusal => {
  if (!(error instanceof SmimeError)) throw error;
  switch (error.code) {
    case 'NotEncrypted':
      return refuse('5.7.5', 'The message is not encrypted (Direct requires S/MIME encryption).');
    case 'NoMatchingKey':
      return refuse('5.7.5', 'The message is not encrypted for this address’s certificate.');
    case 'WeakCipher':
      return refuse('5.7.5', error.message);
    case 'NotSigned':
      return refuse('5.7.7', 'The message is not signed (Direct requires an S/MIME signature).');
    case 'WeakDigest':
      return refuse('5.7.7', error.message);
    case 'BadSignature':
      return refuse('5.7.7', 'The message’s signature does not match its content.');
    default:
      return refuse('5.7.5', error.message);
  }
};

const addressIn = (value: string | null) => {
  const match = value ? /<([^<>\s]+@[^<>\s]+)>|([^\s<>,;]+@[^\s<>,;]+)/.exec(value) : null;
  return (match?.[1] ?? match?.[2] ?? '').toLowerCase();
};

/**
 * Opens a Direct message sent to a hosted address: decrypts it with whichever key of the address or its domain it names, verifies the
 * signature on the raw signed bytes, and trusts the signer only with a chain to an incoming anchor of the
 * recipient's domain, valid dates, strong keys and digests, not revoked, and naming the sender (From) or its domain.
 */
export async function openMessage(deps: DirectDeps, raw: Uint8Array, recipient: string): Promise<OpenedMessage | Refusal> {
  // Every key of the address, then of its domain (a rollover, a domain-bound certificate): the RecipientInfos choose.
  const keys = (await findDecryptionCertificates({ ...deps, graceDays: deps.config.decryptGraceDays }, recipient)).map((c) => ({ certificate: c.der, privateKey: c.privateKey }));
  if (keys.length === 0) return refuse('4.7.5', `This HISP has no certificate for ${recipient}.`);
  let decrypted: Awaited<ReturnType<typeof decryptEntity>>;
  let verified: Awaited<ReturnType<typeof verifySignedEntity>>;
  try {
    decrypted = await decryptEntity(raw, keys, { allowTripleDes: !deps.config.strictMode });
    verified = await verifySignedEntity(decrypted.entity);
  } catch (error) {
    return smimeRefusal(error);
  }
  let inner: Buffer;
  let outer: MimeEntity;
  let message: MimeEntity;
  try {
    inner = unwrapMessage(verified.content);
    [outer, message] = [readEntity(raw), readEntity(inner)];
  } catch (error) {
    return refuse('5.6.0', (error as Error).message);
  }
  const from = addressIn(headerValue(message, 'from')) || addressIn(headerValue(outer, 'from'));
  if (!from) return refuse('5.7.7', 'The message does not name its sender (From).');

  const anchors = await findAnchors(deps.db, { domain: domainOf(recipient), direction: 'incoming' });
  // An intermediate the message does not carry is fetched from the signer's AIA caIssuers URL (DCDT D18).
  const { intermediates, problems } = await completeChain(deps.issuers, verified.signer, anchors, verified.certificates);
  const trust = verifyChain(verified.signer, anchors, deps.now(), intermediates);
  if (!trust.ok) return refuse('5.7.7', [`The sender’s certificate is not trusted: ${trust.reason}`, ...problems].join(' '));
  if (!matchesAddress(verified.signer, from)) return refuse('5.7.7', `The sender’s certificate is not issued for ${from} or its domain.`);
  const revoked = await revocationProblem(deps, verified.signer, anchors, intermediates);
  if (revoked) return refuse('5.7.7', `The sender’s certificate is not trusted: ${revoked}`);
  return {
    ok: true,
    inner,
    signer: verified.signer,
    from,
    messageId: headerValue(message, 'message-id') ?? headerValue(outer, 'message-id'),
    cipher: decrypted.cipher,
    keyTransport: decrypted.keyTransport,
  };
}
