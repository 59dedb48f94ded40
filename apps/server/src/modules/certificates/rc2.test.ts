import { describe, expect, it } from 'vitest';
import { rc2DecryptBlock } from './rc2.ts';

// RFC 2268 §5 test vectors: key, effective key bits, plaintext, ciphertext.
const VECTORS: [string, number, string, string][] = [
  ['0000000000000000', 63, '0000000000000000', 'ebb773f993278eff'],
  ['ffffffffffffffff', 64, 'ffffffffffffffff', '278b27e42e2f0d49'],
  ['3000000000000000', 64, '1000000000000001', '30649edf9be7d2c2'],
  ['88', 64, '0000000000000000', '61a8a244adacccf0'],
  ['88bca90e90875a', 64, '0000000000000000', '6ccf4308974c267f'],
  ['88bca90e90875a7f0f79c384627bafb2', 64, '0000000000000000', '1a807d272bbe5db1'],
  ['88bca90e90875a7f0f79c384627bafb2', 128, '0000000000000000', '2269552ab0f85ca6'],
];

describe('RC2 (RFC 2268)', () => {
  it.each(VECTORS)('key %s, %i effective bits', (key, bits, plain, cipher) => {
    expect(rc2DecryptBlock(Buffer.from(key, 'hex'), bits, Buffer.from(cipher, 'hex')).toString('hex')).toBe(plain);
  });
});
