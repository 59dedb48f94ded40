// Why an S/MIME message was refused, as a code the receive workflow branches on and a message a person can read.

export type SmimeErrorCode =
  | 'NotEncrypted'
  | 'NoMatchingKey'
  | 'DecryptFailed'
  | 'WeakCipher'
  | 'NotSigned'
  | 'BadSignature'
  | 'WeakDigest'
  | 'Malformed';

export class SmimeError extends Error {
  constructor(
    readonly code: SmimeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SmimeError';
  }
}
