// Output for `validate`: bytes gathered in a large buffer and written in big chunks. Lines are
// built straight into the buffer (no string per line on the fast path); after each input chunk
// the caller waits for 'drain' if the stream asked to, so memory stays flat on a slow pipe.
// A buffer comes back for reuse once the stream says it is written: touching fresh memory for
// every megabyte of output (page faults) cost more than the fast path's own work.
import type { Writable } from 'node:stream';
import { CliError } from '../../errors.js';

const SIZE = 1 << 20;

export class ByteWriter {
  buf: Buffer = Buffer.allocUnsafe(SIZE);
  pos = 0;
  private failed: Error | undefined;
  /** Buffers the stream has finished with. */
  private readonly free: Buffer[] = [];

  constructor(private readonly stream: Writable) {
    // A reader that went away (`| head`) shows up as EPIPE: stop instead of crashing.
    stream.on('error', (err: Error) => {
      this.failed = err;
    });
  }

  /** Makes room for n more bytes in `buf` at `pos` (n must be under SIZE). */
  reserve(n: number): void {
    if (this.pos + n > this.buf.length) this.spill();
  }

  /** Appends a string (UTF-8). */
  text(s: string): void {
    if (s.length * 3 > SIZE / 2) {
      this.spill();
      this.stream.write(s);
      return;
    }
    this.reserve(s.length * 3);
    this.pos += this.buf.write(s, this.pos, 'utf8');
  }

  /** Hands the filled part to the stream and starts a new buffer (the stream keeps the old one). */
  private spill(): void {
    this.check();
    if (this.pos === 0) return;
    const full = this.buf;
    this.stream.write(full.subarray(0, this.pos), () => {
      // Bounded by backpressure: only a few buffers are ever in flight.
      this.free.push(full);
    });
    this.buf = this.free.pop() ?? Buffer.allocUnsafe(SIZE);
    this.pos = 0;
  }

  /**
   * After a chunk of input: write when enough has piled up (`now`: whatever there is, for a
   * person watching a terminal), and wait if the stream is full.
   */
  maybeFlush(now = false): Promise<void> | undefined {
    if (this.pos >= SIZE / 2 || (now && this.pos > 0)) this.spill();
    return this.stream.writableNeedDrain ? this.drain() : undefined;
  }

  async flush(): Promise<void> {
    this.spill();
    if (this.stream.writableNeedDrain) await this.drain();
    this.check();
  }

  private drain(): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        this.stream.off('drain', done);
        this.stream.off('error', done);
        this.stream.off('close', done);
        resolve();
      };
      this.stream.on('drain', done);
      this.stream.on('error', done);
      this.stream.on('close', done);
    }).then(() => this.check());
  }

  private check(): void {
    if (this.failed) throw new CliError(`cannot write the output: ${this.failed.message}`, { code: 'output_closed' });
  }
}
