import { describe, expect, it } from 'vitest';
import { sniffImageType } from './image-sniff';

describe('sniffImageType', () => {
  it('tells png and jpeg by their first bytes, whatever the name says', async () => {
    expect(await sniffImageType(new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])]))).toBe('image/png');
    expect(await sniffImageType(new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])]))).toBe('image/jpeg');
    expect(await sniffImageType(new File(['just some text'], 'fake.png', { type: 'image/png' }))).toBeNull();
    expect(await sniffImageType(new Blob([new Uint8Array([0x89, 0x50])]))).toBeNull();
    expect(await sniffImageType(new Blob([]))).toBeNull();
  });
});
