// Collects output text and writes it in large chunks, waiting for 'drain' when the stream asks
// to (a slow pipe must not make us buffer a whole million-line result).
import type { Writable } from 'node:stream';
import { CliError } from '../../errors.js';

const FLUSH_AT = 1 << 16;

export class BatchWriter {
  private buf = '';
  private failed: Error | undefined;

  constructor(private readonly stream: Writable) {
    // A reader that went away (`| head`) shows up as EPIPE: stop instead of crashing.
    stream.on('error', (err: Error) => {
      this.failed = err;
    });
  }

  add(text: string): void {
    this.buf += text;
  }

  /** Writes when enough has piled up; resolves when the stream can take more. */
  maybeFlush(): Promise<void> | undefined {
    return this.buf.length >= FLUSH_AT ? this.flush() : undefined;
  }

  async flush(): Promise<void> {
    this.check();
    if (this.buf.length === 0) return;
    const ok = this.stream.write(this.buf);
    this.buf = '';
    if (!ok) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.stream.off('drain', done);
          this.stream.off('error', done);
          this.stream.off('close', done);
          resolve();
        };
        this.stream.on('drain', done);
        this.stream.on('error', done);
        this.stream.on('close', done);
      });
      this.check();
    }
  }

  private check(): void {
    if (this.failed) throw new CliError(`cannot write the output: ${this.failed.message}`, { code: 'output_closed' });
  }
}
