// The name of an embedded ICC profile, from its bytes: the 'desc' tag, as ICC v2 ('desc', ASCII)
// or v4 ('mluc', UTF-16BE) writes it. Pure and bounded: every offset is checked against the
// buffer, so a malformed profile gives null, never a throw or an out-of-range read.

const TAG_TABLE = 128;
const MAX_NAME = 200;

/** The profile's description ("sRGB IEC61966-2.1", "Display P3"…), or null when it has none or it cannot be read. */
export function iccProfileName(icc: Uint8Array): string | null {
  const buf = Buffer.from(icc.buffer, icc.byteOffset, icc.byteLength);
  if (buf.length < TAG_TABLE + 4) return null;
  const count = buf.readUInt32BE(TAG_TABLE);
  for (let i = 0; i < Math.min(count, 100); i++) {
    const at = TAG_TABLE + 4 + i * 12;
    if (at + 12 > buf.length) return null;
    if (buf.toString('latin1', at, at + 4) !== 'desc') continue;
    const offset = buf.readUInt32BE(at + 4);
    const size = buf.readUInt32BE(at + 8);
    if (offset + size > buf.length || size < 12) return null;
    return clean(descriptionOf(buf.subarray(offset, offset + size)));
  }
  return null;
}

function descriptionOf(tag: Buffer): string | null {
  const type = tag.toString('latin1', 0, 4);
  if (type === 'desc') {
    const length = tag.readUInt32BE(8);
    if (12 + length > tag.length) return null;
    return tag.toString('latin1', 12, 12 + length);
  }
  if (type === 'mluc' && tag.length >= 28) {
    // The first record: language, country, length, offset (from the tag's start).
    const length = tag.readUInt32BE(20);
    const offset = tag.readUInt32BE(24);
    if (offset + length > tag.length) return null;
    const be = tag.subarray(offset, offset + length);
    const le = Buffer.alloc(be.length - (be.length % 2));
    for (let i = 0; i + 1 < be.length; i += 2) {
      le[i] = be[i + 1]!;
      le[i + 1] = be[i]!;
    }
    return le.toString('utf16le');
  }
  return null;
}

function clean(name: string | null): string | null {
  if (name === null) return null;
  // A profile's name ends in NULs; control characters are never printed.
  const text = name.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return text === '' ? null : text.slice(0, MAX_NAME);
}
