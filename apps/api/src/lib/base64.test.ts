import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeBase64 } from './base64.js';

describe('decodeBase64', () => {
  it('gives the bytes Node gives, whatever the length and padding', () => {
    for (const size of [0, 1, 2, 3, 24_575, 24_576, 24_577, 24_578, 100_000, 1_000_001]) {
      const bytes = randomBytes(size);
      const text = bytes.toString('base64');
      expect(decodeBase64(text).equals(bytes)).toBe(true);
      const unpadded = text.replace(/=+$/, '');
      expect(decodeBase64(unpadded).equals(bytes)).toBe(true);
    }
  });

  it('decodes the part of a longer text between start and end', () => {
    const bytes = randomBytes(200_003);
    const text = `{"b64_json":"${bytes.toString('base64')}","x":1}`;
    const start = text.indexOf(':"') + 2;
    expect(decodeBase64(text, start, text.indexOf('"', start)).equals(bytes)).toBe(true);
  });

  it('decodes as Node does a value holding characters Node skips (pieces would shift)', () => {
    const text = randomBytes(150_000).toString('base64');
    for (const odd of [
      `${text.slice(0, 1000)} ${text.slice(1000)}`,
      `${text.slice(0, 40_000)}\n${text.slice(40_000)}`,
      `${text.slice(0, 4)}=${text.slice(4)}`,
      text.replace(/\+/g, '-').replace(/\//g, '_'),
    ]) {
      expect(decodeBase64(odd).equals(Buffer.from(odd, 'base64'))).toBe(true);
    }
  });
});
