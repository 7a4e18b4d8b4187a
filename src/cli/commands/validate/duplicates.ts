// Where each valid code was first seen, for the "same code twice" warning, without a string per
// line (keys are numbers: src/codes codeKey / upcKeyAt / isrcKeyAt).
//
// On a large input the table is far larger than the caches and the cost of an insert is its
// cache misses, so an insert touches one random cache line: a slot is two 32-bit words side by
// side, the key's hash (a fingerprint) and the entry's number. The keys and their first places
// are appended in input order (written sequentially, cheap) and a key is read back only when a
// fingerprint matches, i.e. for a real duplicate or, rarely, a fingerprint collision. The table is
// sized once from the expected count, at most half full: 8 bytes a slot, 16 MB for a million codes,
// plus 12 bytes a code appended.

export class DuplicateIndex {
  /** Per slot: [fingerprint, entry + 1]; entry + 1 = 0 marks an empty slot. */
  private slots: Int32Array;
  /** Slot of a fingerprint h: its top bits, h >>> shift. */
  private shift: number;
  private capacity: number;
  /** Entries in input order. */
  private keys: Float64Array;
  private firsts: Int32Array;
  private size = 0;

  /**
   * `expected`: how many codes may come (a file's size over a code's), to size the table once.
   * `hashOf` is for tests (fingerprint collisions); it must be deterministic.
   */
  constructor(expected = 0, private readonly hashOf: (key: number) => number = hash) {
    let bits = 12;
    while (1 << bits < expected * 2 && bits < 26) bits++;
    this.capacity = 1 << bits;
    this.shift = 32 - bits;
    this.slots = new Int32Array(this.capacity * 2);
    const entries = Math.max(1024, Math.min(Math.ceil(expected), this.capacity / 2));
    this.keys = new Float64Array(entries);
    this.firsts = new Int32Array(entries);
  }

  /**
   * The place `key` was first seen, or 0 the first time (then `where` is kept). A place is a line
   * number, or minus the ordinal of an argument; never 0.
   */
  firstOrAdd(key: number, where: number): number {
    const h = this.hashOf(key) | 0;
    const slots = this.slots;
    const mask = this.capacity - 1;
    let i = h >>> this.shift;
    for (;;) {
      const entry = slots[2 * i + 1]!;
      if (entry === 0) break;
      if (slots[2 * i] === h && this.keys[entry - 1] === key) return this.firsts[entry - 1]!;
      i = (i + 1) & mask;
    }
    const n = this.size;
    if (n === this.keys.length) this.growEntries();
    this.keys[n] = key;
    this.firsts[n] = where;
    slots[2 * i] = h;
    slots[2 * i + 1] = n + 1;
    this.size = n + 1;
    if (this.size * 2 > this.capacity) this.growTable();
    return 0;
  }

  private growEntries(): void {
    const keys = new Float64Array(this.keys.length * 2);
    keys.set(this.keys);
    const firsts = new Int32Array(this.firsts.length * 2);
    firsts.set(this.firsts);
    this.keys = keys;
    this.firsts = firsts;
  }

  /** Doubles the table; the stored fingerprints give the new slots, no key is read. */
  private growTable(): void {
    const old = this.slots;
    this.capacity *= 2;
    this.shift--;
    const mask = this.capacity - 1;
    const slots = new Int32Array(this.capacity * 2);
    for (let j = 0; j < old.length; j += 2) {
      if (old[j + 1] === 0) continue;
      const h = old[j]!;
      let i = h >>> this.shift;
      while (slots[2 * i + 1] !== 0) i = (i + 1) & mask;
      slots[2 * i] = h;
      slots[2 * i + 1] = old[j + 1]!;
    }
    this.slots = slots;
  }
}

/** Mixes both 32-bit halves of a key below 2^53 into 32 bits whose top bits pick the slot. */
function hash(k: number): number {
  const lo = k >>> 0;
  const hi = (k / 4294967296) | 0;
  let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 15;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 13);
}

/** How a first place reads in the warning. */
export function placeText(where: number): string {
  return where > 0 ? `line ${where}` : `code ${-where}`;
}
