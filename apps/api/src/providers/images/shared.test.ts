import type { GeneratedFile } from 'ai';
import { describe, expect, it } from 'vitest';
import { fileBytes } from './shared.js';

const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 250]);

describe('fileBytes', () => {
  it("decodes a base64 answer with Node's decoder, without the SDK's character-by-character getter", () => {
    const file = {
      base64Data: Buffer.from(png).toString('base64'),
      mediaType: 'image/png',
      get base64(): string {
        throw new Error('not used');
      },
      get uint8Array(): Uint8Array {
        throw new Error('the slow getter was used');
      },
    } as unknown as GeneratedFile;
    expect([...fileBytes(file)]).toEqual([...png]);
  });

  it('takes the bytes as they are when the provider answered bytes', () => {
    const file = { base64Data: undefined, uint8ArrayData: png, mediaType: 'image/png', uint8Array: png };
    expect(fileBytes(file as unknown as GeneratedFile)).toBe(png);
  });
});
