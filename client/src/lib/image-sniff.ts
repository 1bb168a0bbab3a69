/**
 * What an image file really is, from its first bytes: png, jpeg, or neither. The browser types a file
 * by its name (a text file called fake.png is "image/png"); the server decides by content and refused
 * such a file only at submit, after the page had shown it as a broken thumbnail.
 */
export async function sniffImageType(file: Blob): Promise<'image/png' | 'image/jpeg' | null> {
  const b = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (b.length >= 8 && png.every((x, i) => b[i] === x)) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  return null;
}
