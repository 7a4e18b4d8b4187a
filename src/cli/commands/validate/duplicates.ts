// Where each valid code was first seen, for the "same code twice" warning: an open-addressing
// table of numeric keys (src/codes codeKey / upcKeyAt / isrcKeyAt), so that the bulk path keeps
// no string per line. On a large input the table is far larger than the caches, and its cost is
// the cache misses of the look-ups: the keys are kept apart from the first places, at most half
// full (8 bytes a slot, 16 MB for a million codes). A first place is needed only when its code
// comes again, which in real input is rare: so it is not written into its slot at once (a second
// random write, 8 MB more of the caches' traffic per million codes) but appended to a log, in
// order, and the log is written into the slots only when a code is found again, or the table grows.

/** How many lines the bulk path takes as one batch: the most keys warm() and firstOrAddRun() get at once. */
export const WARM_BATCH = 64;

export class DuplicateIndex {
  private keys: Float64Array;
  private firsts: Int32Array;
  private mask: number;
  private size = 0;
  /** First places not yet in `firsts`: slot, place, slot, place, … (`logged` numbers). */
  private log: Int32Array;
  private logged = 0;
  /** warm()'s slots, and where its reads go so that they are not dropped as unused. */
  private slots = new Int32Array(WARM_BATCH);
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: written only, so that warm()'s reads are kept
  private sink = 0;

  /** `expected`: how many codes may come (a file's size over a code's), to size the table once. */
  constructor(expected = 0) {
    let capacity = 1 << 12;
    while (capacity < expected * 2 && capacity < 1 << 26) capacity *= 2;
    this.keys = new Float64Array(capacity);
    this.firsts = new Int32Array(capacity);
    this.mask = capacity - 1;
    // At most half the slots are filled before the table grows, and growing empties the log.
    this.log = new Int32Array(capacity);
  }

  /**
   * The place `key` was first seen, or 0 the first time (then `where` is kept). A place is a line
   * number, or minus the ordinal of an argument; never 0.
   */
  firstOrAdd(key: number, where: number): number {
    return this.firstOrAddFrom(key, hash(key + 1) & this.mask, where);
  }

  /** firstOrAdd, its search starting at slot `i` (hash(key + 1) & mask). */
  private firstOrAddFrom(key: number, i: number, where: number): number {
    // Stored as key + 1: 0 marks an empty slot.
    const k = key + 1;
    const keys = this.keys;
    for (;;) {
      const at = keys[i]!;
      if (at === 0) break;
      if (at === k) {
        if (this.logged > 0) this.writeLog();
        return this.firsts[i]!;
      }
      i = (i + 1) & this.mask;
    }
    keys[i] = k;
    this.log[this.logged++] = i;
    this.log[this.logged++] = where;
    if (++this.size * 2 > this.mask) this.grow();
    return 0;
  }

  /** Writes the logged first places into their slots. */
  private writeLog(): void {
    const { log, firsts } = this;
    for (let j = 0; j < this.logged; j += 2) firsts[log[j]!] = log[j + 1]!;
    this.logged = 0;
  }

  /**
   * Reads the slots where `keys[from..to)` would start their search, in one tight loop: the reads
   * do not depend on each other, so their cache misses overlap. The bulk path calls it for the
   * batch's codes that firstOrAddRun could not take; in firstOrAdd, between long stretches of
   * output writing, the misses would come one at a time.
   */
  warm(keys: Float64Array, from: number, to: number): void {
    const slots = this.slots;
    for (let j = from; j < to; j++) slots[j] = hash(keys[j]! + 1) & this.mask;
    let sink = 0;
    for (let j = from; j < to; j++) sink += this.keys[slots[j]!]!;
    this.sink = sink;
  }

  /**
   * firstOrAdd for keys[0..n), seen at `where`, `where` + 1, ... in turn, into `firsts`: in one
   * tight loop, so that the cache misses of the look-ups overlap.
   */
  firstOrAddRun(keys: Float64Array, n: number, where: number, firsts: Int32Array): void {
    // Their slots read first, all at once, as warm() does (a look-up and an insert per key is too
    // much work in between for more than a few misses to be in flight); the slots warm() found
    // are where the searches start, unless the table grew meanwhile.
    this.warm(keys, 0, n);
    const slots = this.slots;
    const mask = this.mask;
    for (let j = 0; j < n; j++) {
      const key = keys[j]!;
      firsts[j] = this.firstOrAddFrom(key, this.mask === mask ? slots[j]! : hash(key + 1) & this.mask, where + j);
    }
  }

  private grow(): void {
    this.writeLog();
    const { keys, firsts } = this;
    const capacity = keys.length * 2;
    this.keys = new Float64Array(capacity);
    this.firsts = new Int32Array(capacity);
    this.log = new Int32Array(capacity);
    this.mask = capacity - 1;
    for (let j = 0; j < keys.length; j++) {
      const k = keys[j]!;
      if (k === 0) continue;
      let i = hash(k) & this.mask;
      while (this.keys[i] !== 0) i = (i + 1) & this.mask;
      this.keys[i] = k;
      this.firsts[i] = firsts[j]!;
    }
  }
}

/** Mixes both 32-bit halves of a key below 2^53. */
function hash(k: number): number {
  const lo = k >>> 0;
  const hi = (k / 4294967296) | 0;
  let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 15;
  return Math.imul(h, 0xc2b2ae35) ^ (h >>> 13);
}

/** How a first place reads in the warning: a line of a file or stdin, else the nth code given as an argument. */
export function placeText(where: number): string {
  return where > 0 ? linePlace(where) : `code ${-where}`;
}

/** A first place on a line (the bulk path passes a stand-in for the number). */
export const linePlace = (line: number | string): string => `line ${line}`;

/** The warning of a code seen before, at `first` (placeText). */
export function duplicateProblem(first: string): { code: 'duplicate'; message: string; severity: 'warning' } {
  return { code: 'duplicate', message: `the same code as ${first}`, severity: 'warning' };
}
